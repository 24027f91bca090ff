#include "common/allocation.h"

#include <cstddef>
#include <cstdlib>

namespace crashtest {

void* AllocateHostMemory(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                         VkSystemAllocationScope scope) {
  if (allocator != nullptr && allocator->pfnAllocation != nullptr)
    return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
  // malloc already aligns for every fundamental type, and takes glibc's fast path; aligned_alloc goes through
  // memalign (about twice the instructions for a descriptor set: issue 21). Over-aligned requests still use it,
  // with the size a multiple of the alignment as it needs.
  if (alignment <= alignof(std::max_align_t)) return std::malloc(size);
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
