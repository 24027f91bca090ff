// Buffers and images: their creation parameters and memory requirements. Binding to memory and the transfer
// commands that read and write them arrive with the [work] issue.
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/object.h"
#include "device/image_layout.h"

namespace crashtest {

class Device;

CT_DEFINE_HANDLE(Buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER);
CT_DEFINE_HANDLE(Image, VkImage, VK_OBJECT_TYPE_IMAGE);

class Buffer : public Object {
 public:
  Buffer(Device& device, const VkBufferCreateInfo& info);
  static VkResult Create(Device& device, const VkBufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkBuffer* out);

  VkDeviceSize size() const { return size_; }
  VkBufferUsageFlags usage() const { return usage_; }
  VkMemoryRequirements MemoryRequirements() const;

 private:
  Device& device_;
  VkDeviceSize size_;
  VkBufferUsageFlags usage_;
  VkBufferCreateFlags flags_;
};

class Image : public Object {
 public:
  Image(Device& device, const VkImageCreateInfo& info);
  static VkResult Create(Device& device, const VkImageCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkImage* out);

  const VkImageCreateInfo& info() const { return info_; }
  const ImageLayout& layout() const { return layout_; }
  VkMemoryRequirements MemoryRequirements() const;

 private:
  Device& device_;
  VkImageCreateInfo info_;  // pNext, pQueueFamilyIndices cleared
  ImageLayout layout_;
};

// The memory types a resource may live in: every type of the device except lazily-allocated ones (only for
// transient attachments) and protected ones (only for protected resources).
uint32_t ResourceMemoryTypeBits(const Device& device, bool transientAttachment, bool isProtected);

}  // namespace crashtest
