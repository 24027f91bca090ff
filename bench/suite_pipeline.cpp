// Pipeline creation on the shader corpus: one benchmark per compute shader (with and without
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR) and one per vertex + fragment pair of the same stem.
//
// One iteration = vkCreateShaderModule + vkCreate*Pipelines + both destroys, because drivers split their front end
// between the two calls differently (crashtest validates at module creation). Each iteration uses SPIR-V with a
// fresh generator word so no in-memory or on-disk cache keyed on the code can answer instead of the compiler.
#include <atomic>

#include "bench_common.h"
#include "shader_corpus.h"
#include "shader_layout.h"
#include "suites.h"

namespace crashtest::bench {
namespace {

constexpr const char* kPipelineExecutableExtension = "VK_KHR_pipeline_executable_properties";

uint32_t next_salt() {
  static std::atomic<uint32_t> salt{1};
  return salt.fetch_add(1, std::memory_order_relaxed);
}

// Precondition checks shared by compute and graphics; returns "" when the shaders can be tried.
std::string shader_problem(const VkContext& ctx, const std::vector<const CorpusShader*>& shaders) {
  for (const CorpusShader* shader : shaders) {
    if (!shader->error.empty()) return "error: " + shader->error;
    std::string problem = unsupported_capability(ctx, *shader->interface);
    if (!problem.empty()) return problem;
  }
  return ctx.missing({"vkCreateShaderModule", "vkDestroyShaderModule", "vkDestroyPipeline"});
}

// A shader module of freshly salted code, destroyed with the holder.
struct ScopedModule {
  const VkContext& ctx;
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult result = VK_SUCCESS;
  ScopedModule(const VkContext& context, const std::vector<uint32_t>& words) : ctx(context) {
    const std::vector<uint32_t> code = salted_spirv(words, next_salt());
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = code.size() * sizeof(uint32_t);
    info.pCode = code.data();
    result = ctx.vk().vkCreateShaderModule(ctx.device(), &info, nullptr, &module);
    if (result != VK_SUCCESS) module = VK_NULL_HANDLE;
  }
  ~ScopedModule() {
    if (module != VK_NULL_HANDLE) ctx.vk().vkDestroyShaderModule(ctx.device(), module, nullptr);
  }
  ScopedModule(const ScopedModule&) = delete;
  ScopedModule& operator=(const ScopedModule&) = delete;
};

std::string creation_failure(const char* call, VkResult result, const std::string& shader) {
  if (is_shader_rejection(result)) {
    return "unsupported: the driver declines " + shader + " (" + call + " returned " + result_name(result) + ")";
  }
  return call_failed(call, result) + " for " + shader;
}

void compute_pipeline(benchmark::State& state, const CorpusShader* shader, bool capture_statistics) {
  const VkContext* ctx =
      context_or_skip(state, capture_statistics ? DeviceFlavor::kPipelineStatistics : DeviceFlavor::kPlain);
  if (!ctx) return;
  if (capture_statistics && !ctx->extension_enabled(kPipelineExecutableExtension)) {
    ok_or_skip(state, "unsupported: VK_KHR_pipeline_executable_properties (pipelineExecutableInfo) is not offered");
    return;
  }
  if (!ok_or_skip(state, shader_problem(*ctx, {shader}))) return;
  if (!ok_or_skip(state, ctx->missing({"vkCreateComputePipelines"}))) return;
  std::string error;
  auto layout = ShaderLayout::Create(*ctx, {&*shader->interface}, &error);
  if (!ok_or_skip(state, error)) return;
  const DeviceCommands& vk = ctx->vk();
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.flags = capture_statistics ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.pName = shader->interface->entry_point.c_str();
  info.layout = layout->pipeline_layout();
  for (auto _ : state) {
    ScopedModule module(*ctx, shader->words);
    if (module.result != VK_SUCCESS) {
      ok_or_skip(state, creation_failure("vkCreateShaderModule", module.result, shader->name));
      break;
    }
    info.stage.module = module.module;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult result = vk.vkCreateComputePipelines(ctx->device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, creation_failure("vkCreateComputePipelines", result, shader->name));
      break;
    }
    vk.vkDestroyPipeline(ctx->device(), pipeline, nullptr);
  }
}

// A render pass with one RGBA8 colour attachment: the least a graphics pipeline needs under Vulkan 1.0.
struct ScopedRenderPass {
  const VkContext& ctx;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkResult result = VK_SUCCESS;
  explicit ScopedRenderPass(const VkContext& context) : ctx(context) {
    VkAttachmentDescription attachment{};
    attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    const VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    VkRenderPassCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
    info.attachmentCount = 1;
    info.pAttachments = &attachment;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    result = ctx.vk().vkCreateRenderPass(ctx.device(), &info, nullptr, &render_pass);
    if (result != VK_SUCCESS) render_pass = VK_NULL_HANDLE;
  }
  ~ScopedRenderPass() {
    if (render_pass != VK_NULL_HANDLE) ctx.vk().vkDestroyRenderPass(ctx.device(), render_pass, nullptr);
  }
  ScopedRenderPass(const ScopedRenderPass&) = delete;
  ScopedRenderPass& operator=(const ScopedRenderPass&) = delete;
};

uint32_t format_bytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R32_SFLOAT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_UINT: return 4;
    case VK_FORMAT_R32G32_SFLOAT: case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32_UINT: return 8;
    case VK_FORMAT_R32G32B32_SFLOAT: case VK_FORMAT_R32G32B32_SINT: case VK_FORMAT_R32G32B32_UINT: return 12;
    default: return 16;
  }
}

void graphics_pipeline(benchmark::State& state, const CorpusShader* vertex, const CorpusShader* fragment) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx) return;
  if (!ok_or_skip(state, shader_problem(*ctx, {vertex, fragment}))) return;
  if (!ok_or_skip(state, ctx->missing({"vkCreateGraphicsPipelines", "vkCreateRenderPass", "vkDestroyRenderPass"}))) {
    return;
  }
  std::string error;
  auto layout = ShaderLayout::Create(*ctx, {&*vertex->interface, &*fragment->interface}, &error);
  if (!ok_or_skip(state, error)) return;
  ScopedRenderPass render_pass(*ctx);
  if (render_pass.result != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkCreateRenderPass", render_pass.result));
    return;
  }
  // Vertex attributes packed in one binding in location order.
  std::vector<VkVertexInputAttributeDescription> attributes;
  uint32_t stride = 0;
  for (const VertexInput& input : vertex->interface->vertex_inputs) {
    attributes.push_back({input.location, 0, input.format, stride});
    stride += format_bytes(input.format);
  }
  const VkVertexInputBindingDescription binding{0, stride, VK_VERTEX_INPUT_RATE_VERTEX};
  VkPipelineVertexInputStateCreateInfo vertex_input{};
  vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
  vertex_input.vertexBindingDescriptionCount = attributes.empty() ? 0 : 1;
  vertex_input.pVertexBindingDescriptions = &binding;
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertex_input.pVertexAttributeDescriptions = attributes.data();
  VkPipelineInputAssemblyStateCreateInfo input_assembly{};
  input_assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
  input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo viewport{};
  viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{};
  raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{};
  multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                    VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{};
  blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{};
  dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  VkPipelineShaderStageCreateInfo stages[2]{};
  for (VkPipelineShaderStageCreateInfo& stage : stages) stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].pName = vertex->interface->entry_point.c_str();
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].pName = fragment->interface->entry_point.c_str();
  VkGraphicsPipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pColorBlendState = &blend;
  info.pDynamicState = &dynamic;
  info.layout = layout->pipeline_layout();
  info.renderPass = render_pass.render_pass;
  const std::string name = vertex->name + " + " + fragment->name;
  for (auto _ : state) {
    ScopedModule vertex_module(*ctx, vertex->words);
    ScopedModule fragment_module(*ctx, fragment->words);
    const VkResult module_result =
        vertex_module.result != VK_SUCCESS ? vertex_module.result : fragment_module.result;
    if (module_result != VK_SUCCESS) {
      ok_or_skip(state, creation_failure("vkCreateShaderModule", module_result, name));
      break;
    }
    stages[0].module = vertex_module.module;
    stages[1].module = fragment_module.module;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult result = ctx->vk().vkCreateGraphicsPipelines(ctx->device(), VK_NULL_HANDLE, 1, &info, nullptr,
                                                                &pipeline);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, creation_failure("vkCreateGraphicsPipelines", result, name));
      break;
    }
    ctx->vk().vkDestroyPipeline(ctx->device(), pipeline, nullptr);
  }
}

bool has_suffix(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void register_pipeline_benchmarks(const Corpus& corpus) {
  for (const CorpusShader& shader : corpus.shaders) {
    if (!has_suffix(shader.name, ".comp")) continue;
    benchmark::RegisterBenchmark(("BM_ComputePipeline/" + shader.name).c_str(), compute_pipeline, &shader, false)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_ComputePipelineStats/" + shader.name).c_str(), compute_pipeline, &shader, true)
        ->Unit(benchmark::kMicrosecond);
  }
  for (const CorpusShader& vertex : corpus.shaders) {
    if (!has_suffix(vertex.name, ".vert")) continue;
    const std::string stem = vertex.name.substr(0, vertex.name.size() - 5);
    for (const CorpusShader& fragment : corpus.shaders) {
      if (fragment.name != stem + ".frag") continue;
      benchmark::RegisterBenchmark(("BM_GraphicsPipeline/" + stem).c_str(), graphics_pipeline, &vertex, &fragment)
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace crashtest::bench
