// VkCommandBuffer: a recorded stream of commands (command_arena.h). Recording is lock-free and allocation-free in
// the common case; an error while recording (out of host memory) sticks to the command buffer and is returned by
// vkEndCommandBuffer ("If there was an error during recording, the application will be notified by an
// unsuccessful return code returned by vkEndCommandBuffer", Vulkan 1.3, 6.4).
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstddef>

#include "command/command_arena.h"
#include "command/command_records.h"
#include "command/command_work.h"
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
  // Back to the initial state; `release` returns the stream's memory to the allocator, not the pool. A stream a
  // queue still holds is retired instead (below).
  void Reset(bool release, const char* command = "vkResetCommandBuffer");
  // vkFreeCommandBuffers, vkDestroyCommandPool: deletes it now, or, while a queue holds it, orphans it and leaves
  // the deletion to the queue's last release.
  static void Free(CommandBuffer* commandBuffer, const char* command);

  // Space for one record of kind `op` and `payload` more bytes; nullptr (and a sticky error) when out of memory.
  template <typename T>
  T* Record(CommandOp op, size_t payload = 0) {
    T* record = arena_.Append<T>(op, payload);
    if (record == nullptr) [[unlikely]] RecordFailed(op);
    work_ |= CommandWorkOf(op);  // a constant OR once inlined with a known op
    return record;
  }
  // A valid-usage rule a vkCmd* call broke: logged with its VUID (in `format`), the command is not recorded, and
  // vkEndCommandBuffer returns VK_ERROR_VALIDATION_FAILED_EXT (the first error sticks).
  void Misuse(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // The CommandWork kinds of everything recorded since the last reset (not of the secondaries it executes).
  uint8_t work() const { return work_; }
  // Links a vkCmdExecuteCommands record into the stream's list of them (record::ExecuteCommands::next), which a
  // submission walks to hold the secondaries.
  void NoteExecuteCommands(record::ExecuteCommands* execute);
  const record::ExecuteCommands* firstExecute() const { return firstExecute_; }

  // Queue holds (docs/execution.md, "Command buffer lifetime"). A submission holds every command buffer it
  // executes — its primaries and the secondaries they execute — from vkQueueSubmit until its worker has read the
  // stream for the last time, whether the work ran, was abandoned after a loss, or the device is being destroyed.
  // While a command buffer is held, a reset retires its stream and a free orphans it; the last release frees
  // them. So the worker never reads memory the application has released, however a free races with a loss, and
  // nothing the application calls waits for the worker (a long command included).
  //
  // A submission keeps its holds until it ends, so a crash dump can list the command buffers it completed before
  // the one executing; a command buffer leaves the pending state earlier, when its own execution completes
  // (CompleteLocked).
  //
  // Takes a hold (vkQueueSubmit, the application's thread) and returns the stream the submission will read.
  const CommandChunk* Hold() {
    holds_.fetch_add(1, std::memory_order_relaxed);
    pending_.fetch_add(1, std::memory_order_relaxed);
    return arena_.firstChunk();
  }
  // The worker is done with a stream it held. Called under the device's execution lock (DeviceExecution::
  // RunLocked); the last release frees the retired streams and an orphaned command buffer (`this` included).
  void ReleaseLocked();
  // Submitted and not yet released by every submission that holds it.
  bool IsHeld() const { return holds_.load(std::memory_order_acquire) != 0; }
  // In the pending state: an execution of it has not completed.
  bool IsPending() const { return pending_.load(std::memory_order_acquire) != 0; }
  // Its execution by one submission completed (or was abandoned): it leaves the pending state once every
  // submission that executes it has. A ONE_TIME_SUBMIT buffer becomes invalid once its execution completes ("...
  // moves back to the invalid state", 6.4 "Command Buffer Recording"), unless the device is lost. Called by the
  // worker under the execution lock.
  void CompleteLocked(bool deviceLost);

  CommandPool& pool() const { return pool_; }
  Device& device() const;
  VkCommandBufferLevel level() const { return level_; }
  State state() const { return state_.load(std::memory_order_acquire); }
  VkCommandBufferUsageFlags usage() const { return usage_; }
  const CommandArena& stream() const { return arena_; }
  uint32_t commandCount() const { return arena_.commandCount(); }

 private:
  void RecordFailed(CommandOp op);
  // While held: retires the current stream (and orphans the command buffer) under the execution lock; false when
  // no queue holds it any more, and the caller releases the stream itself.
  bool RetireIfHeld(bool orphan, const char* command);
  const VkAllocationCallbacks* hostAllocator() const { return hasAllocator_ ? &allocator_ : nullptr; }

  CommandPool& pool_;
  VkCommandBufferLevel level_;
  std::atomic<State> state_{State::Initial};
  VkCommandBufferUsageFlags usage_ = 0;
  VkResult error_ = VK_SUCCESS;
  uint8_t work_ = 0;  // CommandWork
  CommandArena arena_;
  record::ExecuteCommands* firstExecute_ = nullptr;
  record::ExecuteCommands* lastExecute_ = nullptr;
  // Queue holds: incremented at submit without a lock, decremented under the execution lock, which also guards
  // retired_ and orphaned_.
  std::atomic<uint32_t> holds_{0};
  std::atomic<uint32_t> pending_{0};  // holds whose execution has not completed (a reset or free then is a misuse)
  CommandChunk* retired_ = nullptr;  // retired streams, linked by CommandChunk::retiredNext
  bool orphaned_ = false;
  // The pool's callbacks, copied: an orphan and its retired streams may outlive the pool.
  bool hasAllocator_ = false;
  VkAllocationCallbacks allocator_{};
};

}  // namespace crashtest
