// VkBufferView and VkImageView: what a descriptor or an attachment sees of a buffer or an image. Every "remaining"
// value of the create info is resolved at creation, so readers never see VK_WHOLE_SIZE or VK_REMAINING_*.
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Buffer;
class Device;
class Image;

CT_DEFINE_HANDLE(BufferView, VkBufferView, VK_OBJECT_TYPE_BUFFER_VIEW);
CT_DEFINE_HANDLE(ImageView, VkImageView, VK_OBJECT_TYPE_IMAGE_VIEW);

class BufferView : public Object {
 public:
  BufferView(const VkBufferViewCreateInfo& info, Buffer& buffer, VkDeviceSize range);
  static VkResult Create(Device& device, const VkBufferViewCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkBufferView* out);
  // vkDestroyBufferView: a stale handle is logged and ignored; the object goes once no work is in flight, and the
  // queues see it destroyed meanwhile (device/deferred_destruction.h, queue/resource_liveness.h).
  static void Destroy(Device& device, BufferView* view, const VkAllocationCallbacks* allocator);

  Buffer& buffer() const { return buffer_; }
  VkFormat format() const { return format_; }
  VkDeviceSize offset() const { return offset_; }
  // In bytes; VK_WHOLE_SIZE resolved to "the nearest smaller multiple" of the texel block size
  // (VkBufferViewCreateInfo).
  VkDeviceSize range() const { return range_; }

 private:
  Buffer& buffer_;
  VkFormat format_;
  VkDeviceSize offset_;
  VkDeviceSize range_;
};

class ImageView : public Object {
 public:
  ImageView(const VkImageViewCreateInfo& info, Image& image, const VkImageSubresourceRange& range,
            VkImageUsageFlags usage);
  static VkResult Create(Device& device, const VkImageViewCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkImageView* out);
  // vkDestroyImageView: as BufferView::Destroy.
  static void Destroy(Device& device, ImageView* view, const VkAllocationCallbacks* allocator);

  Image& image() const { return image_; }
  VkFormat format() const { return format_; }
  VkImageViewType viewType() const { return viewType_; }
  const VkComponentMapping& components() const { return components_; }
  // levelCount and layerCount resolved (never VK_REMAINING_MIP_LEVELS / VK_REMAINING_ARRAY_LAYERS).
  const VkImageSubresourceRange& subresourceRange() const { return subresourceRange_; }
  // VkImageViewUsageCreateInfo's usage, else the image's.
  VkImageUsageFlags usage() const { return usage_; }
  float minLod() const { return minLod_; }

 private:
  Image& image_;
  VkFormat format_;
  VkImageViewType viewType_;
  VkComponentMapping components_;
  VkImageSubresourceRange subresourceRange_;
  VkImageUsageFlags usage_;
  float minLod_ = 0.0f;
};

}  // namespace crashtest
