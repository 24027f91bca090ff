// Device-level commands the installed vk.xml (1.3.239) does not know, so the generated table cannot hold them:
// VK_KHR_device_fault's two commands and crashtest's runtime control API (include/crashtest/crashtest.h).
// vkGetDeviceProcAddr consults this list after the generated table.
#pragma once

#include <crashtest/vulkan_compat.h>

namespace crashtest::icd {

struct ExtraEntryPoint {
  const char* name;
  PFN_vkVoidFunction function;
  const char* extension;  // the device extension that must be enabled; nullptr: always returned
};

// The hand-declared device-level commands (a short list, searched linearly).
const ExtraEntryPoint* FindExtraDeviceEntryPoint(const char* name);

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultReportsKHR(VkDevice device, uint64_t timeout, uint32_t* pFaultCounts,
                                                        VkDeviceFaultInfoKHR* pFaultInfo);
VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultDebugInfoKHR(VkDevice device, VkDeviceFaultDebugInfoKHR* pDebugInfo);

}  // namespace crashtest::icd
