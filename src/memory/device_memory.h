// VkDeviceMemory: host memory standing in for GPU memory. Its contents persist (mapped or not), and every
// allocation has a unique, stable device address so fault reports can attribute addresses to it.
// Contract used by the execution engine (src/command, src/queue): data() and address() are fixed for the
// allocation's life; data() is never nullptr for a live allocation of non-zero size.
//
// Storage: an anonymous private mapping, so it is zero-filled ("the contents of the allocation are undefined" in
// the spec; zero is the deterministic choice), page-aligned (beyond minMemoryMapAlignment) and committed lazily by
// the host kernel, as a GPU heap of 16 GiB would be. The storage is not host memory in Vulkan's sense, so it does
// not go through VkAllocationCallbacks; the DeviceMemory object itself does. The X11 swapchain relies on this shape
// (whole pages at data(), unmapped by the destructor): wsi/x11_shm.h maps a shared-memory segment over them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(DeviceMemory, VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY);

class DeviceMemory : public Object {
 public:
  DeviceMemory(Device& device, VkDeviceSize size, uint32_t typeIndex);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // vkAllocateMemory: validates the type, accounts the heap and maxMemoryAllocationCount, assigns the address
  // (replaying VkMemoryOpaqueCaptureAddressAllocateInfo when given) and creates the storage.
  static VkResult Allocate(Device& device, const VkMemoryAllocateInfo& info, const VkAllocationCallbacks* allocator,
                           VkDeviceMemory* out);
  // vkFreeMemory: "If a memory object is mapped at the time it is freed, it is implicitly unmapped".
  static void Free(DeviceMemory* memory, const VkAllocationCallbacks* allocator);

  Device& device() const { return device_; }
  std::byte* data() const { return data_; }
  VkDeviceSize size() const { return size_; }
  uint32_t typeIndex() const { return typeIndex_; }
  uint32_t heapIndex() const { return heapIndex_; }
  VkDeviceAddress address() const { return address_; }
  VkMemoryPropertyFlags propertyFlags() const { return propertyFlags_; }
  VkMemoryAllocateFlags allocateFlags() const { return allocateFlags_; }
  // The resource of a dedicated allocation (VkMemoryDedicatedAllocateInfo), VK_NULL_HANDLE otherwise.
  VkBuffer dedicatedBuffer() const { return dedicatedBuffer_; }
  VkImage dedicatedImage() const { return dedicatedImage_; }

  // vkMapMemory / vkUnmapMemory. Host access to a memory object is externally synchronised, so no lock.
  VkResult Map(VkDeviceSize offset, VkDeviceSize size, void** out);
  void Unmap();
  bool mapped() const { return mapped_; }
  // Validates one range of vkFlushMappedMemoryRanges / vkInvalidateMappedMemoryRanges (VkMappedMemoryRange VUs).
  VkResult CheckMappedRange(const char* command, const VkMappedMemoryRange& range) const;

 protected:
  Device& device_;
  std::byte* data_ = nullptr;
  VkDeviceSize size_;
  uint32_t typeIndex_;
  uint32_t heapIndex_ = 0;
  VkDeviceAddress address_ = 0;

 private:
  VkResult CreateStorage();

  VkMemoryPropertyFlags propertyFlags_ = 0;
  VkMemoryAllocateFlags allocateFlags_ = 0;
  VkBuffer dedicatedBuffer_ = VK_NULL_HANDLE;
  VkImage dedicatedImage_ = VK_NULL_HANDLE;
  size_t mappingSize_ = 0;  // bytes of the host mapping behind data_
  bool registered_ = false;
  bool mapped_ = false;
  VkDeviceSize mapOffset_ = 0;
  VkDeviceSize mapSize_ = 0;  // resolved (never VK_WHOLE_SIZE)
};

// The live allocation of `device` whose address range contains `address`, or nullptr (fault attribution).
DeviceMemory* FindMemoryByAddress(const Device& device, VkDeviceAddress address);

}  // namespace crashtest
