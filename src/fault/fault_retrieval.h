// The three retrieval commands of VK_KHR_device_fault and VK_EXT_device_fault, on a device's FaultEngine
// (the icd/ thunks only look up the engine). Rules: ../shared/spec/device-fault.md sections 6, 7 and 9, and
// docs/faults.md.
#pragma once

#include <crashtest/vulkan_compat.h>

namespace crashtest {

class FaultEngine;

// vkGetDeviceFaultReportsKHR: callable any time; blocks up to `timeout` ns for a report; count query consumes
// nothing; VK_INCOMPLETE keeps the rest queued; VK_TIMEOUT when nothing arrived.
VkResult GetDeviceFaultReports(FaultEngine& engine, uint64_t timeout, uint32_t* pFaultCounts,
                               VkDeviceFaultInfoKHR* pFaultInfo);

// vkGetDeviceFaultDebugInfoKHR: the loss's vendor binary (size query with pVendorBinaryData == NULL; identical
// bytes on every call; a too-small buffer gets min(size, total) bytes when the 56-byte header fits, else none and
// size 0, and VK_INCOMPLETE).
VkResult GetDeviceFaultDebugInfo(const FaultEngine& engine, VkDeviceFaultDebugInfoKHR* pDebugInfo);

// vkGetDeviceFaultInfoEXT: counts protocol over the loss snapshot; VK_SUCCESS with zero counts on a healthy device.
VkResult GetDeviceFaultInfoEXT(const FaultEngine& engine, VkDeviceFaultCountsEXT* pFaultCounts,
                               VkDeviceFaultInfoEXT* pFaultInfo);

}  // namespace crashtest
