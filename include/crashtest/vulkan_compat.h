/* Definitions that Debian 12's Vulkan 1.3.239 headers lack or get wrong, for crashtest and its users.
 *
 * - VK_KHR_device_fault (extension 574, first in Vulkan-Headers 1.4.347): defined here when the installed headers
 *   do not define it. Types shared with VK_EXT_device_fault are aliases of the EXT types, as in newer headers.
 * - VkDeviceFaultVendorBinaryHeaderVersionOneKHR: the normative layout is 56 bytes, tightly packed. The 1.3.239
 *   VkDeviceFaultVendorBinaryHeaderVersionOneEXT has 9 members and 48 bytes (engineVersion and apiVersion missing;
 *   fixed in 1.3.247): never use sizeof of the EXT struct for the header.
 * - VK_ERROR_NOT_ENOUGH_SPACE_KHR (VK_KHR_pipeline_binary).
 *
 * Include after <vulkan/vulkan.h>. C and C++. */
#ifndef CRASHTEST_VULKAN_COMPAT_H
#define CRASHTEST_VULKAN_COMPAT_H

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef VK_KHR_pipeline_binary
#define VK_ERROR_NOT_ENOUGH_SPACE_KHR ((VkResult)-1000483000)
#endif

#ifndef VK_KHR_device_fault
#define VK_KHR_device_fault 1
#define VK_KHR_DEVICE_FAULT_SPEC_VERSION 1
#define VK_KHR_DEVICE_FAULT_EXTENSION_NAME "VK_KHR_device_fault"

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR ((VkStructureType)1000573000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_PROPERTIES_KHR ((VkStructureType)1000573001)
#define VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR ((VkStructureType)1000573002)
#define VK_STRUCTURE_TYPE_DEVICE_FAULT_DEBUG_INFO_KHR ((VkStructureType)1000573003)

typedef VkDeviceFaultAddressTypeEXT VkDeviceFaultAddressTypeKHR;
#define VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_KHR VK_DEVICE_FAULT_ADDRESS_TYPE_NONE_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_KHR VK_DEVICE_FAULT_ADDRESS_TYPE_EXECUTE_INVALID_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_KHR \
  VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_UNKNOWN_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_KHR \
  VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_INVALID_EXT
#define VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR \
  VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT

typedef VkDeviceFaultVendorBinaryHeaderVersionEXT VkDeviceFaultVendorBinaryHeaderVersionKHR;
#define VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_KHR VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_EXT

typedef enum VkDeviceFaultFlagBitsKHR {
  VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR = 0x00000001,
  VK_DEVICE_FAULT_FLAG_MEMORY_ADDRESS_BIT_KHR = 0x00000002,
  VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR = 0x00000004,
  VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR = 0x00000008,
  VK_DEVICE_FAULT_FLAG_WATCHDOG_TIMEOUT_BIT_KHR = 0x00000010,
  VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR = 0x00000020,
  VK_DEVICE_FAULT_FLAG_BITS_MAX_ENUM_KHR = 0x7FFFFFFF
} VkDeviceFaultFlagBitsKHR;
typedef VkFlags VkDeviceFaultFlagsKHR;

typedef VkDeviceFaultAddressInfoEXT VkDeviceFaultAddressInfoKHR;
typedef VkDeviceFaultVendorInfoEXT VkDeviceFaultVendorInfoKHR;

typedef struct VkPhysicalDeviceFaultFeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 deviceFault;
  VkBool32 deviceFaultVendorBinary;
  VkBool32 deviceFaultReportMasked;
  VkBool32 deviceFaultDeviceLostOnMasked;
} VkPhysicalDeviceFaultFeaturesKHR;

typedef struct VkPhysicalDeviceFaultPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t maxDeviceFaultCount;
} VkPhysicalDeviceFaultPropertiesKHR;

typedef struct VkDeviceFaultInfoKHR {
  VkStructureType sType;
  void* pNext;
  VkDeviceFaultFlagsKHR flags;
  uint64_t groupId;
  char description[VK_MAX_DESCRIPTION_SIZE];
  VkDeviceFaultAddressInfoKHR faultAddressInfo;
  VkDeviceFaultAddressInfoKHR instructionAddressInfo;
  VkDeviceFaultVendorInfoKHR vendorInfo;
} VkDeviceFaultInfoKHR;

typedef struct VkDeviceFaultDebugInfoKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t vendorBinarySize;
  void* pVendorBinaryData;
} VkDeviceFaultDebugInfoKHR;

/* The normative 56-byte header that begins every vendor binary (both extensions). */
typedef struct VkDeviceFaultVendorBinaryHeaderVersionOneKHR {
  uint32_t headerSize;
  VkDeviceFaultVendorBinaryHeaderVersionKHR headerVersion;
  uint32_t vendorID;
  uint32_t deviceID;
  uint32_t driverVersion;
  uint8_t pipelineCacheUUID[VK_UUID_SIZE];
  uint32_t applicationNameOffset;
  uint32_t applicationVersion;
  uint32_t engineNameOffset;
  uint32_t engineVersion;
  uint32_t apiVersion;
} VkDeviceFaultVendorBinaryHeaderVersionOneKHR;

typedef VkResult(VKAPI_PTR* PFN_vkGetDeviceFaultReportsKHR)(VkDevice device, uint64_t timeout, uint32_t* pFaultCounts,
                                                             VkDeviceFaultInfoKHR* pFaultInfo);
typedef VkResult(VKAPI_PTR* PFN_vkGetDeviceFaultDebugInfoKHR)(VkDevice device, VkDeviceFaultDebugInfoKHR* pDebugInfo);
#endif /* VK_KHR_device_fault */

#ifdef __cplusplus
}  // extern "C"

// Layouts from the extension's XML (LP64), checked so a wrong definition never ships.
static_assert(sizeof(VkPhysicalDeviceFaultFeaturesKHR) == 32, "VkPhysicalDeviceFaultFeaturesKHR layout");
static_assert(sizeof(VkPhysicalDeviceFaultPropertiesKHR) == 24, "VkPhysicalDeviceFaultPropertiesKHR layout");
static_assert(sizeof(VkDeviceFaultAddressInfoKHR) == 24, "VkDeviceFaultAddressInfoKHR layout");
static_assert(sizeof(VkDeviceFaultVendorInfoKHR) == 272, "VkDeviceFaultVendorInfoKHR layout");
static_assert(sizeof(VkDeviceFaultInfoKHR) == 608, "VkDeviceFaultInfoKHR layout");
static_assert(sizeof(VkDeviceFaultDebugInfoKHR) == 32, "VkDeviceFaultDebugInfoKHR layout");
static_assert(sizeof(VkDeviceFaultVendorBinaryHeaderVersionOneKHR) == 56, "vendor binary header is 56 bytes");
static_assert(sizeof(VkDeviceFaultCountsEXT) == 32, "VkDeviceFaultCountsEXT layout");
static_assert(sizeof(VkDeviceFaultInfoEXT) == 296, "VkDeviceFaultInfoEXT layout");
#endif

#endif /* CRASHTEST_VULKAN_COMPAT_H */
