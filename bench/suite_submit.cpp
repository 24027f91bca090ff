// Submit: the round trip of a one-command buffer through vkQueueSubmit and a fence wait.
#include "bench_common.h"

namespace crashtest::bench {
namespace {

void BM_SubmitWait(benchmark::State& state) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx || !ok_or_skip(state, ctx->missing({"vkCmdFillBuffer"}))) return;
  std::string error;
  auto buffer = HostBuffer::Create(*ctx, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &error);
  std::unique_ptr<CommandRig> rig;
  if (buffer) rig = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  const DeviceCommands& vk = ctx->vk();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  VkResult result = vk.vkBeginCommandBuffer(rig->command_buffer(), &begin);
  if (result == VK_SUCCESS) {
    vk.vkCmdFillBuffer(rig->command_buffer(), buffer->buffer(), 0, 4, 0xc0ffee);
    result = vk.vkEndCommandBuffer(rig->command_buffer());
  }
  if (result != VK_SUCCESS) {
    ok_or_skip(state, call_failed("recording the fill", result));
    return;
  }
  for (auto _ : state) {
    result = rig->submit_and_wait();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkQueueSubmit/vkWaitForFences", result));
      break;
    }
  }
}
BENCHMARK(BM_SubmitWait)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace crashtest::bench
