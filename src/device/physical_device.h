// VkPhysicalDevice: one emulated GPU, answering every query from its DeviceDescription.
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/object.h"
#include "device/device_description.h"

namespace crashtest {

CT_DEFINE_HANDLE(PhysicalDevice, VkPhysicalDevice, VK_OBJECT_TYPE_PHYSICAL_DEVICE);
class Instance;

class PhysicalDevice : public DispatchableObject {
 public:
  PhysicalDevice(Instance& instance, DeviceDescription description, uint32_t index);

  Instance& instance() const { return instance_; }
  const DeviceDescription& description() const { return description_; }
  // Position in the configuration's device list.
  uint32_t index() const { return index_; }
  uint32_t apiVersion() const { return description_.properties.apiVersion; }

  void GetProperties2(VkPhysicalDeviceProperties2& properties) const;
  void GetFeatures2(VkPhysicalDeviceFeatures2& features) const;
  VkResult GetQueueFamilyProperties(uint32_t* count, VkQueueFamilyProperties* properties) const;
  VkResult GetQueueFamilyProperties2(uint32_t* count, VkQueueFamilyProperties2* properties) const;
  void GetMemoryProperties2(VkPhysicalDeviceMemoryProperties2& properties) const;
  void GetFormatProperties2(VkFormat format, VkFormatProperties2& properties) const;
  VkResult GetImageFormatProperties2(const VkPhysicalDeviceImageFormatInfo2& info,
                                     VkImageFormatProperties2& properties) const;
  VkResult EnumerateExtensions(uint32_t* count, VkExtensionProperties* properties) const;

 private:
  Instance& instance_;
  DeviceDescription description_;
  uint32_t index_;
};

}  // namespace crashtest
