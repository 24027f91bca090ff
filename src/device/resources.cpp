#include "device/resources.h"

#include <algorithm>

#include "common/allocation.h"
#include "common/checked_math.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "format/format_info.h"
#include "memory/memory_accounting.h"
#include "queue/object_names.h"

namespace crashtest {

namespace {

// Images are placed on 256-byte boundaries (a common GPU texel-row alignment), which also satisfies every
// copy-offset alignment the built-in profiles report.
constexpr uint32_t kImageRowAlignment = 256;
constexpr VkDeviceSize kImageAlignment = 4096;

using ull = unsigned long long;

// The largest heap: no resource bigger than it can ever be bound.
VkDeviceSize LargestHeap(const DeviceDescription& description) {
  VkDeviceSize largest = 0;
  for (uint32_t i = 0; i < description.memory.memoryHeapCount; ++i)
    largest = std::max(largest, description.memory.memoryHeaps[i].size);
  return largest;
}

// VkPhysicalDeviceMaintenance4Properties::maxBufferSize (also in VkPhysicalDeviceVulkan13Properties), or 0 when the
// device reports neither.
VkDeviceSize MaxBufferSize(const DeviceDescription& description) {
  if (const StructBlob* b = description.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES))
    return static_cast<const VkPhysicalDeviceMaintenance4Properties*>(b->data())->maxBufferSize;
  if (const StructBlob* b = description.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES))
    return static_cast<const VkPhysicalDeviceVulkan13Properties*>(b->data())->maxBufferSize;
  return 0;
}

// The binding rules vkBindBufferMemory and vkBindImageMemory share; `vuid` names the command's VUID prefix.
VkResult CheckBinding(const char* command, const char* vuid, const Object& resource, bool alreadyBound,
                      const VkMemoryRequirements& requirements, const DeviceMemory* memory, VkDeviceSize offset,
                      bool dedicatedToOther, bool dedicatedToThis) {
  auto fail = [&](const char* what, const char* id) {
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: object %llu at offset %llu of memory %llu: %s (%s-%s)",
                       command, static_cast<ull>(resource.header.id), static_cast<ull>(offset),
                       memory != nullptr ? static_cast<ull>(memory->header.id) : 0ull, what, vuid, id);
  };
  if (memory == nullptr) return fail("memory is VK_NULL_HANDLE", "memory-parameter");
  if (alreadyBound) return fail("the resource is already bound to memory", "07459/07460");
  if (offset >= memory->size()) return fail("memoryOffset is not below the memory's size", "memoryOffset-01031/01046");
  if ((requirements.memoryTypeBits & (1u << memory->typeIndex())) == 0)
    return fail("the memory's type is not in the resource's memoryTypeBits", "memory-01035/01047");
  if (offset % requirements.alignment != 0)
    return fail("memoryOffset is not a multiple of the required alignment", "memoryOffset-01036/01048");
  if (requirements.size > memory->size() - offset)
    return fail("the resource's required size does not fit after memoryOffset", "size-01037/01049");
  // "If memory was allocated with VkMemoryDedicatedAllocateInfo ... [the resource] must equal ... and
  // memoryOffset must be zero".
  if (dedicatedToOther) return fail("the memory is a dedicated allocation of another resource", "memory-01508/01509");
  if (dedicatedToThis && offset != 0)
    return fail("a dedicated allocation must be bound at offset 0", "memory-01508/01509");
  return VK_SUCCESS;
}

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

void FillMemoryRequirements2(const VkMemoryRequirements& requirements, VkMemoryRequirements2& out) {
  out.memoryRequirements = requirements;
  if (auto* dedicated = FindInOutChain<VkMemoryDedicatedRequirements>(out.pNext)) {
    dedicated->prefersDedicatedAllocation = VK_FALSE;
    dedicated->requiresDedicatedAllocation = VK_FALSE;
  }
}

Buffer::Buffer(Device& device, const VkBufferCreateInfo& info)
    : Object(VK_OBJECT_TYPE_BUFFER), device_(device), size_(info.size), usage_(info.usage), flags_(info.flags) {
  if (const auto* capture = FindInChain<VkBufferOpaqueCaptureAddressCreateInfo>(info.pNext))
    requestedCaptureAddress_ = capture->opaqueCaptureAddress;
  // VkBufferUsageFlags2CreateInfoKHR (maintenance5) is newer than the headers crashtest builds against.
}

VkResult Buffer::Create(Device& device, const VkBufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                        VkBuffer* out) {
  if (info.flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                    VK_BUFFER_CREATE_SPARSE_ALIASED_BIT))
    return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateBuffer: sparse buffers are not supported");
  // VUID-VkBufferCreateInfo-size-00912: "size must be greater than 0".
  if (info.size == 0)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkCreateBuffer: size is 0 (VUID-VkBufferCreateInfo-size-00912)");
  // "size must be less than or equal to VkPhysicalDeviceMaintenance4Properties::maxBufferSize"
  // (VUID-VkBufferCreateInfo-size-06409); a buffer larger than every heap could never be bound either. Both are
  // sizes the device cannot hold: VK_ERROR_OUT_OF_DEVICE_MEMORY, one of vkCreateBuffer's results, rather than a
  // buffer whose memory requirement would wrap around.
  const DeviceDescription& description = device.physicalDevice().description();
  if (const VkDeviceSize maxBufferSize = MaxBufferSize(description); maxBufferSize != 0 && info.size > maxBufferSize)
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "vkCreateBuffer: size %llu is above maxBufferSize %llu (VUID-VkBufferCreateInfo-size-06409)",
                       static_cast<ull>(info.size), static_cast<ull>(maxBufferSize));
  if (const VkDeviceSize largest = LargestHeap(description); info.size > largest)
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "vkCreateBuffer: size %llu is above the largest memory heap (%llu bytes): no memory can hold it",
                       static_cast<ull>(info.size), static_cast<ull>(largest));
  auto* buffer = NewObject<Buffer>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                   device, info);
  if (buffer == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateBuffer: allocation failed");
  live_objects::Add(buffer, {VK_OBJECT_TYPE_BUFFER, buffer->header.id, 0});
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
  // vkCreateBuffer keeps sizes below the largest heap; saturating all the same, so a size can never wrap to less.
  return {SaturatingAlignUp(std::max<VkDeviceSize>(size_, 1), alignment), alignment,
          ResourceMemoryTypeBits(device_, false, isProtected)};
}

VkResult Buffer::Bind(const char* command, DeviceMemory* memory, VkDeviceSize offset) {
  bool dedicatedToThis = memory != nullptr && memory->dedicatedBuffer() == ToHandle(this);
  bool dedicatedToOther = memory != nullptr && !dedicatedToThis &&
                          (memory->dedicatedBuffer() != VK_NULL_HANDLE || memory->dedicatedImage() != VK_NULL_HANDLE);
  VkResult result = CheckBinding(command, "VUID-vkBindBufferMemory", *this, memory_ != nullptr, MemoryRequirements(),
                                 memory, offset, dedicatedToOther, dedicatedToThis);
  if (result != VK_SUCCESS) return result;
  // VUID-vkBindBufferMemory-bufferDeviceAddress-03339: a buffer with SHADER_DEVICE_ADDRESS usage needs memory
  // allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT.
  if ((usage_ & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) &&
      (memory->allocateFlags() & VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT) == 0)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: buffer %llu has SHADER_DEVICE_ADDRESS usage but memory %llu was not allocated with "
                       "VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (VUID-vkBindBufferMemory-bufferDeviceAddress-03339)",
                       command, static_cast<ull>(header.id), static_cast<ull>(memory->header.id));
  memory_ = memory;
  memoryOffset_ = offset;
  live_objects::SetAddress(this, memory->address() + offset);
  memory_accounting::NoteBinding(*memory, dump::ResourceKind::Buffer, header.id,
                                 reinterpret_cast<uint64_t>(ToHandle(this)), offset, size_);
  return VK_SUCCESS;
}

void Buffer::Destroy(Device& device, Buffer* buffer, const VkAllocationCallbacks* allocator) {
  if (buffer == nullptr) return;
  // "buffer must be a valid VkBuffer handle" (VUID-vkDestroyBuffer-buffer-parameter): a second destruction would
  // free the object twice.
  if (!live_objects::Remove(buffer, VK_OBJECT_TYPE_BUFFER)) {
    CT_ERROR("vkDestroyBuffer: %p is not a live buffer (destroyed already?) (VUID-vkDestroyBuffer-buffer-parameter); "
             "ignored", static_cast<void*>(ToHandle(buffer)));
    return;
  }
  if (buffer->memory_ != nullptr)
    memory_accounting::ForgetBinding(reinterpret_cast<uint64_t>(ToHandle(buffer)),
                                     ObjectNameOf(device, reinterpret_cast<uint64_t>(ToHandle(buffer))));
  device.deferredDestruction().DestroyWhenIdle(
      buffer, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<Buffer*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

void Image::Destroy(Device& device, Image* image, const VkAllocationCallbacks* allocator) {
  if (image == nullptr) return;
  // "image must be a valid VkImage handle" (VUID-vkDestroyImage-image-parameter): a second destruction would free
  // the object twice.
  if (!live_objects::Remove(image, VK_OBJECT_TYPE_IMAGE)) {
    CT_ERROR("vkDestroyImage: %p is not a live image (destroyed already?) (VUID-vkDestroyImage-image-parameter); "
             "ignored", static_cast<void*>(ToHandle(image)));
    return;
  }
  if (image->memory_ != nullptr)
    memory_accounting::ForgetBinding(reinterpret_cast<uint64_t>(ToHandle(image)),
                                     ObjectNameOf(device, reinterpret_cast<uint64_t>(ToHandle(image))));
  // Work in flight may still name it (VUID-vkDestroyImage-image-01000): the queues see it destroyed and fault
  // (queue/resource_liveness.h); its storage stays until that work is done.
  device.deferredDestruction().DestroyWhenIdle(
      image, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<Image*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

Image::Image(Device& device, const VkImageCreateInfo& info) : Object(VK_OBJECT_TYPE_IMAGE), device_(device), info_(info) {
  info_.pNext = nullptr;
  info_.queueFamilyIndexCount = 0;
  info_.pQueueFamilyIndices = nullptr;
  info_.mipLevels = std::max(info.mipLevels, 1u);
  info_.arrayLayers = std::max(info.arrayLayers, 1u);
  ImageLayoutInput layout{info_.format, info_.imageType, info_.extent, info_.mipLevels, info_.arrayLayers,
                          info_.samples, kImageRowAlignment};
  layout_.Compute(layout);
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
  // An image larger than every heap (its layout size saturates at UINT64_MAX when it does not fit 64 bits) can
  // never be bound: VK_ERROR_OUT_OF_DEVICE_MEMORY, one of vkCreateImage's results.
  if (const VkDeviceSize size = image->MemoryRequirements().size,
      largest = LargestHeap(device.physicalDevice().description());
      size > largest) {
    DeleteObject(callbacks, image);
    return ReportError(VK_ERROR_OUT_OF_DEVICE_MEMORY,
                       "vkCreateImage: %ux%ux%u %s image with %u levels and %u layers needs %llu bytes, above the "
                       "largest memory heap (%llu bytes)",
                       info.extent.width, info.extent.height, info.extent.depth, FormatName(info.format),
                       info.mipLevels, info.arrayLayers, static_cast<ull>(size), static_cast<ull>(largest));
  }
  live_objects::Add(image, {VK_OBJECT_TYPE_IMAGE, image->header.id, 0});
  *out = ToHandle(image);
  return VK_SUCCESS;
}

VkMemoryRequirements Image::MemoryRequirements() const {
  bool transient = (info_.usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) != 0;
  bool isProtected = (info_.flags & VK_IMAGE_CREATE_PROTECTED_BIT) != 0;
  return {SaturatingAlignUp(std::max<VkDeviceSize>(layout_.size(), 1), kImageAlignment), kImageAlignment,
          ResourceMemoryTypeBits(device_, transient, isProtected)};
}

VkResult Image::Bind(const char* command, DeviceMemory* memory, VkDeviceSize offset) {
  bool dedicatedToThis = memory != nullptr && memory->dedicatedImage() == ToHandle(this);
  bool dedicatedToOther = memory != nullptr && !dedicatedToThis &&
                          (memory->dedicatedBuffer() != VK_NULL_HANDLE || memory->dedicatedImage() != VK_NULL_HANDLE);
  VkResult result = CheckBinding(command, "VUID-vkBindImageMemory", *this, memory_ != nullptr, MemoryRequirements(),
                                 memory, offset, dedicatedToOther, dedicatedToThis);
  if (result != VK_SUCCESS) return result;
  memory_ = memory;
  memoryOffset_ = offset;
  live_objects::SetAddress(this, address());
  memory_accounting::NoteBinding(*memory, dump::ResourceKind::Image, header.id,
                                 reinterpret_cast<uint64_t>(ToHandle(this)), offset, MemoryRequirements().size);
  return VK_SUCCESS;
}

}  // namespace crashtest
