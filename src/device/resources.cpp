#include "device/resources.h"

#include <algorithm>

#include "common/allocation.h"
#include "common/result.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "format/format_info.h"

namespace crashtest {

namespace {

// Images are placed on 256-byte boundaries (a common GPU texel-row alignment), which also satisfies every
// copy-offset alignment the built-in profiles report.
constexpr uint32_t kImageRowAlignment = 256;
constexpr VkDeviceSize kImageAlignment = 4096;

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) { return (value + alignment - 1) / alignment * alignment; }

}  // namespace

uint32_t ResourceMemoryTypeBits(const Device& device, bool transientAttachment, bool isProtected) {
  const VkPhysicalDeviceMemoryProperties& memory = device.physicalDevice().description().memory;
  uint32_t bits = 0;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) && !transientAttachment) continue;
    if (((flags & VK_MEMORY_PROPERTY_PROTECTED_BIT) != 0) != isProtected) continue;
    bits |= 1u << i;
  }
  return bits;
}

Buffer::Buffer(Device& device, const VkBufferCreateInfo& info)
    : Object(VK_OBJECT_TYPE_BUFFER), device_(device), size_(info.size), usage_(info.usage), flags_(info.flags) {}

VkResult Buffer::Create(Device& device, const VkBufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                        VkBuffer* out) {
  if (info.flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                    VK_BUFFER_CREATE_SPARSE_ALIASED_BIT))
    return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateBuffer: sparse buffers are not supported");
  auto* buffer = NewObject<Buffer>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                   device, info);
  if (buffer == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateBuffer: allocation failed");
  *out = ToHandle(buffer);
  return VK_SUCCESS;
}

VkMemoryRequirements Buffer::MemoryRequirements() const {
  const VkPhysicalDeviceLimits& limits = device_.physicalDevice().description().properties.limits;
  // The alignment must satisfy every offset rule of the buffer's usages (vkBindBufferMemory VUs 01034–01036).
  VkDeviceSize alignment = 16;
  if (usage_ & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT))
    alignment = std::max(alignment, limits.minTexelBufferOffsetAlignment);
  if (usage_ & VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT)
    alignment = std::max(alignment, limits.minUniformBufferOffsetAlignment);
  if (usage_ & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)
    alignment = std::max(alignment, limits.minStorageBufferOffsetAlignment);
  bool isProtected = (flags_ & VK_BUFFER_CREATE_PROTECTED_BIT) != 0;
  return {AlignUp(std::max<VkDeviceSize>(size_, 1), alignment), alignment,
          ResourceMemoryTypeBits(device_, false, isProtected)};
}

Image::Image(Device& device, const VkImageCreateInfo& info) : Object(VK_OBJECT_TYPE_IMAGE), device_(device), info_(info) {
  info_.pNext = nullptr;
  info_.queueFamilyIndexCount = 0;
  info_.pQueueFamilyIndices = nullptr;
}

VkResult Image::Create(Device& device, const VkImageCreateInfo& info, const VkAllocationCallbacks* allocator,
                       VkImage* out) {
  if (info.flags & (VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT |
                    VK_IMAGE_CREATE_SPARSE_ALIASED_BIT))
    return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateImage: sparse images are not supported");
  if (GetFormatInfo(info.format) == nullptr)
    return ReportError(VK_ERROR_FORMAT_NOT_SUPPORTED, "vkCreateImage: format %s is unknown", FormatName(info.format));
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* image = NewObject<Image>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device, info);
  if (image == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateImage: allocation failed");
  ImageLayoutInput layout{info.format, info.imageType, info.extent, std::max(info.mipLevels, 1u),
                          std::max(info.arrayLayers, 1u), info.samples, kImageRowAlignment};
  image->layout_.Compute(layout);
  *out = ToHandle(image);
  return VK_SUCCESS;
}

VkMemoryRequirements Image::MemoryRequirements() const {
  bool transient = (info_.usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) != 0;
  bool isProtected = (info_.flags & VK_IMAGE_CREATE_PROTECTED_BIT) != 0;
  return {AlignUp(std::max<VkDeviceSize>(layout_.size(), 1), kImageAlignment), kImageAlignment,
          ResourceMemoryTypeBits(device_, transient, isProtected)};
}

}  // namespace crashtest
