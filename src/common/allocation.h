// Object memory honours VkAllocationCallbacks: the callbacks given to the call, else the parent's (instance or
// device), else the C heap. "pAllocator ... controls host memory allocation" (Memory Allocation chapter). A failed
// allocation yields nullptr, which callers turn into VK_ERROR_OUT_OF_HOST_MEMORY, and leaks nothing.
// Containers inside objects use the C++ heap; the object storage itself follows the callbacks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace crashtest {

void* AllocateHostMemory(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                         VkSystemAllocationScope scope);
void FreeHostMemory(const VkAllocationCallbacks* allocator, void* memory);

// Picks the callbacks of the call if given, else the parent's.
inline const VkAllocationCallbacks* ChooseAllocator(const VkAllocationCallbacks* callAllocator,
                                                    const VkAllocationCallbacks* parentAllocator) {
  return callAllocator != nullptr ? callAllocator : parentAllocator;
}

// Constructs a T in memory from the callbacks. Returns nullptr when the allocation fails; if the constructor
// throws, the memory is returned and the exception propagates (the thunk maps bad_alloc to OUT_OF_HOST_MEMORY).
template <typename T, typename... Args>
T* NewObject(const VkAllocationCallbacks* allocator, VkSystemAllocationScope scope, Args&&... args) {
  void* memory = AllocateHostMemory(allocator, sizeof(T), alignof(T), scope);
  if (memory == nullptr) return nullptr;
  try {
    return new (memory) T(std::forward<Args>(args)...);
  } catch (...) {
    FreeHostMemory(allocator, memory);
    throw;
  }
}

template <typename T>
void DeleteObject(const VkAllocationCallbacks* allocator, T* object) {
  if (object == nullptr) return;
  object->~T();
  FreeHostMemory(allocator, object);
}

}  // namespace crashtest
