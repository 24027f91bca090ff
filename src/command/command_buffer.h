// VkCommandBuffer: a recorded stream of commands (command_arena.h). Recording is lock-free and allocation-free in
// the common case; an error while recording (out of host memory) sticks to the command buffer and is returned by
// vkEndCommandBuffer ("If there was an error during recording, the application will be notified by an
// unsuccessful return code returned by vkEndCommandBuffer", Vulkan 1.3, 6.4).
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstddef>

#include "command/command_arena.h"
#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class CommandPool;
class Device;
CT_DEFINE_HANDLE(CommandBuffer, VkCommandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER);

class CommandBuffer : public DispatchableObject {
 public:
  // The lifecycle of Vulkan 1.3, 6.1 "Command Buffer Lifecycle" (pending is counted separately: a
  // SIMULTANEOUS_USE buffer can be pending several times and stays executable meanwhile).
  enum class State : uint8_t { Initial, Recording, Executable, Invalid };

  CommandBuffer(CommandPool& pool, VkCommandBufferLevel level);

  VkResult Begin(const VkCommandBufferBeginInfo& info);
  VkResult End();
  // Back to the initial state; `release` returns the stream's memory to the allocator, not the pool.
  void Reset(bool release);

  // Space for one record of kind `op` and `payload` more bytes; nullptr (and a sticky error) when out of memory.
  template <typename T>
  T* Record(CommandOp op, size_t payload = 0) {
    T* record = arena_.Append<T>(op, payload);
    if (record == nullptr) [[unlikely]] RecordFailed(op);
    return record;
  }

  // Submission tracking, called by queues: a ONE_TIME_SUBMIT buffer becomes invalid once its execution completes
  // ("... moves back to the invalid state", 6.4 "Command Buffer Recording").
  void MarkSubmitted() { pending_.fetch_add(1, std::memory_order_relaxed); }
  void MarkCompleted();
  bool IsPending() const { return pending_.load(std::memory_order_acquire) != 0; }

  CommandPool& pool() const { return pool_; }
  Device& device() const;
  VkCommandBufferLevel level() const { return level_; }
  State state() const { return state_.load(std::memory_order_acquire); }
  VkCommandBufferUsageFlags usage() const { return usage_; }
  const CommandArena& stream() const { return arena_; }
  uint32_t commandCount() const { return arena_.commandCount(); }

 private:
  void RecordFailed(CommandOp op);

  CommandPool& pool_;
  VkCommandBufferLevel level_;
  std::atomic<State> state_{State::Initial};
  VkCommandBufferUsageFlags usage_ = 0;
  VkResult error_ = VK_SUCCESS;
  CommandArena arena_;
  std::atomic<uint32_t> pending_{0};
};

}  // namespace crashtest
