// Objects that other objects keep using after the app destroys them: "a VkDescriptorSetLayout ... may be accessed by
// commands that operate on descriptor sets allocated using that layout" (Object Lifetime), and pipeline layouts
// outlive the set layouts they were made from. The app's vkDestroy* drops one reference; each user holds another.
// The storage goes back to the callbacks it came from, which the object keeps.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

#include "common/allocation.h"

namespace crashtest {

class HostAllocator {
 public:
  explicit HostAllocator(const VkAllocationCallbacks* callbacks) {
    if (callbacks != nullptr) callbacks_ = *callbacks, has_ = true;
  }
  const VkAllocationCallbacks* get() const { return has_ ? &callbacks_ : nullptr; }

 private:
  VkAllocationCallbacks callbacks_{};
  bool has_ = false;
};

// Derived classes are created with NewObject(allocator, ...) and released with Unref, never deleted directly.
template <typename Derived>
class RefCounted {
 public:
  explicit RefCounted(const VkAllocationCallbacks* allocator) : allocator_(allocator) {}
  void Ref() { references_.fetch_add(1, std::memory_order_relaxed); }
  void Unref() {
    if (references_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    HostAllocator allocator = allocator_;  // the object's own copy dies with it
    DeleteObject(allocator.get(), static_cast<Derived*>(this));
  }

 private:
  std::atomic<uint32_t> references_{1};
  HostAllocator allocator_;
};

}  // namespace crashtest
