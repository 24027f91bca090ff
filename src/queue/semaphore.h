// VkSemaphore, binary or timeline. Its payload is one 64-bit value guarded by the device's DeviceExecution lock:
// a timeline's counter, or 0/1 for a binary semaphore (signalled by a queue, consumed by the queue that waits).
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
CT_DEFINE_HANDLE(Semaphore, VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE);

class Semaphore : public Object {
 public:
  static VkResult Create(Device& device, const VkSemaphoreCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkSemaphore* out);
  static void Destroy(Device& device, Semaphore* semaphore, const VkAllocationCallbacks* allocator);

  Semaphore(DeviceExecution& execution, VkSemaphoreType type, uint64_t initialValue);

  bool timeline() const { return type_ == VK_SEMAPHORE_TYPE_TIMELINE; }
  uint64_t value() const { return value_.load(std::memory_order_acquire); }
  // Sets a timeline's counter to `value`, or signals a binary semaphore (value ignored).
  void Signal(uint64_t value);
  // Signal with the device's execution lock already held (DeviceExecution::PublishUnlessLost).
  void SignalLocked(uint64_t value);
  // Queue-side wait: until a timeline reaches `value`, or until a binary semaphore is signalled (then consumes
  // the signal). False when the device is lost or being destroyed, or after `timeoutNs` (UINT64_MAX: no limit).
  bool WaitOnQueue(uint64_t value, uint64_t timeoutNs = UINT64_MAX);
  // With the device's execution lock held: whether a queue-side wait for `value` would return at once.
  bool ReadyLocked(uint64_t value) const {
    return timeline() ? value_.load(std::memory_order_acquire) >= value : value_.load(std::memory_order_acquire) != 0;
  }
  // With the lock held, after ReadyLocked: what that wait does (a binary semaphore's payload is consumed).
  void ConsumeLocked() {
    if (!timeline()) value_.store(0, std::memory_order_release);
  }
  DeviceExecution& execution() const { return execution_; }

 private:
  DeviceExecution& execution_;
  VkSemaphoreType type_;
  std::atomic<uint64_t> value_;
};

// vkWaitSemaphores: until every (or, with `any`, one) timeline reaches its value; VK_TIMEOUT after `timeoutNs`.
VkResult WaitSemaphores(std::span<Semaphore* const> semaphores, std::span<const uint64_t> values, bool any,
                        uint64_t timeoutNs);

}  // namespace crashtest
