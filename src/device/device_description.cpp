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

const char* StatisticDialectName(StatisticDialect dialect) {
  switch (dialect) {
    case StatisticDialect::Crashtest: return "crashtest";
    case StatisticDialect::Radv: return "radv";
    case StatisticDialect::Nvidia: return "nvidia";
    case StatisticDialect::Anv: return "anv";
  }
  return "crashtest";
}

bool ParseStatisticDialect(std::string_view name, StatisticDialect* out) {
  for (StatisticDialect d : {StatisticDialect::Crashtest, StatisticDialect::Radv, StatisticDialect::Nvidia,
                             StatisticDialect::Anv})
    if (name == StatisticDialectName(d)) {
      *out = d;
      return true;
    }
  return false;
}

}  // namespace crashtest
