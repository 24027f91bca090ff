#include "memory/device_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "fault/fault_engine.h"
#include "memory/memory_accounting.h"
#include "queue/object_names.h"

namespace crashtest {

DeviceMemory::DeviceMemory(Device& device, VkDeviceSize size, uint32_t typeIndex)
    : Object(VK_OBJECT_TYPE_DEVICE_MEMORY), device_(device), size_(size), typeIndex_(typeIndex) {
  const VkPhysicalDeviceMemoryProperties& memory = device.physicalDevice().description().memory;
  if (typeIndex < memory.memoryTypeCount) {
    heapIndex_ = memory.memoryTypes[typeIndex].heapIndex;
    propertyFlags_ = memory.memoryTypes[typeIndex].propertyFlags;
  }
}

DeviceMemory::~DeviceMemory() {
  if (data_ != nullptr) munmap(data_, mappingSize_);
  if (registered_) memory_accounting::Unregister(*this);
}

VkResult DeviceMemory::CreateStorage() {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (size_ > SIZE_MAX - page)
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory: %llu bytes exceed the host address space",
                       static_cast<unsigned long long>(size_));
  mappingSize_ = (static_cast<size_t>(size_) + page - 1) / page * page;
  // MAP_NORESERVE: pages are committed when first touched, as a big GPU heap would not be backed up front.
  void* storage = mmap(nullptr, mappingSize_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
  if (storage == MAP_FAILED) {
    mappingSize_ = 0;
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory: the host could not reserve %llu bytes",
                       static_cast<unsigned long long>(size_));
  }
  data_ = static_cast<std::byte*>(storage);
  return VK_SUCCESS;
}

VkResult DeviceMemory::Allocate(Device& device, const VkMemoryAllocateInfo& info,
                                const VkAllocationCallbacks* allocator, VkDeviceMemory* out) {
  const VkPhysicalDeviceMemoryProperties& properties = device.physicalDevice().description().memory;
  // VUID-vkAllocateMemory-pAllocateInfo-01714: "memoryTypeIndex must be less than memoryTypeCount".
  if (info.memoryTypeIndex >= properties.memoryTypeCount)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkAllocateMemory: memoryTypeIndex %u is not below memoryTypeCount %u "
                       "(VUID-vkAllocateMemory-pAllocateInfo-01714)",
                       info.memoryTypeIndex, properties.memoryTypeCount);
  // VUID-VkMemoryAllocateInfo-allocationSize-07899 (-00638 before 1.3.2xx): allocationSize must be greater than 0.
  if (info.allocationSize == 0)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkAllocateMemory: allocationSize is 0 (VUID-VkMemoryAllocateInfo-allocationSize-07899)");
  // A planned out-of-memory fault fails this call (one predictable branch when the plan has none).
  if (FaultEngine& faults = device.faults(); faults.WatchesAllocations()) [[unlikely]] {
    if (VkResult result = faults.OnAllocate(info.allocationSize); result != VK_SUCCESS)
      return ReportError(result, "vkAllocateMemory: %llu bytes refused by the fault plan",
                         static_cast<unsigned long long>(info.allocationSize));
  }

  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* memory = NewObject<DeviceMemory>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device, info.allocationSize,
                                         info.memoryTypeIndex);
  if (memory == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkAllocateMemory: allocation failed");

  if (const auto* flags = FindInChain<VkMemoryAllocateFlagsInfo>(info.pNext)) memory->allocateFlags_ = flags->flags;
  if (const auto* dedicated = FindInChain<VkMemoryDedicatedAllocateInfo>(info.pNext)) {
    memory->dedicatedBuffer_ = dedicated->buffer;
    memory->dedicatedImage_ = dedicated->image;
  }
  VkDeviceAddress requested = 0;
  if (const auto* capture = FindInChain<VkMemoryOpaqueCaptureAddressAllocateInfo>(info.pNext))
    requested = capture->opaqueCaptureAddress;

  VkResult result = memory_accounting::Register(*memory, requested, &memory->address_);
  if (result == VK_SUCCESS) {
    memory->registered_ = true;
    result = memory->CreateStorage();
  }
  if (result != VK_SUCCESS) {
    DeleteObject(callbacks, memory);
    return result;
  }
  live_objects::Add(memory, {VK_OBJECT_TYPE_DEVICE_MEMORY, memory->header.id, memory->address_});
  *out = ToHandle(memory);
  return VK_SUCCESS;
}

void DeviceMemory::Free(DeviceMemory* memory, const VkAllocationCallbacks* allocator) {
  if (memory == nullptr) return;
  // "memory must be a valid VkDeviceMemory handle" (VUID-vkFreeMemory-memory-parameter): a second free would
  // release the storage twice.
  if (!live_objects::Remove(memory, VK_OBJECT_TYPE_DEVICE_MEMORY)) {
    CT_ERROR("vkFreeMemory: %p is not a live memory object (freed already?) (VUID-vkFreeMemory-memory-parameter); "
             "ignored", static_cast<void*>(ToHandle(memory)));
    return;
  }
  Device& device = memory->device();
  // Remembered for crash dumps: a fault address in it is then a use after free, not an unknown address. Its
  // address range is released now, so shaders and attribution see it freed; the storage may have to outlive this
  // call (below).
  if (memory->registered_) {
    memory_accounting::NoteFreed(*memory, ObjectNameOf(device, reinterpret_cast<uint64_t>(ToHandle(memory))));
    memory_accounting::Unregister(*memory);
    memory->registered_ = false;
  }
  memory->mapped_ = false;  // "implicitly unmapped"
  // Work in flight may still name it (a buffer bound to it): the storage stays until that work is done, and the
  // queues see the memory as freed (device/deferred_destruction.h).
  device.deferredDestruction().DestroyWhenIdle(
      memory, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<DeviceMemory*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

VkResult DeviceMemory::Map(VkDeviceSize offset, VkDeviceSize size, void** out) {
  // VUID-vkMapMemory-memory-00678: "memory must not be currently host mapped".
  if (mapped_)
    return ReportError(VK_ERROR_MEMORY_MAP_FAILED, "vkMapMemory: memory %llu is already mapped "
                       "(VUID-vkMapMemory-memory-00678)", static_cast<unsigned long long>(header.id));
  // VUID-vkMapMemory-memory-00682: "memory must have been created with a memory type that reports
  // VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT".
  if ((propertyFlags_ & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0)
    return ReportError(VK_ERROR_MEMORY_MAP_FAILED, "vkMapMemory: memory type %u is not HOST_VISIBLE "
                       "(VUID-vkMapMemory-memory-00682)", typeIndex_);
  // VUID-vkMapMemory-offset-00679: offset < size; -size-00680/00681: size > 0 and offset + size <= memory size.
  if (offset >= size_ || (size != VK_WHOLE_SIZE && (size == 0 || size > size_ - offset)))
    return ReportError(VK_ERROR_MEMORY_MAP_FAILED,
                       "vkMapMemory: range offset %llu size %llu is outside the %llu-byte allocation "
                       "(VUID-vkMapMemory-offset-00679, -size-00680, -size-00681)",
                       static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size),
                       static_cast<unsigned long long>(size_));
  mapped_ = true;
  mapOffset_ = offset;
  mapSize_ = size == VK_WHOLE_SIZE ? size_ - offset : size;
  *out = data_ + offset;
  return VK_SUCCESS;
}

void DeviceMemory::Unmap() {
  // VUID-vkUnmapMemory-memory-00689: "memory must be currently host mapped".
  if (!mapped_) CT_ERROR("vkUnmapMemory: memory %llu is not mapped (VUID-vkUnmapMemory-memory-00689)",
                         static_cast<unsigned long long>(header.id));
  mapped_ = false;
}

VkResult DeviceMemory::CheckMappedRange(const char* command, const VkMappedMemoryRange& range) const {
  VkDeviceSize atom = device_.physicalDevice().description().properties.limits.nonCoherentAtomSize;
  if (atom == 0) atom = 1;
  auto fail = [&](const char* what) {
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: range offset %llu size %llu of memory %llu: %s", command,
                       static_cast<unsigned long long>(range.offset), static_cast<unsigned long long>(range.size),
                       static_cast<unsigned long long>(header.id), what);
  };
  if (!mapped_) return fail("the memory is not mapped (VUID-VkMappedMemoryRange-memory-00684)");
  if (range.offset % atom != 0)
    return fail("offset is not a multiple of nonCoherentAtomSize (VUID-VkMappedMemoryRange-offset-00687)");
  if (range.size == VK_WHOLE_SIZE) {
    if (range.offset < mapOffset_ || range.offset >= mapOffset_ + mapSize_)
      return fail("offset is outside the mapped range (VUID-VkMappedMemoryRange-size-00686)");
    return VK_SUCCESS;
  }
  if (range.offset < mapOffset_ || range.size > mapOffset_ + mapSize_ - std::min(range.offset, mapOffset_ + mapSize_))
    return fail("the range is not within the mapped range (VUID-VkMappedMemoryRange-size-00685)");
  if (range.size % atom != 0 && range.offset + range.size != size_)
    return fail("size is neither a multiple of nonCoherentAtomSize nor reaches the end of the memory "
                "(VUID-VkMappedMemoryRange-size-01390)");
  return VK_SUCCESS;
}

DeviceMemory* FindMemoryByAddress(const Device& device, VkDeviceAddress address) {
  return memory_accounting::FindByAddress(device, address);
}

}  // namespace crashtest
