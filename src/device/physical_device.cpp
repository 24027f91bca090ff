#include "device/physical_device.h"

#include <cstring>

#include "common/count_array.h"
#include "common/pnext.h"
#include "common/struct_types.h"
#include "fault/fault_engine.h"
#include "format/image_format_properties.h"
#include "memory/memory_budget.h"

namespace crashtest {

PhysicalDevice::PhysicalDevice(Instance& instance, DeviceDescription description, uint32_t index)
    : DispatchableObject(VK_OBJECT_TYPE_PHYSICAL_DEVICE),
      instance_(instance),
      description_(std::move(description)),
      index_(index) {}

namespace {

// Fills every struct of an output chain that the description has a blob for; structs it has none for (those of
// extensions the device does not advertise, which the app must not chain) are left untouched.
void FillChainFromBlobs(void* pNext, const std::map<VkStructureType, StructBlob>& blobs) {
  ForEachInOutChain(pNext, [&](VkBaseOutStructure* out) {
    auto it = blobs.find(out->sType);
    if (it != blobs.end()) FillKeepingHeader(out, it->second.data(), it->second.bytes.size());
  });
}

}  // namespace

// VK_KHR_device_fault's structs are not in the 1.3.239 registry, so the profile's struct tables cannot hold
// them: answered here with the fault engine's capabilities (it implements every feature).
static void FillDeviceFaultProperties(void* pNext, uint32_t maxDeviceFaultCount) {
  ForEachInOutChain(pNext, [maxDeviceFaultCount](VkBaseOutStructure* out) {
    if (out->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_PROPERTIES_KHR) return;
    // maxDeviceFaultCount: "limittype max", required >= 1; the size of the report ring.
    reinterpret_cast<VkPhysicalDeviceFaultPropertiesKHR*>(out)->maxDeviceFaultCount = maxDeviceFaultCount;
  });
}

static void FillDeviceFaultFeatures(void* pNext) {
  ForEachInOutChain(pNext, [](VkBaseOutStructure* out) {
    if (out->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR) return;
    auto* f = reinterpret_cast<VkPhysicalDeviceFaultFeaturesKHR*>(out);
    f->deviceFault = VK_TRUE;
    f->deviceFaultVendorBinary = VK_TRUE;
    f->deviceFaultReportMasked = VK_TRUE;
    f->deviceFaultDeviceLostOnMasked = VK_TRUE;
  });
}

void PhysicalDevice::GetProperties2(VkPhysicalDeviceProperties2& properties) const {
  properties.properties = description_.properties;
  FillChainFromBlobs(properties.pNext, description_.extendedProperties);
  if (description_.HasExtension(VK_KHR_DEVICE_FAULT_EXTENSION_NAME))
    FillDeviceFaultProperties(properties.pNext, description_.maxDeviceFaultCount);
}

void PhysicalDevice::GetFeatures2(VkPhysicalDeviceFeatures2& features) const {
  features.features = description_.features;
  FillChainFromBlobs(features.pNext, description_.extendedFeatures);
  // Only on devices that offer it ("crashtest": {"exactExtensions": true} may leave it out).
  if (description_.HasExtension(VK_KHR_DEVICE_FAULT_EXTENSION_NAME)) FillDeviceFaultFeatures(features.pNext);
}

VkResult PhysicalDevice::GetQueueFamilyProperties(uint32_t* count, VkQueueFamilyProperties* properties) const {
  const auto& families = description_.queueFamilies;
  return FillCountArray(count, properties, static_cast<uint32_t>(families.size()),
                        [&](uint32_t i, VkQueueFamilyProperties* out) { *out = families[i]; });
}

VkResult PhysicalDevice::GetQueueFamilyProperties2(uint32_t* count, VkQueueFamilyProperties2* properties) const {
  const auto& families = description_.queueFamilies;
  return FillCountArray(count, properties, static_cast<uint32_t>(families.size()),
                        [&](uint32_t i, VkQueueFamilyProperties2* out) {
                          out->queueFamilyProperties = families[i];
                          // Chained queue-family structs (global priority, checkpoints, video) belong to
                          // extensions crashtest does not advertise yet: left as the app gave them.
                        });
}

void PhysicalDevice::GetMemoryProperties2(VkPhysicalDeviceMemoryProperties2& properties) const {
  properties.memoryProperties = description_.memory;
  // Only when the device advertises VK_EXT_memory_budget: otherwise the app must not chain the struct.
  if (description_.HasExtension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME))
    if (auto* budget = FindInOutChain<VkPhysicalDeviceMemoryBudgetPropertiesEXT>(properties.pNext))
      FillMemoryBudget(*this, *budget);
}

void PhysicalDevice::GetFormatProperties2(VkFormat format, VkFormatProperties2& properties) const {
  crashtest::GetFormatProperties2(description_, format, &properties);
}

VkResult PhysicalDevice::GetImageFormatProperties2(const VkPhysicalDeviceImageFormatInfo2& info,
                                                   VkImageFormatProperties2& properties) const {
  return GetImageFormatProperties(description_, info, &properties);
}

VkResult PhysicalDevice::EnumerateExtensions(uint32_t* count, VkExtensionProperties* properties) const {
  const auto& extensions = description_.extensions;
  return FillCountArray(count, properties, static_cast<uint32_t>(extensions.size()),
                        [&](uint32_t i, VkExtensionProperties* out) { *out = extensions[i]; });
}

}  // namespace crashtest
