// Global and instance-level commands.
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "common/api_coverage.h"
#include "common/count_array.h"
#include "common/result.h"
#include "device/debug_messenger.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(uint32_t* pApiVersion) {
  *pApiVersion = kCompleteInstanceApiVersion | VK_HEADER_VERSION;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char* pLayerName, uint32_t* pPropertyCount,
                                                                    VkExtensionProperties* pProperties) {
  if (pLayerName != nullptr)
    return ReportError(VK_ERROR_LAYER_NOT_PRESENT, "vkEnumerateInstanceExtensionProperties: no layer '%s'",
                       pLayerName);
  std::span<const VkExtensionProperties> extensions = InstanceExtensions();
  return FillCountArray(pPropertyCount, pProperties, static_cast<uint32_t>(extensions.size()),
                        [&](uint32_t i, VkExtensionProperties* out) { *out = extensions[i]; });
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceLayerProperties(uint32_t* pPropertyCount, VkLayerProperties*) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
  return Guarded("vkCreateInstance", [&] {
    // "...to capture events that occur while creating or destroying an instance an application can link a
    // VkDebugUtilsMessengerCreateInfoEXT structure to the pNext chain of the VkInstanceCreateInfo" (VK_EXT_debug_utils):
    // such messengers hear this call's messages, e.g. what is wrong with the configuration.
    std::vector<std::unique_ptr<DebugMessenger>> creationMessengers;
    for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s != nullptr; s = s->pNext)
      if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
        creationMessengers.push_back(
            std::make_unique<DebugMessenger>(*reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s)));
    return Instance::Create(pCreateInfo, pAllocator, pInstance);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks*) {
  if (instance == VK_NULL_HANDLE) return;
  GuardedVoid("vkDestroyInstance", [&] { FromHandle(instance)->Destroy(); });
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance instance, uint32_t* pPhysicalDeviceCount,
                                                        VkPhysicalDevice* pPhysicalDevices) {
  std::span<PhysicalDevice* const> devices = FromHandle(instance)->physicalDevices();
  return FillCountArray(pPhysicalDeviceCount, pPhysicalDevices, static_cast<uint32_t>(devices.size()),
                        [&](uint32_t i, VkPhysicalDevice* out) { *out = ToHandle(devices[i]); });
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceGroups(
    VkInstance instance, uint32_t* pPhysicalDeviceGroupCount,
    VkPhysicalDeviceGroupProperties* pPhysicalDeviceGroupProperties) {
  // Each emulated device is a group of its own, in configuration order.
  std::span<PhysicalDevice* const> devices = FromHandle(instance)->physicalDevices();
  return FillCountArray(pPhysicalDeviceGroupCount, pPhysicalDeviceGroupProperties,
                        static_cast<uint32_t>(devices.size()), [&](uint32_t i, VkPhysicalDeviceGroupProperties* out) {
                          out->physicalDeviceCount = 1;
                          std::memset(out->physicalDevices, 0, sizeof(out->physicalDevices));
                          out->physicalDevices[0] = ToHandle(devices[i]);
                          out->subsetAllocation = VK_FALSE;
                        });
}

}  // namespace crashtest::icd
