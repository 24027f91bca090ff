// Buffers and images: their creation parameters, memory requirements and memory binding. crashtest stores every
// image linearly (ImageLayout), so the transfer and execution code address texels as data() + layout offsets.
//
// Contract used by the execution and transfer engines: memory(), memoryOffset() and data() are fixed once bound
// (vkBind* binds once: VUID-vkBindBufferMemory-buffer-07459 / VUID-vkBindImageMemory-image-07460); data() is
// nullptr while unbound.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>

#include "common/handle.h"
#include "common/object.h"
#include "device/image_layout.h"
#include "memory/device_memory.h"

namespace crashtest {

class Device;

CT_DEFINE_HANDLE(Buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER);
CT_DEFINE_HANDLE(Image, VkImage, VK_OBJECT_TYPE_IMAGE);

class Buffer : public Object {
 public:
  Buffer(Device& device, const VkBufferCreateInfo& info);
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  static VkResult Create(Device& device, const VkBufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkBuffer* out);
  // vkDestroyBuffer: a stale handle (destroyed already) is logged and ignored; a bound buffer joins the recently
  // destroyed ranges crash dumps attribute addresses to; the object itself goes once no work is in flight
  // (device/deferred_destruction.h).
  static void Destroy(Device& device, Buffer* buffer, const VkAllocationCallbacks* allocator);

  Device& device() const { return device_; }
  VkDeviceSize size() const { return size_; }
  VkBufferUsageFlags usage() const { return usage_; }
  VkBufferCreateFlags flags() const { return flags_; }
  DeviceMemory* memory() const { return memory_; }
  VkDeviceSize memoryOffset() const { return memoryOffset_; }
  std::byte* data() const { return memory_ != nullptr ? memory_->data() + memoryOffset_ : nullptr; }
  // The buffer's device address (vkGetBufferDeviceAddress): its memory's address plus the binding offset; 0 while
  // unbound.
  VkDeviceAddress address() const { return memory_ != nullptr ? memory_->address() + memoryOffset_ : 0; }
  // VkBufferOpaqueCaptureAddressCreateInfo::opaqueCaptureAddress, 0 when none was given.
  uint64_t requestedCaptureAddress() const { return requestedCaptureAddress_; }

  VkMemoryRequirements MemoryRequirements() const;
  // vkBindBufferMemory(2): checks the memory type, alignment, size and dedicated-allocation rules, then binds.
  VkResult Bind(const char* command, DeviceMemory* memory, VkDeviceSize offset);

 private:
  Device& device_;
  VkDeviceSize size_;
  VkBufferUsageFlags usage_;
  VkBufferCreateFlags flags_;
  uint64_t requestedCaptureAddress_ = 0;
  DeviceMemory* memory_ = nullptr;
  VkDeviceSize memoryOffset_ = 0;
};

class Image : public Object {
 public:
  Image(Device& device, const VkImageCreateInfo& info);
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  static VkResult Create(Device& device, const VkImageCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkImage* out);
  // vkDestroyImage (and a swapchain's images): as Buffer::Destroy — a stale handle is logged and ignored, a bound
  // image joins the recently destroyed ranges, the object goes once no work is in flight.
  static void Destroy(Device& device, Image* image, const VkAllocationCallbacks* allocator);

  Device& device() const { return device_; }
  const VkImageCreateInfo& info() const { return info_; }
  const ImageLayout& layout() const { return layout_; }
  DeviceMemory* memory() const { return memory_; }
  VkDeviceSize memoryOffset() const { return memoryOffset_; }
  std::byte* data() const { return memory_ != nullptr ? memory_->data() + memoryOffset_ : nullptr; }
  // Where its texels start in the device's address space (fault reports, crash dumps); 0 while unbound.
  VkDeviceAddress address() const { return memory_ != nullptr ? memory_->address() + memoryOffset_ : 0; }

  VkMemoryRequirements MemoryRequirements() const;
  // vkBindImageMemory(2): checks the memory type, alignment, size and dedicated-allocation rules, then binds.
  VkResult Bind(const char* command, DeviceMemory* memory, VkDeviceSize offset);

 private:
  Device& device_;
  VkImageCreateInfo info_;  // pNext, pQueueFamilyIndices cleared
  ImageLayout layout_;
  DeviceMemory* memory_ = nullptr;
  VkDeviceSize memoryOffset_ = 0;
};

// The memory types a resource may live in: every type of the device except lazily-allocated ones (only for
// transient attachments) and protected ones (only for protected resources).
uint32_t ResourceMemoryTypeBits(const Device& device, bool transientAttachment, bool isProtected);

// Fills VkMemoryRequirements2 and its chain (VkMemoryDedicatedRequirements: crashtest neither prefers nor
// requires dedicated allocations, since every allocation is plain host memory).
void FillMemoryRequirements2(const VkMemoryRequirements& requirements, VkMemoryRequirements2& out);

}  // namespace crashtest
