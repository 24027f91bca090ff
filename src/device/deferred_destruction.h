// Objects the application destroys while the device has work in flight (issue 18). A queue may still touch a
// buffer, image, view, sampler, memory object, fence, query pool, descriptor pool (with its sets), render pass or
// framebuffer that pending work names ("All submitted commands that refer
// to buffer ... must have completed execution", VUID-vkDestroyBuffer-buffer-00922, and likewise for images, views,
// samplers, VUID-vkFreeMemory-memory-00677, VUID-vkDestroyFence-fence-01120); a real GPU would then read freed memory or fault. crashtest keeps the object's
// storage until no submission of the device is in flight, so a worker never reads freed host memory, and the
// queues see the object as destroyed (common/live_objects.h) and raise a device fault when work touches it.
//
// Work in flight is counted from vkQueueSubmit until the worker is done with the submission, over every queue of
// the device. The count and the deferred list share one lock, so an object is either deleted at once (nothing in
// flight) or after the last submission in flight at its destruction has ended.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <vector>

namespace crashtest {

class DeferredDestruction {
 public:
  // Deletes `object` (with `destroy`, given the allocator it was made with) now, or once no work is in flight.
  // The object must need nothing else of the device to be deleted (its accounting is done already).
  using Destroy = void (*)(void* object, const VkAllocationCallbacks* allocator);
  void DestroyWhenIdle(void* object, Destroy destroy, const VkAllocationCallbacks* allocator);

  void BeginWork();
  // A submission ended: deletes what waited for the device's work to drain.
  void EndWork();
  // The device is being destroyed, its queues are gone: deletes everything left.
  void DestroyAll();

 private:
  struct Pending {
    void* object;
    Destroy destroy;
    bool hasAllocator;
    VkAllocationCallbacks allocator;
  };
  static void Run(std::vector<Pending>& pending);

  std::mutex mutex_;
  uint64_t inFlight_ = 0;
  std::vector<Pending> pending_;
};

}  // namespace crashtest
