// Recording: the CPU cost of one vkCmd* in a stream of small commands, as "ns_per_command".
#include <array>
#include <cstdint>

#include "bench_common.h"

namespace crashtest::bench {
namespace {

// Enough commands per command buffer that vkBegin/EndCommandBuffer are noise, few enough for lavapipe's ~1 µs
// per command to keep an iteration near a millisecond.
constexpr int kCommandsPerBuffer = 1000;

enum class Stream { kFillBuffer, kPipelineBarrier, kPushConstants, kMixed };

struct RecordingRig {
  std::unique_ptr<HostBuffer> buffer;
  std::unique_ptr<CommandRig> commands;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  const VkContext* ctx = nullptr;
  ~RecordingRig() {
    if (layout != VK_NULL_HANDLE) ctx->vk().vkDestroyPipelineLayout(ctx->device(), layout, nullptr);
  }
};

void record_stream(benchmark::State& state, Stream stream) {
  const VkContext* ctx = context_or_skip(state, DeviceFlavor::kPlain);
  if (!ctx) return;
  const DeviceCommands& vk = ctx->vk();
  if (!ok_or_skip(state, ctx->missing({"vkCmdFillBuffer", "vkCmdPipelineBarrier", "vkCmdPushConstants",
                                       "vkCreatePipelineLayout", "vkDestroyPipelineLayout"}))) {
    return;
  }
  RecordingRig rig;
  rig.ctx = ctx;
  std::string error;
  rig.buffer = HostBuffer::Create(*ctx, 64 * 1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &error);
  if (rig.buffer) rig.commands = CommandRig::Create(*ctx, &error);
  if (!ok_or_skip(state, error)) return;
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &range;
  VkResult result = vk.vkCreatePipelineLayout(ctx->device(), &layout_info, nullptr, &rig.layout);
  if (result != VK_SUCCESS) {
    rig.layout = VK_NULL_HANDLE;
    ok_or_skip(state, call_failed("vkCreatePipelineLayout", result));
    return;
  }

  VkBufferMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = rig.buffer->buffer();
  barrier.size = VK_WHOLE_SIZE;
  const std::array<uint32_t, 4> constants{1, 2, 3, 4};
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  const VkCommandBuffer cb = rig.commands->command_buffer();

  for (auto _ : state) {
    // vkBeginCommandBuffer implicitly resets: the pool was created with RESET_COMMAND_BUFFER_BIT.
    result = vk.vkBeginCommandBuffer(cb, &begin);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkBeginCommandBuffer", result));
      break;
    }
    for (int i = 0; i < kCommandsPerBuffer; ++i) {
      const Stream kind = stream == Stream::kMixed ? static_cast<Stream>(i % 3) : stream;
      switch (kind) {
        case Stream::kFillBuffer:
          vk.vkCmdFillBuffer(cb, rig.buffer->buffer(), static_cast<VkDeviceSize>(i % 64) * 256, 256,
                             static_cast<uint32_t>(i));
          break;
        case Stream::kPipelineBarrier:
          vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                                  1, &barrier, 0, nullptr);
          break;
        case Stream::kPushConstants:
        case Stream::kMixed:
          vk.vkCmdPushConstants(cb, rig.layout, VK_SHADER_STAGE_COMPUTE_BIT, (i % 8) * 16, sizeof(constants),
                                constants.data());
          break;
      }
    }
    result = vk.vkEndCommandBuffer(cb);
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkEndCommandBuffer", result));
      break;
    }
  }
  state.counters["ns_per_command"] = benchmark::Counter(
      static_cast<double>(kCommandsPerBuffer) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_RecordFillBuffer(benchmark::State& state) { record_stream(state, Stream::kFillBuffer); }
void BM_RecordPipelineBarrier(benchmark::State& state) { record_stream(state, Stream::kPipelineBarrier); }
void BM_RecordPushConstants(benchmark::State& state) { record_stream(state, Stream::kPushConstants); }
void BM_RecordMixed(benchmark::State& state) { record_stream(state, Stream::kMixed); }
BENCHMARK(BM_RecordFillBuffer)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RecordPipelineBarrier)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RecordPushConstants)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RecordMixed)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace crashtest::bench
