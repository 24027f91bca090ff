// vkCreateComputePipelines / vkCreateGraphicsPipelines / vkDestroyPipeline through the real loader: corpus shaders
// become pipelines whose stages keep the compiled shader, specialisation changes the workgroup size, layout
// mismatches and other misuse fail with a message naming the problem and its VUID, one bad element of a batch
// leaves the others created, derivatives are accepted.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "descriptor/pipeline_layout.h"
#include "pipeline_test_env.h"

namespace crashtest::test {
namespace {

const Pipeline& P(VkPipeline pipeline) { return *FromHandle(pipeline); }

TEST_F(PipelineTest, ComputePipelineKeepsTheCompiledStage) {
  VkPipelineLayout layout = SaxpyLayout();
  VkComputePipelineCreateInfo info = ComputeInfo(Module("saxpy.comp.spv"), layout);
  info.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(info, &pipeline), VK_SUCCESS);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);
  const Pipeline& p = P(pipeline);
  EXPECT_EQ(p.bindPoint(), VK_PIPELINE_BIND_POINT_COMPUTE);
  EXPECT_EQ(p.flags(), static_cast<VkPipelineCreateFlags>(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR));
  EXPECT_EQ(p.layout(), FromHandle(layout));
  ASSERT_EQ(p.stages().size(), 1u);
  EXPECT_EQ(p.stages()[0].stage, VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(p.stages()[0].entryPoint, "main");
  ASSERT_NE(p.stages()[0].shader, nullptr);
  EXPECT_GT(p.stages()[0].shader->module.InstructionCount(), 5u);
  EXPECT_FALSE(p.stages()[0].shader->optimizedSpirv.empty());
  EXPECT_EQ(p.workgroupSize()[0], 64u);
  EXPECT_EQ(p.workgroupSize()[1], 1u);
  EXPECT_EQ(p.workgroupSize()[2], 1u);
  vkDestroyPipeline(device_, VK_NULL_HANDLE, nullptr);  // "If pipeline is VK_NULL_HANDLE ... no action"
}

TEST_F(PipelineTest, CorpusComputeShadersWithMatchingLayouts) {
  struct Case {
    const char* file;
    std::vector<std::vector<BindingSpec>> sets;
    uint32_t pushBytes;
    uint32_t localX, localY;
  };
  const Case cases[] = {
      {"push_constants.comp.spv", {{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}, 128, 64, 1},
      {"uniform_buffer.comp.spv",
       {{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}, {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2}},
        {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
         {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC}}},
       4, 64, 1},
      {"image_blur.comp.spv", {{{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}}}, 0, 16,
       16},
      {"texel_buffers.comp.spv",
       {{{0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER}}}, 0, 64, 1},
      {"spec_constants.comp.spv",
       {{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}, 0, 64, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    std::vector<VkPushConstantRange> push;
    if (c.pushBytes != 0) push.push_back({VK_SHADER_STAGE_COMPUTE_BIT, 0, c.pushBytes});
    VkPipeline pipeline = VK_NULL_HANDLE;
    LogCapture log;
    ASSERT_EQ(CreateCompute(ComputeInfo(Module(c.file), Layout(c.sets, push)), &pipeline), VK_SUCCESS) << log.Take();
    EXPECT_EQ(P(pipeline).workgroupSize()[0], c.localX);
    EXPECT_EQ(P(pipeline).workgroupSize()[1], c.localY);
  }
}

TEST_F(PipelineTest, SpecialisationConstantsChangeTheWorkgroupSize) {
  VkShaderModule module = Module("specialized_size.comp.spv");
  VkPipelineLayout layout = Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
  VkPipeline unspecialised = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(ComputeInfo(module, layout), &unspecialised), VK_SUCCESS);
  EXPECT_EQ(P(unspecialised).workgroupSize()[0], 1u);  // local_size_x_id without a value: the default, 1

  struct { uint32_t size; int32_t iterations; } values{128, 9};
  VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}};
  VkSpecializationInfo specialization{2, entries, sizeof values, &values};
  VkPipeline specialised = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(ComputeInfo(module, layout, &specialization), &specialised), VK_SUCCESS);
  EXPECT_EQ(P(specialised).workgroupSize()[0], 128u);
  EXPECT_EQ(P(specialised).workgroupSize()[1], 1u);

  // The corpus filter: WorkgroupSize built from spec constant 0 (default 64).
  VkPipelineLayout filterLayout =
      Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
  uint32_t width = 32;
  VkSpecializationMapEntry widthEntry{0, 0, 4};
  VkSpecializationInfo widthInfo{1, &widthEntry, 4, &width};
  VkPipeline filter = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(ComputeInfo(Module("spec_constants.comp.spv"), filterLayout, &widthInfo), &filter),
            VK_SUCCESS);
  EXPECT_EQ(P(filter).workgroupSize()[0], 32u);
}

TEST_F(PipelineTest, SpecialisationOutsideItsDataIsMisuse) {
  uint32_t value = 7;
  VkSpecializationMapEntry entry{0, 2, 4};  // bytes 2..6 of a 4-byte block
  VkSpecializationInfo specialization{1, &entry, 4, &value};
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(ComputeInfo(Module("specialized_size.comp.spv"),
                                      Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}), &specialization),
                          &pipeline),
            VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  std::string text = log.Take();
  EXPECT_NE(text.find("pMapEntries[0] (constantID 0) reads bytes 2..6 of pData"), std::string::npos) << text;
  EXPECT_NE(text.find("VK_ERROR_VALIDATION_FAILED_EXT"), std::string::npos) << text;
}

// The device's compute limits hold at creation: a workgroup too large in one dimension or in invocations, or more
// workgroup memory than maxComputeSharedMemorySize, is refused with the VUID (the interpreter would otherwise
// allocate it for every worker).
TEST_F(PipelineTest, ComputeLimitsAreEnforced) {
  VkPipelineLayout layout = Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
  for (uint32_t size : {2048u, 4294967295u}) {
    VkSpecializationMapEntry entry{0, 0, 4};
    VkSpecializationInfo specialization{1, &entry, 4, &size};
    VkPipeline pipeline = VK_NULL_HANDLE;
    LogCapture log;
    EXPECT_EQ(CreateCompute(ComputeInfo(Module("specialized_size.comp.spv"), layout, &specialization), &pipeline),
              VK_ERROR_VALIDATION_FAILED_EXT)
        << size;
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
    const std::string text = log.Take();
    EXPECT_NE(text.find("exceeds maxComputeWorkGroupSize[0]"), std::string::npos) << text;
    EXPECT_NE(text.find("VUID-RuntimeSpirv-x-06429"), std::string::npos) << text;
  }
  uint32_t words = 268435456;  // 1 GiB of floats
  VkSpecializationMapEntry entry{0, 0, 4};
  VkSpecializationInfo specialization{1, &entry, 4, &words};
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(ComputeInfo(Module("specialized_shared.comp.spv"), layout, &specialization), &pipeline),
            VK_ERROR_VALIDATION_FAILED_EXT);
  const std::string text = log.Take();
  EXPECT_NE(text.find("1073741824 bytes of workgroup memory, more than maxComputeSharedMemorySize"),
            std::string::npos)
      << text;
  // Within the limits the same shader is fine.
  words = 1024;
  EXPECT_EQ(CreateCompute(ComputeInfo(Module("specialized_shared.comp.spv"), layout, &specialization), &pipeline),
            VK_SUCCESS);
}

struct MismatchCase {
  const char* name;
  std::vector<std::vector<BindingSpec>> sets;
  std::vector<VkPushConstantRange> push;
  const char* expected[2];  // substrings of the message
};

TEST_F(PipelineTest, LayoutMismatchFailsWithAMessage) {
  const BindingSpec ssbo0{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, ssbo1{1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  const VkPushConstantRange push8{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  const MismatchCase cases[] = {
      {"binding missing", {{ssbo0}}, {push8}, {"set 0 binding 1 (storage buffer", "layout-07988"}},
      {"set missing", {}, {push8}, {"set 0 binding", "(it has 0 set layouts)"}},
      {"wrong descriptor type", {{ssbo0, {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER}}}, {push8},
       {"set 0 binding 1", "layout-07990"}},
      {"stage not included", {{ssbo0, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT}}},
       {push8}, {"stageFlags do not include the stage", "layout-07988"}},
      {"no push constant range", {{ssbo0, ssbo1}}, {}, {"push constant", "layout-07987"}},
      {"push constant range too small", {{ssbo0, ssbo1}}, {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4}},
       {"bytes 0..8", "layout-10069"}},
      {"push constant range of another stage", {{ssbo0, ssbo1}}, {{VK_SHADER_STAGE_VERTEX_BIT, 0, 8}},
       {"push constant", "layout-07987"}},
  };
  VkShaderModule module = Module("saxpy.comp.spv");
  for (const MismatchCase& c : cases) {
    SCOPED_TRACE(c.name);
    VkPipeline pipeline = VK_NULL_HANDLE;
    LogCapture log;
    EXPECT_EQ(CreateCompute(ComputeInfo(module, Layout(c.sets, c.push)), &pipeline), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
    std::string text = log.Take();
    EXPECT_NE(text.find("vkCreateComputePipelines: pCreateInfos[0]: compute stage \"main\""), std::string::npos)
        << text;
    for (const char* expected : c.expected) EXPECT_NE(text.find(expected), std::string::npos) << text;
    EXPECT_NE(text.find("VK_ERROR_VALIDATION_FAILED_EXT"), std::string::npos) << text;
  }
}

TEST_F(PipelineTest, ArrayNeedsEnoughDescriptors) {
  // uniform_buffer.comp declares light_sets[2] at set 0 binding 1.
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(ComputeInfo(Module("uniform_buffer.comp.spv"),
                                      Layout({{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
                                               {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}},
                                              {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                               {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                               {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}},
                                             {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4}})),
                          &pipeline),
            VK_ERROR_VALIDATION_FAILED_EXT);
  std::string text = log.Take();
  EXPECT_NE(text.find("array of 2"), std::string::npos) << text;
  EXPECT_NE(text.find("layout-07991"), std::string::npos) << text;
}

TEST_F(PipelineTest, UnknownEntryPointFailsCleanly) {
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(ComputeInfo(Module("saxpy.comp.spv"), SaxpyLayout(), nullptr, "nope"), &pipeline),
            VK_ERROR_UNKNOWN);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  std::string text = log.Take();
  EXPECT_NE(text.find("entry point \"nope\""), std::string::npos) << text;
  EXPECT_NE(text.find("main"), std::string::npos) << text;
}

TEST_F(PipelineTest, OneBadCreateInfoLeavesTheOthersCreated) {
  VkShaderModule module = Module("saxpy.comp.spv");
  VkPipelineLayout good = SaxpyLayout();
  VkPipelineLayout bad = Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}, {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8}});
  VkComputePipelineCreateInfo infos[3] = {ComputeInfo(module, good), ComputeInfo(module, bad),
                                          ComputeInfo(module, good)};
  VkPipeline pipelines[3];
  std::memset(pipelines, 0xab, sizeof pipelines);
  {
    LogCapture log;
    // "the corresponding entries in the pPipelines output array will be filled with VK_NULL_HANDLE values ... The
    // implementation will attempt to create all pipelines" (Multiple Pipeline Creation).
    EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 3, infos, nullptr, pipelines),
              VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_NE(log.Take().find("pCreateInfos[1]"), std::string::npos) << log.Take();
  }
  Track(pipelines, 3);
  EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  EXPECT_NE(pipelines[2], VK_NULL_HANDLE);

  // With EARLY_RETURN_ON_FAILURE on the failing element, later elements are not attempted.
  infos[1].flags = VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
  std::memset(pipelines, 0xab, sizeof pipelines);
  {
    LogCapture log;
    EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 3, infos, nullptr, pipelines),
              VK_ERROR_VALIDATION_FAILED_EXT);
  }
  Track(pipelines, 3);
  EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[2], VK_NULL_HANDLE);
}

TEST_F(PipelineTest, DerivativesAreAccepted) {
  VkShaderModule module = Module("saxpy.comp.spv");
  VkPipelineLayout layout = SaxpyLayout();
  VkComputePipelineCreateInfo infos[2] = {ComputeInfo(module, layout), ComputeInfo(module, layout)};
  infos[0].flags = VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT;
  infos[1].flags = VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  infos[1].basePipelineIndex = 0;
  VkPipeline pipelines[2] = {};
  ASSERT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 2, infos, nullptr, pipelines), VK_SUCCESS);
  Track(pipelines, 2);
  EXPECT_EQ(P(pipelines[1]).basePipelineId(), P(pipelines[0]).header.id);

  VkComputePipelineCreateInfo byHandle = ComputeInfo(module, layout);
  byHandle.flags = VK_PIPELINE_CREATE_DERIVATIVE_BIT;
  byHandle.basePipelineHandle = pipelines[0];
  VkPipeline derived = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(byHandle, &derived), VK_SUCCESS);
  EXPECT_EQ(P(derived).basePipelineId(), P(pipelines[0]).header.id);

  // The base must allow derivatives (VUID-vkCreateComputePipelines-flags-00696).
  byHandle.basePipelineHandle = derived;
  VkPipeline refused = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(byHandle, &refused), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_NE(log.Take().find("ALLOW_DERIVATIVES"), std::string::npos) << log.Take();
}

TEST_F(PipelineTest, GraphicsPipelineVertexAndFragment) {
  VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkPipelineLayout layout =
      Layout({{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf}, {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf}},
              {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT},
               {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT}}},
             {{VK_SHADER_STAGE_VERTEX_BIT, 0, 64}});
  GraphicsBuilder builder;
  builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, Module("mesh_transform.vert.spv"));
  builder.AddStage(VK_SHADER_STAGE_FRAGMENT_BIT, Module("phong.frag.spv"));
  VkPipeline pipeline = VK_NULL_HANDLE;
  {
    LogCapture log;
    ASSERT_EQ(CreateGraphics(builder.Build(layout, ColourPass(VK_FORMAT_B8G8R8A8_SRGB)), &pipeline), VK_SUCCESS)
        << log.Take();
  }
  const Pipeline& p = P(pipeline);
  EXPECT_EQ(p.bindPoint(), VK_PIPELINE_BIND_POINT_GRAPHICS);
  ASSERT_EQ(p.stages().size(), 2u);
  EXPECT_EQ(p.stages()[0].stage, VK_SHADER_STAGE_VERTEX_BIT);
  EXPECT_EQ(p.stages()[1].stage, VK_SHADER_STAGE_FRAGMENT_BIT);
  EXPECT_NE(p.FindStage(VK_SHADER_STAGE_FRAGMENT_BIT), nullptr);
  EXPECT_EQ(p.FindStage(VK_SHADER_STAGE_GEOMETRY_BIT), nullptr);
  EXPECT_EQ(p.graphics().topology, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_TRUE(p.graphics().IsDynamic(VK_DYNAMIC_STATE_VIEWPORT));
  EXPECT_FALSE(p.graphics().IsDynamic(VK_DYNAMIC_STATE_LINE_WIDTH));
  ASSERT_EQ(p.graphics().colorAttachmentFormats.size(), 1u);
  EXPECT_EQ(p.graphics().colorAttachmentFormats[0], VK_FORMAT_B8G8R8A8_SRGB);
  EXPECT_EQ(p.graphics().depthAttachmentFormat, VK_FORMAT_UNDEFINED);

  // The fragment stage reads set 1: without it the layout check names the fragment stage.
  VkPipelineLayout partial = Layout({{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf},
                                      {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf}}},
                                    {{VK_SHADER_STAGE_VERTEX_BIT, 0, 64}});
  VkPipeline failed = VK_NULL_HANDLE;
  LogCapture mismatch;
  EXPECT_EQ(CreateGraphics(builder.Refresh(partial, builder.info.renderPass), &failed), VK_ERROR_VALIDATION_FAILED_EXT);
  std::string text = mismatch.Take();
  EXPECT_NE(text.find("fragment stage \"main\""), std::string::npos) << text;
  EXPECT_NE(text.find("set 1 binding "), std::string::npos) << text;
  EXPECT_NE(text.find("(combined image sampler \""), std::string::npos) << text;
  EXPECT_NE(text.find("VUID-VkGraphicsPipelineCreateInfo-layout-07988"), std::string::npos) << text;
}

TEST_F(PipelineTest, GraphicsMisuseIsReported) {
  VkPipelineLayout layout = Layout({});
  VkRenderPass pass = ColourPass();
  struct Case {
    const char* name;
    void (*edit)(GraphicsBuilder&);
    const char* expected;
  };
  const Case cases[] = {
      {"no vertex stage", [](GraphicsBuilder& b) { b.stages.erase(b.stages.begin()); }, "stage-02096"},
      {"two vertex stages", [](GraphicsBuilder& b) { b.stages.push_back(b.stages[0]); }, "stage-06897"},
      {"patch list without tessellation",
       [](GraphicsBuilder& b) { b.inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST; }, "topology-00737"},
      {"subpass out of range", [](GraphicsBuilder& b) { b.info.subpass = 3; }, "renderPass-06046"},
      {"dynamic state twice",
       [](GraphicsBuilder& b) { b.dynamicStates.push_back(VK_DYNAMIC_STATE_VIEWPORT); }, "pDynamicStates-01442"},
  };
  VkShaderModule vertex = Module("fullscreen_triangle.vert.spv");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    GraphicsBuilder builder;
    builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, vertex);
    builder.Build(layout, pass);
    c.edit(builder);
    uint32_t subpass = builder.info.subpass;
    builder.Refresh(layout, pass);
    builder.info.subpass = subpass;
    VkPipeline pipeline = VK_NULL_HANDLE;
    LogCapture log;
    EXPECT_EQ(CreateGraphics(builder.info, &pipeline), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
    EXPECT_NE(log.Take().find(c.expected), std::string::npos) << log.Take();
  }
  // The valid base of those cases.
  GraphicsBuilder builder;
  builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, vertex);
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(CreateGraphics(builder.Build(layout, pass), &pipeline), VK_SUCCESS);
}

TEST_F(PipelineTest, TessellationPipeline) {
  if (!tessellation_) GTEST_SKIP() << "the device does not advertise tessellationShader";
  VkShaderStageFlags tess = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  VkPipelineLayout layout = Layout({{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, tess}}}, {{tess, 0, 4}});
  GraphicsBuilder builder;
  builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, Module("fullscreen_triangle.vert.spv"));
  builder.AddStage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, Module("pn_triangles.tesc.spv"));
  builder.AddStage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, Module("pn_triangles.tese.spv"));
  builder.Build(layout, ColourPass());
  builder.inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  builder.tessellation.patchControlPoints = 3;
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  ASSERT_EQ(CreateGraphics(builder.info, &pipeline), VK_SUCCESS) << log.Take();
  EXPECT_EQ(P(pipeline).stages().size(), 3u);
  EXPECT_EQ(P(pipeline).graphics().patchControlPoints, 3u);
}

TEST_F(PipelineTest, GeometryPipeline) {
  if (!geometry_) GTEST_SKIP() << "the device does not advertise geometryShader";
  VkPipelineLayout layout = Layout({}, {{VK_SHADER_STAGE_GEOMETRY_BIT, 0, 8}});
  GraphicsBuilder builder;
  builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, Module("fullscreen_triangle.vert.spv"));
  builder.AddStage(VK_SHADER_STAGE_GEOMETRY_BIT, Module("wireframe.geom.spv"));
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  ASSERT_EQ(CreateGraphics(builder.Build(layout, ColourPass()), &pipeline), VK_SUCCESS) << log.Take();
  EXPECT_NE(P(pipeline).FindStage(VK_SHADER_STAGE_GEOMETRY_BIT), nullptr);
}

TEST_F(PipelineTest, GeometryStageNeedsTheFeature) {
  if (geometry_) GTEST_SKIP() << "geometryShader is enabled on this device";
  GraphicsBuilder builder;
  builder.AddStage(VK_SHADER_STAGE_VERTEX_BIT, Module("fullscreen_triangle.vert.spv"));
  builder.AddStage(VK_SHADER_STAGE_GEOMETRY_BIT, Module("wireframe.geom.spv"));
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateGraphics(builder.Build(Layout({}, {{VK_SHADER_STAGE_GEOMETRY_BIT, 0, 8}}), ColourPass()), &pipeline),
            VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_NE(log.Take().find("VUID-VkPipelineShaderStageCreateInfo-stage-00704"), std::string::npos) << log.Take();
}

TEST_F(PipelineTest, ChainedShaderModuleCreateInfoNeedsMaintenance5) {
  std::vector<uint32_t> words = CompilerTestWords("saxpy.comp.spv");
  VkShaderModuleCreateInfo chained{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  chained.codeSize = words.size() * 4;
  chained.pCode = words.data();
  VkComputePipelineCreateInfo info = ComputeInfo(VK_NULL_HANDLE, SaxpyLayout());
  info.stage.pNext = &chained;
  VkPipeline pipeline = VK_NULL_HANDLE;
  LogCapture log;
  EXPECT_EQ(CreateCompute(info, &pipeline), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_NE(log.Take().find("maintenance5"), std::string::npos) << log.Take();
}

struct CountingAllocator {
  std::atomic<int> live{0};
  bool fail = false;
  VkAllocationCallbacks callbacks() {
    VkAllocationCallbacks c{};
    c.pUserData = this;
    c.pfnAllocation = [](void* user, size_t size, size_t alignment, VkSystemAllocationScope) -> void* {
      auto* self = static_cast<CountingAllocator*>(user);
      if (self->fail) return nullptr;
      ++self->live;
      return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    };
    c.pfnReallocation = [](void*, void*, size_t, size_t, VkSystemAllocationScope) -> void* { return nullptr; };
    c.pfnFree = [](void* user, void* memory) {
      if (memory == nullptr) return;
      --static_cast<CountingAllocator*>(user)->live;
      std::free(memory);
    };
    return c;
  }
};

TEST_F(PipelineTest, AllocationCallbacksAreHonoured) {
  CountingAllocator counter;
  VkAllocationCallbacks callbacks = counter.callbacks();
  VkComputePipelineCreateInfo info = ComputeInfo(Module("saxpy.comp.spv"), SaxpyLayout());
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, &callbacks, &pipeline), VK_SUCCESS);
  EXPECT_EQ(counter.live.load(), 1);
  vkDestroyPipeline(device_, pipeline, &callbacks);
  EXPECT_EQ(counter.live.load(), 0);

  VkPipelineCacheCreateInfo cacheInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineCache(device_, &cacheInfo, &callbacks, &cache), VK_SUCCESS);
  EXPECT_EQ(counter.live.load(), 1);
  vkDestroyPipelineCache(device_, cache, &callbacks);
  EXPECT_EQ(counter.live.load(), 0);

  // A failing callback: VK_ERROR_OUT_OF_HOST_MEMORY, VK_NULL_HANDLE, nothing leaked.
  counter.fail = true;
  pipeline = reinterpret_cast<VkPipeline>(uintptr_t{0x1234});
  LogCapture log;
  EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, &callbacks, &pipeline),
            VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  EXPECT_EQ(vkCreatePipelineCache(device_, &cacheInfo, &callbacks, &cache), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(counter.live.load(), 0);
}

}  // namespace
}  // namespace crashtest::test
