// vkGetPhysicalDeviceImageFormatProperties(2) and vkGetPhysicalDeviceFormatProperties(2) for one emulated
// device: the device's format support (DeviceDescription::formats, already masked with DriverFormatSupport)
// combined with the image creation rules of the Vulkan 1.3 specification.
#pragma once

#include <vulkan/vulkan.h>

#include "device/device_description.h"

namespace crashtest {

// Fills out->imageFormatProperties and the output structs crashtest knows in out->pNext
// (VkExternalImageFormatProperties, VkSamplerYcbcrConversionImageFormatProperties,
// VkImageCompressionPropertiesEXT, VkFilterCubicImageViewImageFormatPropertiesEXT), keeping their sType/pNext.
// Returns VK_ERROR_FORMAT_NOT_SUPPORTED with imageFormatProperties zeroed when the combination is not supported;
// the reason is logged at debug level (CRASHTEST_LOG=debug).
VkResult GetImageFormatProperties(const DeviceDescription& device, const VkPhysicalDeviceImageFormatInfo2& info,
                                  VkImageFormatProperties2* out);

// The Vulkan 1.0 form: the same rules without a pNext chain.
VkResult GetImageFormatProperties(const DeviceDescription& device, VkFormat format, VkImageType type,
                                  VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                  VkImageFormatProperties* out);

// The 64-bit format features (zero for formats the device does not support), keeping out's sType/pNext.
void GetFormatProperties3(const DeviceDescription& device, VkFormat format, VkFormatProperties3& out);

// The 32-bit form. VkFormatFeatureFlagBits2 bits at positions 31 and up have no VkFormatFeatureFlagBits
// equivalent (STORAGE_READ_WITHOUT_FORMAT = bit 31, STORAGE_WRITE_WITHOUT_FORMAT = bit 32,
// SAMPLED_IMAGE_DEPTH_COMPARISON = bit 33, and the vendor bits above); they are reported through
// VkFormatProperties3 only.
void GetFormatProperties(const DeviceDescription& device, VkFormat format, VkFormatProperties& out);
VkFormatFeatureFlags ToFormatFeatureFlags(VkFormatFeatureFlags2 flags);

// vkGetPhysicalDeviceFormatProperties2: VkFormatProperties plus the chained VkFormatProperties3 and the DRM format
// modifier lists (always empty: crashtest has no DRM format modifiers).
void GetFormatProperties2(const DeviceDescription& device, VkFormat format, VkFormatProperties2* out);

}  // namespace crashtest
