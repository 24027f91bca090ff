// Physical-device queries: every answer comes from the emulated device's description.
#include <cstring>

#include "common/count_array.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                       VkPhysicalDeviceProperties* pProperties) {
  *pProperties = FromHandle(physicalDevice)->description().properties;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties) {
  FromHandle(physicalDevice)->GetProperties2(*pProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                     VkPhysicalDeviceFeatures* pFeatures) {
  *pFeatures = FromHandle(physicalDevice)->description().features;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                      VkPhysicalDeviceFeatures2* pFeatures) {
  FromHandle(physicalDevice)->GetFeatures2(*pFeatures);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice physicalDevice,
                                                                  uint32_t* pQueueFamilyPropertyCount,
                                                                  VkQueueFamilyProperties* pQueueFamilyProperties) {
  FromHandle(physicalDevice)->GetQueueFamilyProperties(pQueueFamilyPropertyCount, pQueueFamilyProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice physicalDevice,
                                                                   uint32_t* pQueueFamilyPropertyCount,
                                                                   VkQueueFamilyProperties2* pQueueFamilyProperties) {
  FromHandle(physicalDevice)->GetQueueFamilyProperties2(pQueueFamilyPropertyCount, pQueueFamilyProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice physicalDevice,
                                                             VkPhysicalDeviceMemoryProperties* pMemoryProperties) {
  *pMemoryProperties = FromHandle(physicalDevice)->description().memory;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice physicalDevice,
                                                              VkPhysicalDeviceMemoryProperties2* pMemoryProperties) {
  FromHandle(physicalDevice)->GetMemoryProperties2(*pMemoryProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice, VkFormat format,
                                                             VkFormatProperties* pFormatProperties) {
  VkFormatProperties2 properties{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, nullptr, {}};
  FromHandle(physicalDevice)->GetFormatProperties2(format, properties);
  *pFormatProperties = properties.formatProperties;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                                              VkFormatProperties2* pFormatProperties) {
  FromHandle(physicalDevice)->GetFormatProperties2(format, *pFormatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice physicalDevice,
                                                                      VkFormat format, VkImageType type,
                                                                      VkImageTiling tiling, VkImageUsageFlags usage,
                                                                      VkImageCreateFlags flags,
                                                                      VkImageFormatProperties* pImageFormatProperties) {
  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, nullptr, format, type,
                                        tiling, usage, flags};
  VkImageFormatProperties2 properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, nullptr, {}};
  VkResult result = Guarded("vkGetPhysicalDeviceImageFormatProperties", [&] {
    return FromHandle(physicalDevice)->GetImageFormatProperties2(info, properties);
  });
  *pImageFormatProperties = properties.imageFormatProperties;
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2* pImageFormatInfo,
    VkImageFormatProperties2* pImageFormatProperties) {
  return Guarded("vkGetPhysicalDeviceImageFormatProperties2", [&] {
    return FromHandle(physicalDevice)->GetImageFormatProperties2(*pImageFormatInfo, *pImageFormatProperties);
  });
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType,
                                                                        VkSampleCountFlagBits, VkImageUsageFlags,
                                                                        VkImageTiling, uint32_t* pPropertyCount,
                                                                        VkSparseImageFormatProperties*) {
  // No sparse residency: "If ... not supported ... pPropertyCount will be set to zero".
  *pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties2(VkPhysicalDevice,
                                                                         const VkPhysicalDeviceSparseImageFormatInfo2*,
                                                                         uint32_t* pPropertyCount,
                                                                         VkSparseImageFormatProperties2*) {
  *pPropertyCount = 0;
}

// No external handle types are supported: every capability field is zero (Vulkan 1.3, "External Memory
// Capabilities": "If handleType is not compatible ... the implementation must zero ...").
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo*, VkExternalBufferProperties* pExternalBufferProperties) {
  pExternalBufferProperties->externalMemoryProperties = {};
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo*, VkExternalFenceProperties* pExternalFenceProperties) {
  pExternalFenceProperties->exportFromImportedHandleTypes = 0;
  pExternalFenceProperties->compatibleHandleTypes = 0;
  pExternalFenceProperties->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo*,
    VkExternalSemaphoreProperties* pExternalSemaphoreProperties) {
  pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
  pExternalSemaphoreProperties->compatibleHandleTypes = 0;
  pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceToolProperties(VkPhysicalDevice, uint32_t* pToolCount,
                                                               VkPhysicalDeviceToolProperties* pToolProperties) {
  // The driver itself is not a tool layer; layers above it append their own entries.
  return FillCountArray(pToolCount, pToolProperties, 0u, [](uint32_t, VkPhysicalDeviceToolProperties*) {});
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                  const char* pLayerName, uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
  if (pLayerName != nullptr)
    return ReportError(VK_ERROR_LAYER_NOT_PRESENT, "vkEnumerateDeviceExtensionProperties: no layer '%s'",
                       pLayerName);
  return FromHandle(physicalDevice)->EnumerateExtensions(pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pPropertyCount,
                                                              VkLayerProperties*) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  return Guarded("vkCreateDevice",
                 [&] { return Device::Create(*FromHandle(physicalDevice), *pCreateInfo, pAllocator, pDevice); });
}

}  // namespace crashtest::icd
