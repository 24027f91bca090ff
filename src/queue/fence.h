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
  // For a queue finishing a submission inside its own DeviceExecution::Publish, so one wake-up covers both.
  void SignalPublished() { signaled_.store(true, std::memory_order_release); }
  void Reset();
  DeviceExecution& execution() const { return execution_; }

 private:
  DeviceExecution& execution_;
  std::atomic<bool> signaled_;
};

// vkWaitForFences: VK_SUCCESS when all (or, without waitAll, any) are signalled, VK_TIMEOUT after `timeoutNs`.
// All fences belong to one device.
VkResult WaitForFences(std::span<Fence* const> fences, bool waitAll, uint64_t timeoutNs);

}  // namespace crashtest
