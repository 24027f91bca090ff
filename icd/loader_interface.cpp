// The three functions the loader looks up by name (Loader-ICD interface, "ICD Vulkan Entry Point Discovery"),
// and the proc-address commands. These are the only symbols the library exports (icd/crashtest.map).
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include "device/device.h"
#include "device/instance.h"
#include "entry_points.h"
#include "proc_addr.h"

namespace {

// Interface 7 adds nothing an ICD must implement beyond 6 except that the loader may call
// vk_icdGetInstanceProcAddr-exported functions directly; 5 makes apiVersion handling the driver's job; 4 adds
// vk_icdGetPhysicalDeviceProcAddr.
constexpr uint32_t kHighestLoaderInterfaceVersion = 7;
constexpr uint32_t kLowestLoaderInterfaceVersion = 5;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* pSupportedVersion) {
  if (pSupportedVersion == nullptr) return VK_ERROR_INCOMPATIBLE_DRIVER;
  // "If the loader's version is lower than the ICD's lowest supported version, return
  // VK_ERROR_INCOMPATIBLE_DRIVER"; otherwise write min(loader, ICD) and succeed.
  if (*pSupportedVersion < kLowestLoaderInterfaceVersion) return VK_ERROR_INCOMPATIBLE_DRIVER;
  if (*pSupportedVersion > kHighestLoaderInterfaceVersion) *pSupportedVersion = kHighestLoaderInterfaceVersion;
  return VK_SUCCESS;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return crashtest::icd::GetInstanceProcAddr(instance, pName);
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char* pName) {
  return crashtest::icd::LookupPhysicalDeviceProcAddr(crashtest::FromHandle(instance), pName);
}

}  // extern "C"

namespace crashtest::icd {

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName) {
  if (pName != nullptr) {
    // The loader may also look the three interface functions up through vkGetInstanceProcAddr.
    std::string_view name(pName);
    if (name == "vk_icdNegotiateLoaderICDInterfaceVersion")
      return reinterpret_cast<PFN_vkVoidFunction>(&vk_icdNegotiateLoaderICDInterfaceVersion);
    if (name == "vk_icdGetInstanceProcAddr")
      return reinterpret_cast<PFN_vkVoidFunction>(&vk_icdGetInstanceProcAddr);
    if (name == "vk_icdGetPhysicalDeviceProcAddr")
      return reinterpret_cast<PFN_vkVoidFunction>(&vk_icdGetPhysicalDeviceProcAddr);
  }
  return LookupInstanceProcAddr(FromHandle(instance), pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName) {
  if (device == VK_NULL_HANDLE) return nullptr;
  return LookupDeviceProcAddr(*FromHandle(device), pName);
}

}  // namespace crashtest::icd
