// Thunks of the fault area: VK_KHR_device_fault and VK_EXT_device_fault retrieval (src/fault/fault_retrieval.h),
// and the hand-declared entry points vk.xml 1.3.239 lacks.
#include <crashtest/crashtest.h>

#include <cstring>
#include <iterator>
#include <optional>

#include "device/device.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "extra_entry_points.h"
#include "fault/fault_engine.h"
#include "fault/fault_retrieval.h"
#include "fault/plan_reader.h"
#include "profile/json_file.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultInfoEXT(VkDevice device, VkDeviceFaultCountsEXT* pFaultCounts,
                                                     VkDeviceFaultInfoEXT* pFaultInfo) {
  return Guarded("vkGetDeviceFaultInfoEXT",
                 [&] { return crashtest::GetDeviceFaultInfoEXT(FromHandle(device)->faults(), pFaultCounts, pFaultInfo); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultReportsKHR(VkDevice device, uint64_t timeout, uint32_t* pFaultCounts,
                                                        VkDeviceFaultInfoKHR* pFaultInfo) {
  return Guarded("vkGetDeviceFaultReportsKHR", [&] {
    return crashtest::GetDeviceFaultReports(FromHandle(device)->faults(), timeout, pFaultCounts, pFaultInfo);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceFaultDebugInfoKHR(VkDevice device, VkDeviceFaultDebugInfoKHR* pDebugInfo) {
  return Guarded("vkGetDeviceFaultDebugInfoKHR",
                 [&] { return crashtest::GetDeviceFaultDebugInfo(FromHandle(device)->faults(), pDebugInfo); });
}

// --- Runtime control (include/crashtest/crashtest.h) -----------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CrashtestInjectFault(VkDevice device, const char* faultJson) {
  return Guarded(CRASHTEST_INJECT_FAULT_NAME, [&]() -> VkResult {
    FaultEngine& engine = FromHandle(device)->faults();
    Diagnostics diagnostics;
    ReadContext ctx{CRASHTEST_INJECT_FAULT_NAME, false, &diagnostics};
    PlannedFault fault;
    bool hasTrigger = false;
    // The configuration's bounds and checks: nesting depth, repeated members, NULs, queues the device has.
    const std::optional<Json> parsed = ParseJsonText(faultJson != nullptr ? faultJson : "", ctx);
    DeviceQueueCounts queues;
    for (const VkQueueFamilyProperties& family : FromHandle(device)->physicalDevice().description().queueFamilies)
      queues.push_back(family.queueCount);
    if (!parsed) {
      // ParseJsonText said where the text stops being JSON.
    } else if (!parsed->is_object()) {
      ctx.Error("fault", "expected a fault object {\"id\": ..., \"effect\": ...}, got " + DescribeJson(*parsed));
    } else {
      ReadInjectedFault(ctx, *parsed, fault, &hasTrigger, &queues);
    }
    if (diagnostics.HasErrors()) {
      diagnostics.Log();
      return ReportError(VK_ERROR_INITIALIZATION_FAILED, "%s: the fault description is not valid (see above)",
                         CRASHTEST_INJECT_FAULT_NAME);
    }
    if (engine.lost()) return VK_ERROR_DEVICE_LOST;
    if (hasTrigger) {
      engine.Arm(std::move(fault));
      return VK_SUCCESS;
    }
    return engine.Inject(fault, "through crashtestInjectFault");
  });
}

VKAPI_ATTR uint64_t VKAPI_CALL CrashtestGetFiredFaultCount(VkDevice device) {
  return FromHandle(device)->faults().firedCount();
}

namespace {

const ExtraEntryPoint kExtraDeviceEntryPoints[] = {
    {CRASHTEST_GET_FIRED_FAULT_COUNT_NAME, reinterpret_cast<PFN_vkVoidFunction>(&CrashtestGetFiredFaultCount),
     nullptr},
    {CRASHTEST_INJECT_FAULT_NAME, reinterpret_cast<PFN_vkVoidFunction>(&CrashtestInjectFault), nullptr},
    {"vkGetDeviceFaultDebugInfoKHR", reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceFaultDebugInfoKHR),
     VK_KHR_DEVICE_FAULT_EXTENSION_NAME},
    {"vkGetDeviceFaultReportsKHR", reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceFaultReportsKHR),
     VK_KHR_DEVICE_FAULT_EXTENSION_NAME},
};

}  // namespace

const ExtraEntryPoint* FindExtraDeviceEntryPoint(const char* name) {
  if (name == nullptr) return nullptr;
  for (const ExtraEntryPoint& e : kExtraDeviceEntryPoints)
    if (std::strcmp(e.name, name) == 0) return &e;
  return nullptr;
}

}  // namespace crashtest::icd
