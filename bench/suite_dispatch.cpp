// Dispatch: one workgroup of each corpus compute kernel per submission (record once, then submit + fence wait per
// iteration). The kernels' buffers are zero-filled host memory; kernels with image or sampler descriptors are
// skipped, because the bench binds buffers only.
//
// Pipeline then dispatch: vkCreateShaderModule + vkCreateComputePipelines + recording + the first submission and
// fence wait, per iteration, with freshly salted SPIR-V. This is the time until a new kernel has run once. It is the
// fair figure to compare compilers with when a driver compiles lazily: lavapipe (llvmpipe) JIT-compiles a compute
// shader with LLVM at its first dispatch, not in vkCreateComputePipelines, so BM_ComputePipeline sees only its NIR
// front half. Subtract BM_Dispatch (a submission of an already compiled kernel) for the compile alone.
#include <cstring>

#include "bench_common.h"
#include "shader_corpus.h"
#include "shader_layout.h"
#include "suites.h"

namespace crashtest::bench {
namespace {

// Large enough for any corpus kernel indexing by invocation id within one workgroup (1024 × 16-byte elements ×
// a generous factor), small enough to allocate per binding.
constexpr VkDeviceSize kBindingBytes = 1u << 20;

bool is_buffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
}

struct DispatchRig {
  const VkContext& ctx;
  std::unique_ptr<ShaderLayout> layout;
  std::vector<std::unique_ptr<HostBuffer>> buffers;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::unique_ptr<CommandRig> commands;
  explicit DispatchRig(const VkContext& context) : ctx(context) {}
  ~DispatchRig() {
    const DeviceCommands& vk = ctx.vk();
    commands.reset();
    if (pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(ctx.device(), pipeline, nullptr);
    if (module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(ctx.device(), module, nullptr);
    if (pool != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(ctx.device(), pool, nullptr);
  }
  DispatchRig(const DispatchRig&) = delete;
  DispatchRig& operator=(const DispatchRig&) = delete;

  std::string build(const CorpusShader& shader) {
    std::string error;
    layout = ShaderLayout::Create(ctx, {&*shader.interface}, &error);
    if (!layout) return error;
    if (std::string problem = create_pipeline(shader, shader.words); !problem.empty()) return problem;
    if (std::string problem = bind_buffers(); !problem.empty()) return problem;
    commands = CommandRig::Create(ctx, &error);
    if (!commands) return error;
    return record();
  }

  // A new module and pipeline from `words` (the shader's code, possibly salted), recorded in place of the old ones.
  std::string replace_pipeline(const CorpusShader& shader, const std::vector<uint32_t>& words) {
    const DeviceCommands& vk = ctx.vk();
    vk.vkDestroyPipeline(ctx.device(), pipeline, nullptr);
    vk.vkDestroyShaderModule(ctx.device(), module, nullptr);
    pipeline = VK_NULL_HANDLE;
    module = VK_NULL_HANDLE;
    if (std::string problem = create_pipeline(shader, words); !problem.empty()) return problem;
    return record();
  }

 private:
  std::string create_pipeline(const CorpusShader& shader, const std::vector<uint32_t>& words) {
    const DeviceCommands& vk = ctx.vk();
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = words.size() * sizeof(uint32_t);
    module_info.pCode = words.data();
    VkResult result = vk.vkCreateShaderModule(ctx.device(), &module_info, nullptr, &module);
    if (result != VK_SUCCESS) {
      module = VK_NULL_HANDLE;
      return is_shader_rejection(result) ? "unsupported: the driver declines " + shader.name
                                         : call_failed("vkCreateShaderModule", result);
    }
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = shader.interface->entry_point.c_str();
    info.layout = layout->pipeline_layout();
    result = vk.vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    if (result != VK_SUCCESS) {
      pipeline = VK_NULL_HANDLE;
      return is_shader_rejection(result) ? "unsupported: the driver declines " + shader.name
                                         : call_failed("vkCreateComputePipelines", result);
    }
    return {};
  }

  std::vector<VkDescriptorSet> sets;

  std::string bind_buffers() {
    const std::vector<DescriptorBinding>& bindings = layout->bindings();
    if (bindings.empty()) return {};
    const DeviceCommands& vk = ctx.vk();
    uint32_t storage = 0, uniform = 0;
    for (const DescriptorBinding& binding : bindings) {
      (binding.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ? storage : uniform) += binding.count;
    }
    std::vector<VkDescriptorPoolSize> sizes;
    if (storage) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage});
    if (uniform) sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform});
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = static_cast<uint32_t>(layout->set_layouts().size());
    pool_info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pool_info.pPoolSizes = sizes.data();
    VkResult result = vk.vkCreateDescriptorPool(ctx.device(), &pool_info, nullptr, &pool);
    if (result != VK_SUCCESS) {
      pool = VK_NULL_HANDLE;
      return call_failed("vkCreateDescriptorPool", result);
    }
    sets.resize(layout->set_layouts().size());
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = static_cast<uint32_t>(sets.size());
    allocate.pSetLayouts = layout->set_layouts().data();
    result = vk.vkAllocateDescriptorSets(ctx.device(), &allocate, sets.data());
    if (result != VK_SUCCESS) return call_failed("vkAllocateDescriptorSets", result);
    for (const DescriptorBinding& binding : bindings) {
      std::string error;
      auto buffer = HostBuffer::Create(ctx, kBindingBytes,
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &error);
      if (!buffer) return error;
      std::memset(buffer->mapped(), 0, kBindingBytes);
      const VkDeviceSize range = binding.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                     ? std::min<VkDeviceSize>(kBindingBytes,
                                                              ctx.properties().limits.maxUniformBufferRange)
                                     : kBindingBytes;
      // Every element of a descriptor array sees the same buffer: the kernels only need valid memory.
      std::vector<VkDescriptorBufferInfo> infos(binding.count, VkDescriptorBufferInfo{buffer->buffer(), 0, range});
      VkWriteDescriptorSet write{};
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = sets[binding.set];
      write.dstBinding = binding.binding;
      write.descriptorCount = binding.count;
      write.descriptorType = binding.type;
      write.pBufferInfo = infos.data();
      vk.vkUpdateDescriptorSets(ctx.device(), 1, &write, 0, nullptr);
      buffers.push_back(std::move(buffer));
    }
    return {};
  }

  std::string record() {
    const DeviceCommands& vk = ctx.vk();
    const VkCommandBuffer cb = commands->command_buffer();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    VkResult result = vk.vkBeginCommandBuffer(cb, &begin);
    if (result != VK_SUCCESS) return call_failed("vkBeginCommandBuffer", result);
    vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    if (!sets.empty()) {
      vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout->pipeline_layout(), 0,
                                 static_cast<uint32_t>(sets.size()), sets.data(), 0, nullptr);
    }
    if (layout->push_constant_bytes() > 0) {
      const std::vector<unsigned char> zeros(layout->push_constant_bytes(), 0);
      vk.vkCmdPushConstants(cb, layout->pipeline_layout(), layout->stages(), 0, layout->push_constant_bytes(),
                            zeros.data());
    }
    vk.vkCmdDispatch(cb, 1, 1, 1);
    result = vk.vkEndCommandBuffer(cb);
    return result == VK_SUCCESS ? std::string() : call_failed("vkEndCommandBuffer", result);
  }
};

// "" when the kernel can be dispatched by this bench on this device, else why not ("unsupported: …"/"error: …").
std::string dispatch_problem(const VkContext& ctx, const CorpusShader& shader) {
  if (!shader.error.empty()) return "error: " + shader.error;
  if (std::string problem = unsupported_capability(ctx, *shader.interface); !problem.empty()) return problem;
  if (std::string missing = ctx.missing({"vkCreateShaderModule", "vkDestroyShaderModule", "vkCreateComputePipelines",
                                         "vkDestroyPipeline", "vkCreateDescriptorPool", "vkDestroyDescriptorPool",
                                         "vkAllocateDescriptorSets", "vkUpdateDescriptorSets", "vkCmdBindPipeline",
                                         "vkCmdBindDescriptorSets", "vkCmdPushConstants", "vkCmdDispatch"});
      !missing.empty()) {
    return missing;
  }
  for (const DescriptorBinding& binding : shader.interface->bindings) {
    if (!is_buffer(binding.type)) {
      return "unsupported: the bench binds buffers only; " + shader.name + " uses an image or sampler";
    }
  }
  return {};
}

void dispatch_kernel(benchmark::State& state, const CorpusShader* shader) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx) return;
  if (!ok_or_skip(state, dispatch_problem(*ctx, *shader))) return;
  DispatchRig rig(*ctx);
  if (!ok_or_skip(state, rig.build(*shader))) return;
  // One untimed run first: drivers may finish compiling or upload state at the first submission.
  if (const VkResult warm_up = rig.commands->submit_and_wait(); warm_up != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", warm_up));
    return;
  }
  for (auto _ : state) {
    const VkResult result = rig.commands->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", result));
      break;
    }
  }
}

void pipeline_then_dispatch(benchmark::State& state, const CorpusShader* shader) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx) return;
  if (!ok_or_skip(state, dispatch_problem(*ctx, *shader))) return;
  DispatchRig rig(*ctx);  // layout, buffers and descriptor sets are made once; only the kernel is new each time
  if (!ok_or_skip(state, rig.build(*shader))) return;
  if (const VkResult warm_up = rig.commands->submit_and_wait(); warm_up != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", warm_up));
    return;
  }
  uint32_t salt = 1;
  for (auto _ : state) {
    const std::vector<uint32_t> words = salted_spirv(shader->words, ++salt);  // timed, as in BM_ComputePipeline
    if (!ok_or_skip(state, rig.replace_pipeline(*shader, words))) break;
    const VkResult result = rig.commands->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", result));
      break;
    }
  }
}

bool is_compute(const CorpusShader& shader) {
  return shader.name.size() > 5 && shader.name.compare(shader.name.size() - 5, 5, ".comp") == 0;
}

}  // namespace

void register_dispatch_benchmarks(const Corpus& corpus) {
  for (const CorpusShader& shader : corpus.shaders) {
    if (!is_compute(shader)) continue;
    benchmark::RegisterBenchmark(("BM_Dispatch/" + shader.name).c_str(), dispatch_kernel, &shader)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_PipelineThenDispatch/" + shader.name).c_str(), pipeline_then_dispatch, &shader)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
}

}  // namespace crashtest::bench
