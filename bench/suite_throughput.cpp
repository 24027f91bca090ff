// Throughput: large dispatches of real kernels, one submission and fence wait per iteration, buffers filled once.
//   BM_Throughput/saxpy_16M     corpus saxpy.comp over 16 Mi floats (memory-bound)
//   BM_Throughput/reduce_16M    corpus reduce.comp summing 16 Mi floats (grid-stride loop, workgroup memory, barriers)
//   BM_Throughput/matmul_256    corpus matmul_tiled.comp, 256×256 × 256×256 floats (tiles in workgroup memory)
//   BM_Throughput/alu           bench/shaders/alu.comp: 64 Ki invocations × 1024 iterations of a 5-multiply-add
//                               loop; the "ns_per_lane_iteration" counter is the time per invocation per iteration
// The kernel is compiled before timing (lavapipe's JIT runs at the first dispatch, which is untimed here).
#include <bit>
#include <cstring>

#include "bench_common.h"
#include "shader_corpus.h"
#include "shader_layout.h"
#include "suites.h"

namespace crashtest::bench {
namespace {

struct Workload {
  const char* name;
  const char* shader;                   // corpus name, or a file in the bench's own shader directory
  std::vector<VkDeviceSize> bytes;      // per binding, in binding order
  std::vector<uint32_t> push;
  uint32_t groups[3];
  double laneIterations;                // for the ALU counter (0: none)
};

uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

std::vector<Workload> Workloads() {
  const VkDeviceSize n = 16u << 20;
  return {
      {"saxpy_16M", "saxpy.comp", {n * 4, n * 4}, {Bits(2.0f), static_cast<uint32_t>(n)}, {static_cast<uint32_t>(n / 64), 1, 1}, 0},
      {"reduce_16M", "reduce.comp", {n * 4, 4096 * 4}, {static_cast<uint32_t>(n)}, {4096, 1, 1}, 0},
      {"matmul_256", "matmul_tiled.comp", {256 * 256 * 4, 256 * 256 * 4, 256 * 256 * 4}, {256, 256, 256, Bits(1.0f)},
       {16, 16, 1}, 0},
      {"alu", "alu.comp", {65536 * 4}, {}, {1024, 1, 1}, 65536.0 * 1024.0},
  };
}

struct ThroughputRig {
  const VkContext& ctx;
  std::unique_ptr<ShaderLayout> layout;
  std::vector<std::unique_ptr<HostBuffer>> buffers;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  std::unique_ptr<CommandRig> commands;
  explicit ThroughputRig(const VkContext& context) : ctx(context) {}
  ~ThroughputRig() {
    const DeviceCommands& vk = ctx.vk();
    commands.reset();
    if (pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(ctx.device(), pipeline, nullptr);
    if (module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(ctx.device(), module, nullptr);
    if (pool != VK_NULL_HANDLE) vk.vkDestroyDescriptorPool(ctx.device(), pool, nullptr);
  }
  ThroughputRig(const ThroughputRig&) = delete;
  ThroughputRig& operator=(const ThroughputRig&) = delete;

  std::string build(const CorpusShader& shader, const Workload& w) {
    const DeviceCommands& vk = ctx.vk();
    std::string error;
    layout = ShaderLayout::Create(ctx, {&*shader.interface}, &error);
    if (!layout) return error;
    const std::vector<DescriptorBinding>& bindings = layout->bindings();
    if (bindings.size() != w.bytes.size()) return "error: " + shader.name + " has an unexpected binding count";
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = shader.words.size() * sizeof(uint32_t);
    module_info.pCode = shader.words.data();
    if (VkResult r = vk.vkCreateShaderModule(ctx.device(), &module_info, nullptr, &module); r != VK_SUCCESS)
      return call_failed("vkCreateShaderModule", r);
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = shader.interface->entry_point.c_str();
    info.layout = layout->pipeline_layout();
    if (VkResult r = vk.vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
        r != VK_SUCCESS)
      return call_failed("vkCreateComputePipelines", r);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(bindings.size())};
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = static_cast<uint32_t>(layout->set_layouts().size());
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    if (VkResult r = vk.vkCreateDescriptorPool(ctx.device(), &pool_info, nullptr, &pool); r != VK_SUCCESS)
      return call_failed("vkCreateDescriptorPool", r);
    sets.resize(layout->set_layouts().size());
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = static_cast<uint32_t>(sets.size());
    allocate.pSetLayouts = layout->set_layouts().data();
    if (VkResult r = vk.vkAllocateDescriptorSets(ctx.device(), &allocate, sets.data()); r != VK_SUCCESS)
      return call_failed("vkAllocateDescriptorSets", r);
    for (size_t i = 0; i < bindings.size(); ++i) {
      auto buffer = HostBuffer::Create(ctx, w.bytes[i], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &error);
      if (!buffer) return error;
      // Inputs of 1.0f: every kernel sees finite, non-denormal numbers.
      float* values = static_cast<float*>(buffer->mapped());
      for (VkDeviceSize k = 0; k < w.bytes[i] / 4; ++k) values[k] = 1.0f;
      VkDescriptorBufferInfo buffer_info{buffer->buffer(), 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet write{};
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.dstSet = sets[bindings[i].set];
      write.dstBinding = bindings[i].binding;
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &buffer_info;
      vk.vkUpdateDescriptorSets(ctx.device(), 1, &write, 0, nullptr);
      buffers.push_back(std::move(buffer));
    }
    commands = CommandRig::Create(ctx, &error);
    if (!commands) return error;
    const VkCommandBuffer cb = commands->command_buffer();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vk.vkBeginCommandBuffer(cb, &begin);
    vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout->pipeline_layout(), 0,
                               static_cast<uint32_t>(sets.size()), sets.data(), 0, nullptr);
    if (layout->push_constant_bytes() > 0) {
      std::vector<uint32_t> push(layout->push_constant_bytes() / 4 + 1, 0);
      std::copy(w.push.begin(), w.push.end(), push.begin());
      vk.vkCmdPushConstants(cb, layout->pipeline_layout(), layout->stages(), 0, layout->push_constant_bytes(),
                            push.data());
    }
    vk.vkCmdDispatch(cb, w.groups[0], w.groups[1], w.groups[2]);
    VkResult r = vk.vkEndCommandBuffer(cb);
    return r == VK_SUCCESS ? std::string() : call_failed("vkEndCommandBuffer", r);
  }
};

void throughput(benchmark::State& state, const CorpusShader* shader, Workload w) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx) return;
  if (!shader->error.empty()) {
    ok_or_skip(state, "error: " + shader->error);
    return;
  }
  ThroughputRig rig(*ctx);
  if (!ok_or_skip(state, rig.build(*shader, w))) return;
  if (VkResult warm_up = rig.commands->submit_and_wait(); warm_up != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", warm_up));
    return;
  }
  for (auto _ : state) {
    if (VkResult r = rig.commands->submit_and_wait(); r != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", r));
      break;
    }
  }
  if (w.laneIterations > 0)
    state.counters["ns_per_lane_iteration"] = benchmark::Counter(
        w.laneIterations * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

void register_throughput_benchmarks(const Corpus& corpus, const Corpus& own) {
  for (const Workload& w : Workloads()) {
    const CorpusShader* found = nullptr;
    for (const Corpus* c : {&corpus, &own})
      for (const CorpusShader& shader : c->shaders)
        if (found == nullptr && shader.name == w.shader) found = &shader;
    if (found == nullptr) continue;
    benchmark::RegisterBenchmark((std::string("BM_Throughput/") + w.name).c_str(), throughput, found, w)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace crashtest::bench
