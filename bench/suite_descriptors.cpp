// Descriptor sets: the per-set cost of the churn engines put a FREE_DESCRIPTOR_SET pool through every frame —
// allocate the pool's sets one call at a time, free every other one (one call each), reset the pool — at 64 to
// 4096 sets per pool, as "ns_per_set". A pool whose bookkeeping grows with its size shows up as a rising figure.
#include <cstdint>
#include <vector>

#include "bench_common.h"

namespace crashtest::bench {
namespace {

void BM_DescriptorSetChurn(benchmark::State& state) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, ctx->missing({"vkCreateDescriptorSetLayout", "vkDestroyDescriptorSetLayout",
                                                "vkCreateDescriptorPool", "vkDestroyDescriptorPool",
                                                "vkAllocateDescriptorSets", "vkFreeDescriptorSets",
                                                "vkResetDescriptorPool"}))) {
    return;
  }
  const DeviceCommands& vk = ctx->vk();
  const uint32_t sets = static_cast<uint32_t>(state.range(0));
  // A typical compute layout: two storage buffers and a uniform buffer.
  VkDescriptorSetLayoutBinding bindings[3] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
  };
  VkDescriptorSetLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  layoutInfo.bindingCount = 3;
  layoutInfo.pBindings = bindings;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkResult result = vk.vkCreateDescriptorSetLayout(ctx->device(), &layoutInfo, nullptr, &layout);
  if (result != VK_SUCCESS) {
    ok_or_skip(state, call_failed("vkCreateDescriptorSetLayout", result));
    return;
  }
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * sets},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, sets}};
  VkDescriptorPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  poolInfo.maxSets = sets;
  poolInfo.poolSizeCount = 2;
  poolInfo.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  result = vk.vkCreateDescriptorPool(ctx->device(), &poolInfo, nullptr, &pool);
  if (result != VK_SUCCESS) {
    vk.vkDestroyDescriptorSetLayout(ctx->device(), layout, nullptr);
    ok_or_skip(state, call_failed("vkCreateDescriptorPool", result));
    return;
  }
  std::vector<VkDescriptorSet> handles(sets);
  VkDescriptorSetAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  allocateInfo.descriptorPool = pool;
  allocateInfo.descriptorSetCount = 1;
  allocateInfo.pSetLayouts = &layout;
  for (auto _ : state) {
    for (uint32_t i = 0; i < sets && result == VK_SUCCESS; ++i)
      result = vk.vkAllocateDescriptorSets(ctx->device(), &allocateInfo, &handles[i]);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkAllocateDescriptorSets", result));
      break;
    }
    for (uint32_t i = 0; i < sets && result == VK_SUCCESS; i += 2)
      result = vk.vkFreeDescriptorSets(ctx->device(), pool, 1, &handles[i]);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkFreeDescriptorSets", result));
      break;
    }
    result = vk.vkResetDescriptorPool(ctx->device(), pool, 0);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkResetDescriptorPool", result));
      break;
    }
  }
  state.counters["ns_per_set"] = benchmark::Counter(
      static_cast<double>(sets) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  vk.vkDestroyDescriptorPool(ctx->device(), pool, nullptr);
  vk.vkDestroyDescriptorSetLayout(ctx->device(), layout, nullptr);
}
BENCHMARK(BM_DescriptorSetChurn)->RangeMultiplier(4)->Range(64, 4096);

}  // namespace
}  // namespace crashtest::bench
