#include "command/command_buffer.h"

#include "command/command_pool.h"
#include "common/log.h"
#include "common/result.h"

namespace crashtest {

static_assert(offsetof(DispatchableObject, loaderData) == 0);

CommandBuffer::CommandBuffer(CommandPool& pool, VkCommandBufferLevel level)
    : DispatchableObject(VK_OBJECT_TYPE_COMMAND_BUFFER), pool_(pool), level_(level), arena_(pool.chunks()) {}

Device& CommandBuffer::device() const { return pool_.device(); }

VkResult CommandBuffer::Begin(const VkCommandBufferBeginInfo& info) {
  State current = state();
  if (current != State::Initial) {
    // "If commandBuffer was allocated from a VkCommandPool which did not have the
    // VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT flag set, commandBuffer must be in the initial state"
    // (VUID-vkBeginCommandBuffer-commandBuffer-00050); otherwise Begin "implicitly resets" it.
    if ((pool_.flags() & VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT) == 0)
      CT_WARN("vkBeginCommandBuffer: command buffer %llu is not in the initial state and its pool lacks "
              "VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT (VUID-vkBeginCommandBuffer-commandBuffer-00050); "
              "resetting it",
              static_cast<unsigned long long>(header.id));
    Reset(false);
  }
  usage_ = info.flags;
  error_ = VK_SUCCESS;
  state_.store(State::Recording, std::memory_order_release);
  return VK_SUCCESS;
}

VkResult CommandBuffer::End() {
  if (state() != State::Recording)
    CT_WARN("vkEndCommandBuffer: command buffer %llu is not recording (VUID-vkEndCommandBuffer-commandBuffer-00059)",
            static_cast<unsigned long long>(header.id));
  if (error_ != VK_SUCCESS) {
    state_.store(State::Invalid, std::memory_order_release);
    return ReportError(error_, "vkEndCommandBuffer: recording of command buffer %llu failed earlier",
                       static_cast<unsigned long long>(header.id));
  }
  state_.store(State::Executable, std::memory_order_release);
  return VK_SUCCESS;
}

void CommandBuffer::Reset(bool release) {
  arena_.Clear(release);
  usage_ = 0;
  error_ = VK_SUCCESS;
  state_.store(State::Initial, std::memory_order_release);
}

void CommandBuffer::MarkCompleted() {
  if ((usage_ & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0)
    state_.store(State::Invalid, std::memory_order_release);
  pending_.fetch_sub(1, std::memory_order_acq_rel);
}

void CommandBuffer::RecordFailed(CommandOp op) {
  if (error_ == VK_SUCCESS)
    ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: no memory for command #%u of command buffer %llu", CommandName(op),
                arena_.commandCount(), static_cast<unsigned long long>(header.id));
  error_ = VK_ERROR_OUT_OF_HOST_MEMORY;
}

}  // namespace crashtest
