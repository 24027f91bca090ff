#include "common/allocation.h"

namespace crashtest {

void* AllocateHostMemory(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                         VkSystemAllocationScope scope) {
  if (allocator != nullptr && allocator->pfnAllocation != nullptr)
    return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
  // aligned_alloc needs the size to be a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded);
}

void FreeHostMemory(const VkAllocationCallbacks* allocator, void* memory) {
  if (memory == nullptr) return;
  if (allocator != nullptr && allocator->pfnFree != nullptr) {
    allocator->pfnFree(allocator->pUserData, memory);
    return;
  }
  std::free(memory);
}

}  // namespace crashtest
