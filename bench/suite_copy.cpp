// Copy: vkCmdCopyBuffer bandwidth between two 64 MiB host-visible buffers, and memcpy of the same size as the
// anchor, so the ratio "copy / memcpy" comes from one process on one machine state.
#include <cstring>
#include <vector>

#include "bench_common.h"

namespace crashtest::bench {
namespace {

constexpr VkDeviceSize kCopyBytes = 64ull << 20;

void BM_CopyBuffer64MiB(benchmark::State& state) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, ctx->missing({"vkCmdCopyBuffer"}))) return;
  std::string error;
  auto source = HostBuffer::Create(*ctx, kCopyBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &error);
  std::unique_ptr<HostBuffer> destination;
  std::unique_ptr<CommandRig> rig;
  if (source) destination = HostBuffer::Create(*ctx, kCopyBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &error);
  if (destination) rig = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  // Touch every page first so the first iteration does not pay for page faults.
  std::memset(source->mapped(), 0x5a, kCopyBytes);
  std::memset(destination->mapped(), 0, kCopyBytes);
  const DeviceCommands& vk = ctx->vk();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  VkResult result = vk.vkBeginCommandBuffer(rig->command_buffer(), &begin);
  if (result == VK_SUCCESS) {
    const VkBufferCopy region{0, 0, kCopyBytes};
    vk.vkCmdCopyBuffer(rig->command_buffer(), source->buffer(), destination->buffer(), 1, &region);
    result = vk.vkEndCommandBuffer(rig->command_buffer());
  }
  if (result != VK_SUCCESS) {
    ok_or_skip(state, call_failed("recording the copy", result));
    return;
  }
  for (auto _ : state) {
    result = rig->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", result));
      break;
    }
  }
  // A copy that ran must have moved the bytes; a driver that only signals the fence would show fake bandwidth.
  const auto* bytes = static_cast<const unsigned char*>(destination->mapped());
  if (!state.error_occurred() && (bytes[0] != 0x5a || bytes[kCopyBytes - 1] != 0x5a)) {
    ok_or_skip(state, "error: vkCmdCopyBuffer completed but the destination does not hold the source bytes");
    return;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kCopyBytes));
}
BENCHMARK(BM_CopyBuffer64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Memcpy64MiB(benchmark::State& state) {
  std::vector<unsigned char> source(kCopyBytes, 0x5a);
  std::vector<unsigned char> destination(kCopyBytes, 0);
  for (auto _ : state) {
    std::memcpy(destination.data(), source.data(), kCopyBytes);
    benchmark::DoNotOptimize(destination.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(kCopyBytes));
}
BENCHMARK(BM_Memcpy64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace crashtest::bench
