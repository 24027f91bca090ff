#include "device/driver_capabilities.h"

#include <algorithm>
#include <cstring>

#include "common/api_coverage.h"
#include "format/driver_format_support.h"

namespace crashtest {
namespace {

// Device extensions crashtest implements completely. Grows as issues land; each entry must work end to end.
constexpr VkExtensionProperties kDeviceExtensions[] = {
    {VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME, VK_KHR_DRIVER_PROPERTIES_SPEC_VERSION},
};

// Instance extensions crashtest implements completely.
constexpr VkExtensionProperties kInstanceExtensions[] = {
    {VK_KHR_DEVICE_GROUP_CREATION_EXTENSION_NAME, VK_KHR_DEVICE_GROUP_CREATION_SPEC_VERSION},
    {VK_KHR_EXTERNAL_FENCE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_SPEC_VERSION},
    {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_SPEC_VERSION},
};

// Feature members crashtest honours. Empty until the [work] and [compiler] issues implement them.
constexpr std::string_view kFeatures[] = {
    "VkPhysicalDeviceFeatures.fullDrawIndexUint32",
};

}  // namespace

bool DriverCapabilities::ImplementsExtension(std::string_view name, uint32_t* specVersion) const {
  for (const VkExtensionProperties& e : deviceExtensions) {
    if (name == e.extensionName) {
      if (specVersion != nullptr) *specVersion = e.specVersion;
      return true;
    }
  }
  return false;
}

bool DriverCapabilities::ImplementsFeature(std::string_view structName, std::string_view member) const {
  return std::any_of(features.begin(), features.end(), [&](std::string_view f) {
    return f.size() == structName.size() + 1 + member.size() && f.substr(0, structName.size()) == structName &&
           f[structName.size()] == '.' && f.substr(structName.size() + 1) == member;
  });
}

FormatSupport DriverCapabilities::FormatFeatures(VkFormat format) const { return DriverFormatSupport(format); }

const DriverCapabilities& Driver() {
  static const DriverCapabilities capabilities{kCompleteDeviceApiVersion, kDeviceExtensions, kInstanceExtensions,
                                                     kFeatures};
  return capabilities;
}

}  // namespace crashtest
