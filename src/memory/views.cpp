#include "memory/views.h"

#include <algorithm>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "format/format_info.h"

namespace crashtest {

namespace {

using ull = unsigned long long;

VkResult Misuse(const char* message, const char* vuid) {
  return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s (%s)", message, vuid);
}

}  // namespace

BufferView::BufferView(const VkBufferViewCreateInfo& info, Buffer& buffer, VkDeviceSize range)
    : Object(VK_OBJECT_TYPE_BUFFER_VIEW), buffer_(buffer), format_(info.format), offset_(info.offset), range_(range) {}

VkResult BufferView::Create(Device& device, const VkBufferViewCreateInfo& info, const VkAllocationCallbacks* allocator,
                            VkBufferView* out) {
  Buffer* buffer = FromHandle(info.buffer);
  const FormatInfo* format = GetFormatInfo(info.format);
  const VkPhysicalDeviceLimits& limits = device.physicalDevice().description().properties.limits;
  if (buffer == nullptr) return Misuse("vkCreateBufferView: buffer is VK_NULL_HANDLE", "VUID-VkBufferViewCreateInfo-buffer-parameter");
  if (format == nullptr) return Misuse("vkCreateBufferView: format is unknown", "VUID-VkBufferViewCreateInfo-format-parameter");
  if ((buffer->usage() & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)) == 0)
    return Misuse("vkCreateBufferView: the buffer has neither texel-buffer usage", "VUID-VkBufferViewCreateInfo-buffer-00932");
  if (buffer->memory() == nullptr)
    return Misuse("vkCreateBufferView: the buffer is not bound to memory", "VUID-VkBufferViewCreateInfo-buffer-00935");
  if (info.offset >= buffer->size())
    return Misuse("vkCreateBufferView: offset is not below the buffer's size", "VUID-VkBufferViewCreateInfo-offset-00925");
  // The texel-buffer-alignment rules (VK_EXT_texel_buffer_alignment) only relax this; the 1.0 limit is always safe.
  if (limits.minTexelBufferOffsetAlignment != 0 && info.offset % limits.minTexelBufferOffsetAlignment != 0)
    return Misuse("vkCreateBufferView: offset is not a multiple of minTexelBufferOffsetAlignment",
                  "VUID-VkBufferViewCreateInfo-offset-02749");
  VkDeviceSize range = info.range;
  if (range == VK_WHOLE_SIZE) {
    // "If VK_WHOLE_SIZE is used and the remaining size of the buffer is not a multiple of the texel block size of
    // format, the nearest smaller multiple is used" (VkBufferViewCreateInfo).
    range = (buffer->size() - info.offset) / format->blockSize * format->blockSize;
  } else {
    if (range == 0) return Misuse("vkCreateBufferView: range is 0", "VUID-VkBufferViewCreateInfo-range-00928");
    if (range % format->blockSize != 0)
      return Misuse("vkCreateBufferView: range is not a multiple of the format's texel block size",
                    "VUID-VkBufferViewCreateInfo-range-00929");
    if (range > buffer->size() - info.offset)
      return Misuse("vkCreateBufferView: offset + range exceeds the buffer's size", "VUID-VkBufferViewCreateInfo-offset-00931");
  }
  if (range / format->blockSize > limits.maxTexelBufferElements)
    return Misuse("vkCreateBufferView: range / texel block size exceeds maxTexelBufferElements",
                  "VUID-VkBufferViewCreateInfo-range-00930");
  auto* view = NewObject<BufferView>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                     info, *buffer, range);
  if (view == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateBufferView: allocation failed");
  live_objects::Add(view, {VK_OBJECT_TYPE_BUFFER_VIEW, view->header.id, buffer->address() + info.offset});
  *out = ToHandle(view);
  return VK_SUCCESS;
}

namespace {

// Removes a view from the live objects and deletes it once no work is in flight; a stale handle is logged with
// its -parameter VUID and ignored (a second destruction would free it twice).
template <typename View>
void DestroyView(Device& device, View* view, VkObjectType type, const char* command, const char* vuid,
                 const VkAllocationCallbacks* allocator) {
  if (view == nullptr) return;
  if (!live_objects::Remove(view, type)) {
    CT_ERROR("%s: %p is not a live view (destroyed already?) (%s); ignored", command,
             static_cast<void*>(ToHandle(view)), vuid);
    return;
  }
  device.deferredDestruction().DestroyWhenIdle(
      view, [](void* object, const VkAllocationCallbacks* callbacks) { DeleteObject(callbacks, static_cast<View*>(object)); },
      ChooseAllocator(allocator, device.allocator()));
}

}  // namespace

void BufferView::Destroy(Device& device, BufferView* view, const VkAllocationCallbacks* allocator) {
  DestroyView(device, view, VK_OBJECT_TYPE_BUFFER_VIEW, "vkDestroyBufferView",
              "VUID-vkDestroyBufferView-bufferView-parameter", allocator);
}

void ImageView::Destroy(Device& device, ImageView* view, const VkAllocationCallbacks* allocator) {
  DestroyView(device, view, VK_OBJECT_TYPE_IMAGE_VIEW, "vkDestroyImageView",
              "VUID-vkDestroyImageView-imageView-parameter", allocator);
}

ImageView::ImageView(const VkImageViewCreateInfo& info, Image& image, const VkImageSubresourceRange& range,
                     VkImageUsageFlags usage)
    : Object(VK_OBJECT_TYPE_IMAGE_VIEW),
      image_(image),
      format_(info.format),
      viewType_(info.viewType),
      components_(info.components),
      subresourceRange_(range),
      usage_(usage) {
  if (const auto* minLod = FindInChain<VkImageViewMinLodCreateInfoEXT>(info.pNext)) minLod_ = minLod->minLod;
}

VkResult ImageView::Create(Device& device, const VkImageViewCreateInfo& info, const VkAllocationCallbacks* allocator,
                           VkImageView* out) {
  Image* image = FromHandle(info.image);
  if (image == nullptr) return Misuse("vkCreateImageView: image is VK_NULL_HANDLE", "VUID-VkImageViewCreateInfo-image-parameter");
  const VkImageCreateInfo& imageInfo = image->info();
  if (image->memory() == nullptr)
    return Misuse("vkCreateImageView: the image is not bound to memory", "VUID-VkImageViewCreateInfo-image-01020");
  if (GetFormatInfo(info.format) == nullptr)
    return Misuse("vkCreateImageView: format is unknown", "VUID-VkImageViewCreateInfo-format-parameter");
  // "If image was not created with VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT, format must be identical to the format used
  // to create image" (VUID-VkImageViewCreateInfo-image-01762, for the non-planar case).
  if ((imageInfo.flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) == 0 && info.format != imageInfo.format &&
      !IsMultiPlanar(imageInfo.format))
    return Misuse("vkCreateImageView: format differs from the image's, which is not MUTABLE_FORMAT",
                  "VUID-VkImageViewCreateInfo-image-01762");

  VkImageSubresourceRange range = info.subresourceRange;
  // "VK_REMAINING_MIP_LEVELS ... all remaining mipmap levels" (VkImageSubresourceRange).
  if (range.baseMipLevel >= imageInfo.mipLevels)
    return Misuse("vkCreateImageView: baseMipLevel is not below the image's mipLevels",
                  "VUID-VkImageViewCreateInfo-subresourceRange-01478");
  if (range.levelCount == VK_REMAINING_MIP_LEVELS) range.levelCount = imageInfo.mipLevels - range.baseMipLevel;
  if (range.levelCount == 0 || range.levelCount > imageInfo.mipLevels - range.baseMipLevel)
    return Misuse("vkCreateImageView: the mip level range exceeds the image's mipLevels",
                  "VUID-VkImageViewCreateInfo-subresourceRange-01718");
  // A 2D (array) view of a 3D image made 2D_ARRAY_COMPATIBLE addresses depth slices as layers.
  uint32_t layers = imageInfo.arrayLayers;
  if (imageInfo.imageType == VK_IMAGE_TYPE_3D &&
      (info.viewType == VK_IMAGE_VIEW_TYPE_2D || info.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY))
    layers = std::max(1u, imageInfo.extent.depth >> range.baseMipLevel);
  if (range.baseArrayLayer >= layers)
    return Misuse("vkCreateImageView: baseArrayLayer is not below the image's layer count",
                  "VUID-VkImageViewCreateInfo-image-06724");
  if (range.layerCount == VK_REMAINING_ARRAY_LAYERS) range.layerCount = layers - range.baseArrayLayer;
  if (range.layerCount == 0 || range.layerCount > layers - range.baseArrayLayer)
    return Misuse("vkCreateImageView: the layer range exceeds the image's layers",
                  "VUID-VkImageViewCreateInfo-subresourceRange-06725");
  if (range.aspectMask == 0 || (range.aspectMask & ~(FormatAspects(imageInfo.format) | VK_IMAGE_ASPECT_COLOR_BIT)) != 0)
    return Misuse("vkCreateImageView: aspectMask names an aspect the image's format lacks",
                  "VUID-VkImageViewCreateInfo-subresourceRange-09594");
  VkImageUsageFlags usage = imageInfo.usage;
  if (const auto* viewUsage = FindInChain<VkImageViewUsageCreateInfo>(info.pNext)) usage = viewUsage->usage;

  auto* view = NewObject<ImageView>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                    info, *image, range, usage);
  if (view == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateImageView: allocation failed");
  live_objects::Add(view, {VK_OBJECT_TYPE_IMAGE_VIEW, view->header.id, image->address()});
  *out = ToHandle(view);
  return VK_SUCCESS;
}

}  // namespace crashtest
