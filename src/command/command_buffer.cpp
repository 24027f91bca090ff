#include "command/command_buffer.h"

#include <cstdarg>
#include <cstdio>

#include "command/command_pool.h"
#include "common/allocation.h"
#include "common/log.h"
#include "common/result.h"
#include "queue/device_execution.h"

namespace crashtest {

static_assert(offsetof(DispatchableObject, loaderData) == 0);

CommandBuffer::CommandBuffer(CommandPool& pool, VkCommandBufferLevel level)
    : DispatchableObject(VK_OBJECT_TYPE_COMMAND_BUFFER),
      pool_(pool),
      level_(level),
      arena_(pool.chunks()),
      hasAllocator_(pool.allocator() != nullptr),
      allocator_(pool.allocator() != nullptr ? *pool.allocator() : VkAllocationCallbacks{}) {}

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
    Reset(false, "vkBeginCommandBuffer");
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

void CommandBuffer::Reset(bool release, const char* command) {
  // A queue may still read the stream (held; after a loss the application may reset at once): retire it.
  if (!IsHeld() || !RetireIfHeld(false, command)) arena_.Clear(release);
  firstExecute_ = lastExecute_ = nullptr;
  work_ = 0;
  usage_ = 0;
  error_ = VK_SUCCESS;
  state_.store(State::Initial, std::memory_order_release);
}

void CommandBuffer::Free(CommandBuffer* commandBuffer, const char* command) {
  if (commandBuffer == nullptr) return;
  if (commandBuffer->IsHeld() && commandBuffer->RetireIfHeld(true, command)) return;  // the queue deletes it
  // Not held (IsHeld read 0 with acquire, after the last release): no queue reads it any more.
  VkAllocationCallbacks copy = commandBuffer->allocator_;
  DeleteObject(commandBuffer->hasAllocator_ ? &copy : nullptr, commandBuffer);
}

bool CommandBuffer::RetireIfHeld(bool orphan, const char* command) {
  bool lost = false;
  bool pending = false;
  const bool held = ExecutionOf(device()).RunLocked([&](bool deviceLost) {
    lost = deviceLost;
    pending = pending_.load(std::memory_order_relaxed) != 0;
    if (holds_.load(std::memory_order_relaxed) == 0) return false;
    if (CommandChunk* stream = arena_.Detach(); stream != nullptr) {
      stream->retiredNext = retired_;
      retired_ = stream;
    }
    orphaned_ = orphan;
    return true;
  });
  // On a lost device pending work is abandoned and the application may release it at once (docs/faults.md);
  // otherwise, while its execution has not completed, this is a misuse ("must not be in the pending state"), made
  // harmless by the hold.
  if (held && pending && !lost)
    CT_WARN("%s: command buffer %llu is still pending (%s); its stream is released when the queue is done with it",
            command, static_cast<unsigned long long>(header.id),
            orphan ? "VUID-vkFreeCommandBuffers-pCommandBuffers-00047, VUID-vkDestroyCommandPool-commandPool-00041"
                   : "VUID-vkResetCommandBuffer-commandBuffer-00045, VUID-vkResetCommandPool-commandPool-00040, "
                     "VUID-vkBeginCommandBuffer-commandBuffer-00049");
  return held;
}

void CommandBuffer::ReleaseLocked() {
  // The last hold: nothing reads a retired stream any more. (A vkQueueSubmit racing with this adds a hold on the
  // current stream, which is never a retired one; an orphan cannot be submitted.)
  if (holds_.load(std::memory_order_relaxed) == 1) {
    while (retired_ != nullptr) {
      CommandChunk* next = retired_->retiredNext;
      FreeChunks(retired_, hostAllocator());
      retired_ = next;
    }
    if (orphaned_) {
      VkAllocationCallbacks copy = allocator_;
      DeleteObject(hasAllocator_ ? &copy : nullptr, this);
      return;
    }
  }
  // The last access: once the count reads 0 the application may delete the command buffer without the lock.
  holds_.fetch_sub(1, std::memory_order_release);
}

void CommandBuffer::CompleteLocked(bool deviceLost) {
  pending_.fetch_sub(1, std::memory_order_relaxed);
  if (!deviceLost && (usage_ & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0)
    state_.store(State::Invalid, std::memory_order_release);
}

void CommandBuffer::NoteExecuteCommands(record::ExecuteCommands* execute) {
  execute->next = nullptr;
  if (lastExecute_ != nullptr)
    lastExecute_->next = execute;
  else
    firstExecute_ = execute;
  lastExecute_ = execute;
}

void CommandBuffer::Misuse(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s (command buffer %llu; the command is not recorded)", text,
              static_cast<unsigned long long>(header.id));
  if (error_ == VK_SUCCESS) error_ = VK_ERROR_VALIDATION_FAILED_EXT;
}

void CommandBuffer::RecordFailed(CommandOp op) {
  if (error_ == VK_SUCCESS)
    ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: no memory for command #%u of command buffer %llu", CommandName(op),
                arena_.commandCount(), static_cast<unsigned long long>(header.id));
  error_ = VK_ERROR_OUT_OF_HOST_MEMORY;
}

}  // namespace crashtest
