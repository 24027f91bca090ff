// Pipeline caches through the real loader: the spec's header with the emulated device's identity, a second
// creation served from the cache (creation feedback says so), a round trip through vkGetPipelineCacheData, merge,
// foreign / corrupt / truncated initial data ignored, the VK_INCOMPLETE protocol, and
// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "pipeline_test_env.h"

namespace crashtest::test {
namespace {

// One compute creation with feedback chained.
struct Feedback {
  VkPipelineCreationFeedback pipeline{};
  VkPipelineCreationFeedback stage{};
  VkPipelineCreationFeedbackCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  Feedback() {
    info.pPipelineCreationFeedback = &pipeline;
    info.pipelineStageCreationFeedbackCount = 1;
    info.pPipelineStageCreationFeedbacks = &stage;
  }
  bool PipelineHit() const { return pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT; }
  bool StageHit() const { return stage.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT; }
  bool Valid() const {
    return (pipeline.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
           (stage.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  }
};

class PipelineCacheTest : public PipelineTest {
 protected:
  void SetUp() override {
    PipelineTest::SetUp();
    saxpy_ = Module("saxpy.comp.spv");
    saxpyLayout_ = SaxpyLayout();
  }
  // Creates saxpy (optionally specialised with nothing: the shader has no spec constants) with `cache`.
  VkResult CreateSaxpy(VkPipelineCache cache, Feedback* feedback = nullptr, VkPipelineCreateFlags flags = 0,
                       VkPipeline* out = nullptr) {
    VkComputePipelineCreateInfo info = ComputeInfo(saxpy_, saxpyLayout_);
    info.flags = flags;
    if (feedback != nullptr) info.pNext = &feedback->info;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult result = CreateCompute(info, &pipeline, cache);
    if (out != nullptr) *out = pipeline;
    return result;
  }
  VkShaderModule saxpy_ = VK_NULL_HANDLE;
  VkPipelineLayout saxpyLayout_ = VK_NULL_HANDLE;
};

TEST_F(PipelineCacheTest, HeaderCarriesTheEmulatedDevicesIdentity) {
  VkPipelineCache cache = Cache();
  std::vector<uint8_t> empty = CacheData(cache);
  EXPECT_EQ(empty.size(), 32u);  // an empty cache is its header
  ASSERT_EQ(CreateSaxpy(cache), VK_SUCCESS);
  std::vector<uint8_t> data = CacheData(cache);
  ASSERT_GT(data.size(), 32u);
  VkPipelineCacheHeaderVersionOne header;
  std::memcpy(&header, data.data(), sizeof header);
  EXPECT_EQ(header.headerSize, 32u);
  EXPECT_EQ(header.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  EXPECT_EQ(header.vendorID, properties_.vendorID);
  EXPECT_EQ(header.deviceID, properties_.deviceID);
  EXPECT_EQ(std::memcmp(header.pipelineCacheUUID, properties_.pipelineCacheUUID, VK_UUID_SIZE), 0);
  // "Two calls to vkGetPipelineCacheData with the same parameters must retrieve the same data".
  EXPECT_EQ(CacheData(cache), data);
}

TEST_F(PipelineCacheTest, SecondCreationIsACacheHit) {
  VkPipelineCache cache = Cache();
  Feedback first, second;
  ASSERT_EQ(CreateSaxpy(cache, &first), VK_SUCCESS);
  EXPECT_TRUE(first.Valid());
  EXPECT_FALSE(first.PipelineHit());
  EXPECT_FALSE(first.StageHit());
  EXPECT_GT(first.stage.duration, 0u);
  EXPECT_GE(first.pipeline.duration, first.stage.duration);
  ASSERT_EQ(CreateSaxpy(cache, &second), VK_SUCCESS);
  EXPECT_TRUE(second.Valid());
  EXPECT_TRUE(second.PipelineHit());
  EXPECT_TRUE(second.StageHit());
  // Durations are reported, not compared: tests make no timing assertions (docs/compiler.md has the figures).
  std::printf("first creation %llu ns (stage %llu), cache hit %llu ns (stage %llu)\n",
              static_cast<unsigned long long>(first.pipeline.duration),
              static_cast<unsigned long long>(first.stage.duration),
              static_cast<unsigned long long>(second.pipeline.duration),
              static_cast<unsigned long long>(second.stage.duration));

  // Without a cache nothing is ever a hit.
  Feedback uncached;
  ASSERT_EQ(CreateSaxpy(VK_NULL_HANDLE, &uncached), VK_SUCCESS);
  EXPECT_TRUE(uncached.Valid());
  EXPECT_FALSE(uncached.PipelineHit());
}

TEST_F(PipelineCacheTest, DataRoundTripSkipsCompilation) {
  VkPipelineCache original = Cache();
  Feedback compiled;
  ASSERT_EQ(CreateSaxpy(original, &compiled), VK_SUCCESS);
  EXPECT_FALSE(compiled.StageHit());
  std::vector<uint8_t> data = CacheData(original);
  VkPipelineCache reloaded = Cache(data.data(), data.size());
  EXPECT_EQ(CacheData(reloaded), data);
  Feedback feedback;
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(CreateSaxpy(reloaded, &feedback, 0, &pipeline), VK_SUCCESS);
  EXPECT_TRUE(feedback.PipelineHit());
  EXPECT_TRUE(feedback.StageHit());
  // Rebuilt from the stored optimised SPIR-V by lowering alone: no validation, no optimisation.
  const pipeline::CompiledShader& shader = *FromHandle(pipeline)->stages()[0].shader;
  EXPECT_EQ(shader.timings.validation, 0u);
  EXPECT_EQ(shader.timings.optimization, 0u);
  EXPECT_GT(shader.timings.lowering, 0u);
  EXPECT_GT(shader.module.InstructionCount(), 5u);
  EXPECT_EQ(FromHandle(pipeline)->workgroupSize()[0], 64u);
  std::printf("compiled %llu ns, from reloaded cache data (lowering only) %llu ns\n",
              static_cast<unsigned long long>(compiled.pipeline.duration),
              static_cast<unsigned long long>(feedback.pipeline.duration));
}

TEST_F(PipelineCacheTest, SpecialisationIsPartOfTheKey) {
  VkShaderModule module = Module("specialized_size.comp.spv");
  VkPipelineLayout layout = Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}});
  VkPipelineCache cache = Cache();
  uint32_t size = 32;
  VkSpecializationMapEntry entry{0, 0, 4};
  VkSpecializationInfo specialization{1, &entry, 4, &size};
  auto create = [&](Feedback* feedback) {
    VkComputePipelineCreateInfo info = ComputeInfo(module, layout, &specialization);
    info.pNext = &feedback->info;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(CreateCompute(info, &pipeline, cache), VK_SUCCESS);
    return pipeline;
  };
  Feedback a, b, c;
  create(&a);
  size = 64;
  VkPipeline other = create(&b);
  EXPECT_FALSE(b.StageHit());
  EXPECT_EQ(FromHandle(other)->workgroupSize()[0], 64u);
  VkPipeline again = create(&c);
  EXPECT_TRUE(c.StageHit());
  EXPECT_EQ(FromHandle(again)->workgroupSize()[0], 64u);
}

TEST_F(PipelineCacheTest, MergeCombinesEntries) {
  VkPipelineCache a = Cache(), b = Cache(), merged = Cache();
  ASSERT_EQ(CreateSaxpy(a), VK_SUCCESS);
  VkPipeline pushPipeline = VK_NULL_HANDLE;
  VkComputePipelineCreateInfo push = ComputeInfo(Module("push_constants.comp.spv"),
                                                 Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}},
                                                        {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128}}));
  ASSERT_EQ(CreateCompute(push, &pushPipeline, b), VK_SUCCESS);
  VkPipelineCache sources[] = {a, b};
  ASSERT_EQ(vkMergePipelineCaches(device_, merged, 2, sources), VK_SUCCESS);
  size_t sizeA = CacheData(a).size(), sizeB = CacheData(b).size(), sizeMerged = CacheData(merged).size();
  EXPECT_EQ(sizeMerged, sizeA + sizeB - 32 - 24);  // one header and one payload header fewer
  // Merging again adds nothing.
  ASSERT_EQ(vkMergePipelineCaches(device_, merged, 2, sources), VK_SUCCESS);
  EXPECT_EQ(CacheData(merged).size(), sizeMerged);

  Feedback saxpyFeedback, pushFeedback;
  ASSERT_EQ(CreateSaxpy(merged, &saxpyFeedback), VK_SUCCESS);
  EXPECT_TRUE(saxpyFeedback.StageHit());
  push.pNext = &pushFeedback.info;
  ASSERT_EQ(CreateCompute(push, &pushPipeline, merged), VK_SUCCESS);
  EXPECT_TRUE(pushFeedback.StageHit());

  // Merging a cache into itself is misuse (VUID-vkMergePipelineCaches-dstCache-00770).
  LogCapture log;
  EXPECT_EQ(vkMergePipelineCaches(device_, a, 1, &a), VK_ERROR_VALIDATION_FAILED_EXT);
}

TEST_F(PipelineCacheTest, ForeignCorruptOrTruncatedDataIsIgnored) {
  VkPipelineCache source = Cache();
  ASSERT_EQ(CreateSaxpy(source), VK_SUCCESS);
  const std::vector<uint8_t> good = CacheData(source);
  ASSERT_GT(good.size(), 64u);
  struct Case {
    const char* name;
    std::vector<uint8_t> data;
    const char* expected;
  };
  std::vector<Case> cases;
  auto edited = [&](size_t offset, uint8_t xorValue) {
    std::vector<uint8_t> copy = good;
    copy[offset] ^= xorValue;
    return copy;
  };
  cases.push_back({"another device's UUID", edited(16 + 3, 0x5a), "pipelineCacheUUID"});
  cases.push_back({"another vendor", edited(8, 1), "vendorID"});
  cases.push_back({"header version 2", edited(4, 3), "headerVersion"});
  cases.push_back({"header size 33", edited(0, 1), "headerSize"});
  cases.push_back({"a flipped payload byte", edited(good.size() - 9, 0x10), "checksum"});
  cases.push_back({"payload magic", edited(32, 0xff), "magic"});
  cases.push_back({"truncated payload", std::vector<uint8_t>(good.begin(), good.end() - 3), "checksum"});
  cases.push_back({"shorter than the header", std::vector<uint8_t>(good.begin(), good.begin() + 20), "shorter than"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    LogCapture log;
    VkPipelineCache cache = Cache(c.data.data(), c.data.size());
    std::string text = log.Take();
    EXPECT_NE(text.find("ignoring pInitialData"), std::string::npos) << text;
    EXPECT_NE(text.find(c.expected), std::string::npos) << text;
    EXPECT_EQ(CacheData(cache).size(), 32u);  // empty
    Feedback feedback;
    ASSERT_EQ(CreateSaxpy(cache, &feedback), VK_SUCCESS);
    EXPECT_FALSE(feedback.StageHit());
  }
  // Every truncation and every single flipped bit past the header is rejected cleanly (or, for a prefix that ends
  // at the header, is an empty cache): never a crash or a read past the data (ASan build).
  {
    LogCapture log;
    for (size_t size = 0; size < good.size(); ++size) {
      std::vector<uint8_t> prefix(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
      EXPECT_EQ(CacheData(Cache(prefix.data(), prefix.size())).size(), 32u) << size;
    }
    for (size_t offset = 32; offset < good.size(); offset += 7) {
      std::vector<uint8_t> flipped = edited(offset, 0x04);
      EXPECT_EQ(CacheData(Cache(flipped.data(), flipped.size())).size(), 32u) << offset;
    }
  }
  // The unedited data still loads (so the cases above fail for their edit alone).
  Feedback feedback;
  ASSERT_EQ(CreateSaxpy(Cache(good.data(), good.size()), &feedback), VK_SUCCESS);
  EXPECT_TRUE(feedback.StageHit());
}

TEST_F(PipelineCacheTest, IncompleteWhenTheBufferIsTooSmall) {
  VkPipelineCache cache = Cache();
  ASSERT_EQ(CreateSaxpy(cache), VK_SUCCESS);
  VkPipeline pushPipeline = VK_NULL_HANDLE;
  ASSERT_EQ(CreateCompute(ComputeInfo(Module("push_constants.comp.spv"),
                                      Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}},
                                             {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128}})),
                          &pushPipeline, cache),
            VK_SUCCESS);
  std::vector<uint8_t> full = CacheData(cache);

  // One byte short: only whole entries are written, and what is written is valid initial data holding one entry.
  std::vector<uint8_t> buffer(full.size(), 0xcd);
  size_t size = full.size() - 1;
  EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, buffer.data()), VK_INCOMPLETE);
  EXPECT_LT(size, full.size() - 1);
  EXPECT_GT(size, 32u + 24u);
  EXPECT_EQ(buffer[size], 0xcd);  // nothing beyond what *pDataSize reports
  LogCapture log;
  VkPipelineCache partial = Cache(buffer.data(), size);
  EXPECT_EQ(log.Take().find("ignoring"), std::string::npos) << log.Take();
  EXPECT_EQ(CacheData(partial).size(), size);

  // Smaller than the header: "nothing will be written to pData and zero will be written to pDataSize".
  std::vector<uint8_t> tiny(16, 0xcd);
  size = tiny.size();
  EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, tiny.data()), VK_INCOMPLETE);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(tiny, std::vector<uint8_t>(16, 0xcd));

  // Exactly enough.
  size = full.size();
  EXPECT_EQ(vkGetPipelineCacheData(device_, cache, &size, buffer.data()), VK_SUCCESS);
  EXPECT_EQ(size, full.size());
  EXPECT_EQ(buffer, full);
}

TEST_F(PipelineCacheTest, FailOnPipelineCompileRequired) {
  VkPipelineCache cache = Cache();
  VkPipeline pipeline = reinterpret_cast<VkPipeline>(uintptr_t{0x1234});
  Feedback missed;
  EXPECT_EQ(CreateSaxpy(cache, &missed, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &pipeline),
            VK_PIPELINE_COMPILE_REQUIRED);
  EXPECT_EQ(pipeline, VK_NULL_HANDLE);
  EXPECT_FALSE(missed.Valid());
  EXPECT_EQ(CreateSaxpy(VK_NULL_HANDLE, nullptr, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &pipeline),
            VK_PIPELINE_COMPILE_REQUIRED);
  EXPECT_EQ(CacheData(cache).size(), 32u);  // nothing was compiled into the cache

  ASSERT_EQ(CreateSaxpy(cache), VK_SUCCESS);
  Feedback hit;
  EXPECT_EQ(CreateSaxpy(cache, &hit, VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &pipeline), VK_SUCCESS);
  EXPECT_NE(pipeline, VK_NULL_HANDLE);
  EXPECT_TRUE(hit.StageHit());

  // In a batch: the element needing a compile is VK_NULL_HANDLE, the call returns VK_PIPELINE_COMPILE_REQUIRED,
  // and with EARLY_RETURN_ON_FAILURE the elements after it are not created.
  VkComputePipelineCreateInfo cached = ComputeInfo(saxpy_, saxpyLayout_);
  VkComputePipelineCreateInfo uncached = ComputeInfo(Module("specialized_size.comp.spv"),
                                                     Layout({{{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}}}));
  uncached.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  VkComputePipelineCreateInfo infos[3] = {cached, uncached, cached};
  VkPipeline pipelines[3];
  ASSERT_EQ(vkCreateComputePipelines(device_, cache, 3, infos, nullptr, pipelines), VK_PIPELINE_COMPILE_REQUIRED);
  Track(pipelines, 3);
  EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  EXPECT_NE(pipelines[2], VK_NULL_HANDLE);
  infos[1].flags |= VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
  ASSERT_EQ(vkCreateComputePipelines(device_, cache, 3, infos, nullptr, pipelines), VK_PIPELINE_COMPILE_REQUIRED);
  Track(pipelines, 3);
  EXPECT_NE(pipelines[0], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[1], VK_NULL_HANDLE);
  EXPECT_EQ(pipelines[2], VK_NULL_HANDLE);
}

TEST_F(PipelineCacheTest, GraphicsStagesHitPerStage) {
  VkShaderStageFlags vf = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkPipelineLayout layout =
      Layout({{{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf}, {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vf}},
              {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, vf},
               {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, vf}}},
             {{VK_SHADER_STAGE_VERTEX_BIT, 0, 64}});
  VkShaderModule vertex = Module("mesh_transform.vert.spv");
  VkRenderPass pass = ColourPass();
  VkPipelineCache cache = Cache();
  // Cache the vertex stage alone first (a vertex-only pipeline), then a vertex + fragment pipeline: the vertex
  // stage hits, the fragment stage does not, so the pipeline as a whole is no hit.
  GraphicsBuilder vertexOnly;
  vertexOnly.AddStage(VK_SHADER_STAGE_VERTEX_BIT, vertex);
  VkPipeline pipeline = VK_NULL_HANDLE;
  ASSERT_EQ(CreateGraphics(vertexOnly.Build(layout, pass), &pipeline, cache), VK_SUCCESS);
  GraphicsBuilder both;
  both.AddStage(VK_SHADER_STAGE_VERTEX_BIT, vertex);
  both.AddStage(VK_SHADER_STAGE_FRAGMENT_BIT, Module("phong.frag.spv"));
  VkPipelineCreationFeedback pipelineFeedback{}, stageFeedback[2]{};
  VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  feedback.pPipelineCreationFeedback = &pipelineFeedback;
  feedback.pipelineStageCreationFeedbackCount = 2;
  feedback.pPipelineStageCreationFeedbacks = stageFeedback;
  both.Build(layout, pass);
  both.info.pNext = &feedback;
  ASSERT_EQ(CreateGraphics(both.info, &pipeline, cache), VK_SUCCESS);
  const VkPipelineCreationFeedbackFlags hit = VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
  EXPECT_TRUE(stageFeedback[0].flags & hit);
  EXPECT_FALSE(stageFeedback[1].flags & hit);
  EXPECT_FALSE(pipelineFeedback.flags & hit);
  EXPECT_TRUE(pipelineFeedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  ASSERT_EQ(CreateGraphics(both.info, &pipeline, cache), VK_SUCCESS);
  EXPECT_TRUE(stageFeedback[0].flags & hit);
  EXPECT_TRUE(stageFeedback[1].flags & hit);
  EXPECT_TRUE(pipelineFeedback.flags & hit);
}

TEST_F(PipelineCacheTest, ConcurrentCreationWithOneCache) {
  // Caches are internally synchronised unless created EXTERNALLY_SYNCHRONIZED.
  VkPipelineCache cache = Cache();
  std::vector<VkPipeline> created(8, VK_NULL_HANDLE);
  std::vector<VkResult> results(8, VK_ERROR_UNKNOWN);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (size_t i = t * 2; i < t * 2 + 2; ++i) {
        VkComputePipelineCreateInfo info = ComputeInfo(saxpy_, saxpyLayout_);
        results[i] = vkCreateComputePipelines(device_, cache, 1, &info, nullptr, &created[i]);
      }
    });
  for (std::thread& thread : threads) thread.join();
  Track(created.data(), created.size());
  for (VkResult result : results) EXPECT_EQ(result, VK_SUCCESS);
  for (VkPipeline pipeline : created) EXPECT_NE(pipeline, VK_NULL_HANDLE);

  VkPipelineCache external = Cache(nullptr, 0, VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT);
  Feedback first, second;
  ASSERT_EQ(CreateSaxpy(external, &first), VK_SUCCESS);
  ASSERT_EQ(CreateSaxpy(external, &second), VK_SUCCESS);
  EXPECT_TRUE(second.StageHit());
}

}  // namespace
}  // namespace crashtest::test
