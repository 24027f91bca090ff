#include "queue/fence.h"

#include <algorithm>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "queue/device_execution.h"

namespace crashtest {

Fence::Fence(DeviceExecution& execution, bool signaled) : Object(VK_OBJECT_TYPE_FENCE), execution_(execution),
                                                          signaled_(signaled) {}

VkResult Fence::Create(Device& device, const VkFenceCreateInfo& info, const VkAllocationCallbacks* allocator,
                       VkFence* out) {
  auto* fence = NewObject<Fence>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                 ExecutionOf(device), (info.flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
  if (fence == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateFence: allocation failed");
  live_objects::Add(fence, {VK_OBJECT_TYPE_FENCE, fence->header.id, 0});
  *out = ToHandle(fence);
  return VK_SUCCESS;
}

void Fence::Destroy(Device& device, Fence* fence, const VkAllocationCallbacks* allocator) {
  if (fence == nullptr) return;
  // "fence must be a valid VkFence handle" (VUID-vkDestroyFence-fence-parameter): a second destruction would free
  // the object twice.
  if (!live_objects::Remove(fence, VK_OBJECT_TYPE_FENCE)) {
    CT_ERROR("vkDestroyFence: %p is not a live fence (destroyed already?) (VUID-vkDestroyFence-fence-parameter); "
             "ignored", static_cast<void*>(ToHandle(fence)));
    return;
  }
  // "All queue submission commands that refer to fence must have already completed execution"
  // (VUID-vkDestroyFence-fence-01120); after a loss the application may destroy it at once (docs/faults.md). The
  // queue signals it when its submission ends: the object stays until then.
  if (fence->pending() && !fence->execution().lost())
    CT_ERROR("vkDestroyFence: fence %llu belongs to a submission that has not completed "
             "(VUID-vkDestroyFence-fence-01120); it is released once the submission ends",
             static_cast<unsigned long long>(fence->header.id));
  device.deferredDestruction().DestroyWhenIdle(
      fence, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<Fence*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

void Fence::Signal() {
  execution_.Publish([this] { signaled_.store(true, std::memory_order_release); });
}

void Fence::Reset() {
  execution_.Publish([this] { signaled_.store(false, std::memory_order_release); });
}

VkResult WaitForFences(std::span<Fence* const> fences, bool waitAll, uint64_t timeoutNs) {
  if (fences.empty()) return VK_SUCCESS;
  // "If device loss occurs ... vkWaitForFences must return in finite time with either VK_SUCCESS or
  // VK_ERROR_DEVICE_LOST": crashtest always says DEVICE_LOST once the device is lost.
  if (fences.front()->execution().lost()) return VK_ERROR_DEVICE_LOST;
  auto isSignaled = [](const Fence* fence) { return fence->signaled(); };
  bool ready = fences.front()->execution().Wait(timeoutNs, [&] {
    return waitAll ? std::all_of(fences.begin(), fences.end(), isSignaled)
                   : std::any_of(fences.begin(), fences.end(), isSignaled);
  });
  if (fences.front()->execution().lost()) return VK_ERROR_DEVICE_LOST;
  return ready ? VK_SUCCESS : VK_TIMEOUT;
}

}  // namespace crashtest
