// VkFence: signalled by a queue when a submission completes, waited on by the host.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <span>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
class DeviceExecution;
CT_DEFINE_HANDLE(Fence, VkFence, VK_OBJECT_TYPE_FENCE);

class Fence : public Object {
 public:
  static VkResult Create(Device& device, const VkFenceCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkFence* out);
  static void Destroy(Device& device, Fence* fence, const VkAllocationCallbacks* allocator);

  Fence(DeviceExecution& execution, bool signaled);

  bool signaled() const { return signaled_.load(std::memory_order_acquire); }
  void Signal();
  // A queue took it with a submission (vkQueueSubmit, after the submission's checks): it is pending until the
  // submission ends.
  void NoteSubmitted() { submitted_.fetch_add(1, std::memory_order_relaxed); }
  // For a queue finishing a submission inside its own DeviceExecution::Publish, so one wake-up covers both; on a
  // lost device the fence leaves the pending state without being signalled.
  void FinishPublished(bool signal) {
    // No longer pending before it reads as signalled: a host thread that saw the signal may reset it at once.
    submitted_.fetch_sub(1, std::memory_order_release);
    if (signal) signaled_.store(true, std::memory_order_release);
  }
  // Associated with a submission that has not completed ("pending"; vkResetFences and vkQueueSubmit refuse it).
  bool pending() const { return submitted_.load(std::memory_order_acquire) != 0; }
  void Reset();
  DeviceExecution& execution() const { return execution_; }

 private:
  DeviceExecution& execution_;
  std::atomic<bool> signaled_;
  std::atomic<uint32_t> submitted_{0};
};

// vkWaitForFences: VK_SUCCESS when all (or, without waitAll, any) are signalled, VK_TIMEOUT after `timeoutNs`.
// All fences belong to one device.
VkResult WaitForFences(std::span<Fence* const> fences, bool waitAll, uint64_t timeoutNs);

}  // namespace crashtest
