#include "device/device_description.h"

#include <cstring>

namespace crashtest {

const StructBlob* DeviceDescription::FindProperties(VkStructureType sType) const {
  auto it = extendedProperties.find(sType);
  return it == extendedProperties.end() ? nullptr : &it->second;
}

const StructBlob* DeviceDescription::FindFeatures(VkStructureType sType) const {
  auto it = extendedFeatures.find(sType);
  return it == extendedFeatures.end() ? nullptr : &it->second;
}

bool DeviceDescription::HasExtension(const char* name) const { return ExtensionSpecVersion(name) != 0; }

uint32_t DeviceDescription::ExtensionSpecVersion(const char* name) const {
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return e.specVersion;
  return 0;
}

}  // namespace crashtest
