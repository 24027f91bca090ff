// The minimum of VK_KHR_device_fault (extension 574) the fault suite needs. Debian's 1.3.239 headers predate it,
// so the layout is declared here from the registry (offsets LP64, see /work/shared/spec/device-fault.md §4). The
// bench deliberately does not include crashtest's own compat header: it must stay a plain loader client.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace crashtest::bench {

inline constexpr const char* kDeviceFaultExtensionName = "VK_KHR_device_fault";
inline constexpr auto kStructurePhysicalDeviceFaultFeatures = static_cast<VkStructureType>(1000573000);
inline constexpr auto kStructureDeviceFaultInfo = static_cast<VkStructureType>(1000573002);

inline constexpr uint32_t kDeviceFaultFlagDeviceLost = 0x1;

struct PhysicalDeviceFaultFeatures {
  VkStructureType sType;
  void* pNext;
  VkBool32 deviceFault;
  VkBool32 deviceFaultVendorBinary;
  VkBool32 deviceFaultReportMasked;
  VkBool32 deviceFaultDeviceLostOnMasked;
};
static_assert(sizeof(PhysicalDeviceFaultFeatures) == 32);

struct DeviceFaultAddressInfo {
  int32_t addressType;
  VkDeviceAddress reportedAddress;
  VkDeviceSize addressPrecision;
};
static_assert(sizeof(DeviceFaultAddressInfo) == 24);

struct DeviceFaultVendorInfo {
  char description[256];
  uint64_t vendorFaultCode;
  uint64_t vendorFaultData;
};
static_assert(sizeof(DeviceFaultVendorInfo) == 272);

struct DeviceFaultInfo {
  VkStructureType sType;
  void* pNext;
  uint32_t flags;
  uint64_t groupId;
  char description[256];
  DeviceFaultAddressInfo faultAddressInfo;
  DeviceFaultAddressInfo instructionAddressInfo;
  DeviceFaultVendorInfo vendorInfo;
};
static_assert(sizeof(DeviceFaultInfo) == 608);
static_assert(offsetof(DeviceFaultInfo, groupId) == 24);
static_assert(offsetof(DeviceFaultInfo, description) == 32);
static_assert(offsetof(DeviceFaultInfo, faultAddressInfo) == 288);
static_assert(offsetof(DeviceFaultInfo, vendorInfo) == 336);

using PFN_GetDeviceFaultReports = VkResult(VKAPI_PTR*)(VkDevice device, uint64_t timeout, uint32_t* pFaultCounts,
                                                       DeviceFaultInfo* pFaultInfo);

// crashtest's runtime control API (DESIGN.md "Runtime control"): inject a fault described in the fault-plan JSON
// form. The name and signature are what the bench expects; until include/crashtest/crashtest.h publishes them
// the lookup returns NULL and the injection benchmarks report "unsupported:".
inline constexpr const char* kInjectFaultCommandName = "crashtestInjectFault";
using PFN_InjectFault = VkResult(VKAPI_PTR*)(VkDevice device, const char* fault_json);

}  // namespace crashtest::bench
