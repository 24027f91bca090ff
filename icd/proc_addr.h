// Name lookup for vkGetInstanceProcAddr, vkGetDeviceProcAddr and vk_icdGetPhysicalDeviceProcAddr, following the
// spec's tables (vkGetInstanceProcAddr / vkGetDeviceProcAddr "Valid Usage" and return-value tables).
#pragma once

#include <vulkan/vulkan.h>

namespace crashtest {
class Instance;
class Device;
}  // namespace crashtest

namespace crashtest::icd {

PFN_vkVoidFunction LookupInstanceProcAddr(const Instance* instance, const char* name);
PFN_vkVoidFunction LookupDeviceProcAddr(const Device& device, const char* name);
PFN_vkVoidFunction LookupPhysicalDeviceProcAddr(const Instance* instance, const char* name);

}  // namespace crashtest::icd
