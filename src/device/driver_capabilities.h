// What the crashtest driver itself implements, independent of any profile. A profile is intersected with this
// so that nothing is advertised that would fail the app later ("advertise only what works").
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <string_view>

#include "device/device_description.h"

namespace crashtest {

struct DriverCapabilities {
  // Highest core version whose every device-level command is implemented (generated from the entry-point list).
  uint32_t maxDeviceApiVersion;
  // Device extensions crashtest implements, with the spec version it implements.
  std::span<const VkExtensionProperties> deviceExtensions;
  // Instance extensions crashtest implements (vkEnumerateInstanceExtensionProperties).
  std::span<const VkExtensionProperties> instanceExtensions;
  // Feature members crashtest honours when enabled, as "StructName.member" (e.g.
  // "VkPhysicalDeviceVulkan12Features.timelineSemaphore"). Listed under one name only: the profile intersection
  // also asks for the synonym in the Vulkan11/12/13 aggregate struct (e.g. for
  // VkPhysicalDeviceTimelineSemaphoreFeatures.timelineSemaphore it asks VkPhysicalDeviceVulkan12Features too).
  std::span<const std::string_view> features;

  bool ImplementsExtension(std::string_view name, uint32_t* specVersion = nullptr) const;
  bool ImplementsFeature(std::string_view structName, std::string_view member) const;
  // The format feature bits crashtest can honour for a format (the profile's bits are masked with these).
  FormatSupport FormatFeatures(VkFormat format) const;
};

const DriverCapabilities& Driver();

}  // namespace crashtest
