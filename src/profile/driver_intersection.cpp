#include "profile/driver_intersection.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "crashtest/vulkan_compat.h"
#include "profile/description_access.h"
#include "profile/extension_requirements_types.h"
#include "profile/feature_rules.h"
#include "profile/format_rules.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

std::string NotImplemented() { return std::string("not implemented by crashtest ") + CRASHTEST_VERSION; }

std::string VersionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + '.' + std::to_string(VK_API_VERSION_MINOR(v)) + '.' +
         std::to_string(VK_API_VERSION_PATCH(v));
}

void IntersectApiVersion(DeviceDescription& d, const DriverCapabilities& driver) {
  const uint32_t profile = d.properties.apiVersion;
  const uint32_t mine = driver.maxDeviceApiVersion;
  const uint32_t profileMinor = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(profile), VK_API_VERSION_MINOR(profile), 0);
  const uint32_t driverMinor = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(mine), VK_API_VERSION_MINOR(mine), 0);
  if (profileMinor <= driverMinor) return;
  d.properties.apiVersion = mine;
  d.dropped.push_back({"apiVersion " + VersionText(profile) + " (reporting " + VersionText(mine) + ")",
                       "crashtest implements the device commands and required features of Vulkan " +
                           std::to_string(VK_API_VERSION_MAJOR(mine)) + '.' + std::to_string(VK_API_VERSION_MINOR(mine)) +
                           " (docs/devices.md)"});
}

void IntersectExtensions(DeviceDescription& d, const DriverCapabilities& driver) {
  std::vector<VkExtensionProperties> kept;
  for (VkExtensionProperties e : d.extensions) {
    uint32_t spec = 0;
    if (!driver.ImplementsExtension(e.extensionName, &spec)) {
      d.dropped.push_back({std::string("extension ") + e.extensionName, NotImplemented()});
      continue;
    }
    e.specVersion = std::min(e.specVersion, spec);
    kept.push_back(e);
  }
  d.extensions = std::move(kept);
}

// An extension is advertised only with everything vk.xml says it requires: its core version, and each required
// extension either advertised too (instance extensions: implemented by the driver) or promoted into the device's
// core version. Dropping one may unmeet another, so this repeats until nothing changes.
void DropExtensionsWithUnmetRequirements(DeviceDescription& d, const DriverCapabilities& driver) {
  const uint32_t version = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(d.properties.apiVersion),
                                               VK_API_VERSION_MINOR(d.properties.apiVersion), 0);
  auto met = [&](std::string_view required) {
    const ExtensionRequirements* r = FindExtensionRequirements(required);
    if (r != nullptr && r->promotedTo != 0 && r->promotedTo <= version) return true;
    if (r != nullptr && !r->device)
      return std::any_of(driver.instanceExtensions.begin(), driver.instanceExtensions.end(),
                         [&](const VkExtensionProperties& e) { return required == e.extensionName; });
    return std::any_of(d.extensions.begin(), d.extensions.end(),
                       [&](const VkExtensionProperties& e) { return required == e.extensionName; });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = d.extensions.begin(); it != d.extensions.end(); ++it) {
      const ExtensionRequirements* r = FindExtensionRequirements(it->extensionName);
      if (r == nullptr) continue;
      std::string unmet;
      if (r->requiresCore > version) unmet = "Vulkan " + VersionText(r->requiresCore);
      for (std::string_view required : r->requiredExtensions)
        if (unmet.empty() && !required.empty() && !met(required)) unmet = std::string(required);
      if (unmet.empty()) continue;
      d.dropped.push_back({std::string("extension ") + it->extensionName, "requires " + unmet + ", not advertised"});
      d.extensions.erase(it);
      changed = true;
      break;
    }
  }
}

// Structs nothing provides any more (their extension was dropped and the apiVersion does not include them) go:
// an application may not chain them, so they must not hold stale values.
void DropUnprovidedStructs(DeviceDescription& d, const DriverCapabilities& driver,
                           std::map<VkStructureType, StructBlob>& blobs) {
  for (auto it = blobs.begin(); it != blobs.end();) {
    const StructInfo* info = FindStruct(it->first);
    // Structs of instance extensions the driver implements (e.g. VkPhysicalDeviceIDProperties through
    // VK_KHR_external_memory_capabilities) stay: the app may chain them on any device once it enables those.
    if (info != nullptr && !info->ProvidedBy(d.properties.apiVersion, d.extensions) &&
        !info->ProvidedBy(0, driver.instanceExtensions)) {
      d.dropped.push_back({"struct " + std::string(info->name), "its extension or core version is not advertised"});
      it = blobs.erase(it);
    } else {
      ++it;
    }
  }
}

bool Implemented(const DriverCapabilities& driver, const StructInfo& s, const MemberInfo& m) {
  if (driver.ImplementsFeature(s.name, m.name)) return true;
  // The driver lists each feature under one name; the synonym in the VulkanXY aggregate (or the individual
  // struct) counts as the same feature.
  for (const MemberLinkInfo* link : MemberLinksOf(s)) {
    if (link->individualMember == &m && driver.ImplementsFeature(link->aggregate->name, link->aggregateMember->name))
      return true;
    if (link->aggregateMember == &m && driver.ImplementsFeature(link->individual->name, link->individualMember->name))
      return true;
  }
  return false;
}

void IntersectFeatureStruct(DeviceDescription& d, const DriverCapabilities& driver, const StructInfo& s,
                            std::byte* bytes) {
  for (const MemberInfo& m : s.members) {
    if (m.kind != MemberKind::Bool32 || m.arrayLength != 0) continue;
    VkBool32 value;
    std::memcpy(&value, bytes + m.offset, sizeof(value));
    if (value == VK_FALSE || Implemented(driver, s, m)) continue;
    value = VK_FALSE;
    std::memcpy(bytes + m.offset, &value, sizeof(value));
    d.dropped.push_back({"feature " + std::string(s.name) + '.' + std::string(m.name), NotImplemented()});
  }
}

void IntersectFeatures(DeviceDescription& d, const DriverCapabilities& driver) {
  IntersectFeatureStruct(d, driver, *FindStruct("VkPhysicalDeviceFeatures"), reinterpret_cast<std::byte*>(&d.features));
  for (auto& [sType, blob] : d.extendedFeatures)
    if (const StructInfo* s = FindStruct(sType)) IntersectFeatureStruct(d, driver, *s, blob.bytes.data());
}

// Vulkan 1.3, "Required Limits": a limit tied to a feature the device does not support must report the table's
// "Unsupported Limit" value. A profile's limits describe the real device, whose features the intersection may
// have cleared; the limits follow, e.g. without largePoints "pointSizeRange" is (1.0, 1.0) and
// "pointSizeGranularity" 0.0 (one size, so no increment between sizes).
void ApplyUnsupportedLimits(DeviceDescription& d) {
  VkPhysicalDeviceLimits& limits = d.properties.limits;
  const auto note = [&](const char* what, const char* feature) {
    d.dropped.push_back({std::string("limits ") + what + " (the spec's values without " + feature + ")",
                         std::string(feature) + " is not supported"});
  };
  if (d.features.largePoints == VK_FALSE &&
      (limits.pointSizeRange[0] != 1.0f || limits.pointSizeRange[1] != 1.0f || limits.pointSizeGranularity != 0.0f)) {
    limits.pointSizeRange[0] = limits.pointSizeRange[1] = 1.0f;
    limits.pointSizeGranularity = 0.0f;
    note("pointSizeRange, pointSizeGranularity", "largePoints");
  }
  if (d.features.wideLines == VK_FALSE &&
      (limits.lineWidthRange[0] != 1.0f || limits.lineWidthRange[1] != 1.0f || limits.lineWidthGranularity != 0.0f)) {
    limits.lineWidthRange[0] = limits.lineWidthRange[1] = 1.0f;
    limits.lineWidthGranularity = 0.0f;
    note("lineWidthRange, lineWidthGranularity", "wideLines");
  }
  if (d.features.samplerAnisotropy == VK_FALSE && limits.maxSamplerAnisotropy != 1.0f) {
    limits.maxSamplerAnisotropy = 1.0f;
    note("maxSamplerAnisotropy", "samplerAnisotropy");
  }
  if (d.features.multiViewport == VK_FALSE && limits.maxViewports != 1) {
    limits.maxViewports = 1;
    note("maxViewports", "multiViewport");
  }
  if (d.features.dualSrcBlend == VK_FALSE && limits.maxFragmentDualSrcAttachments != 0) {
    limits.maxFragmentDualSrcAttachments = 0;
    note("maxFragmentDualSrcAttachments", "dualSrcBlend");
  }
}

// VK_KHR_shader_float_controls (core in 1.2): the interpreter computes in IEEE binary16/32/64 on the host, rounding
// to nearest even, keeping denormals, signed zeros, infinities and NaNs (never -ffast-math; half floats round once
// from float, which is exact for +, -, *, / and sqrt). It has no flush-to-zero and no round-toward-zero mode, so a
// profile's shaderDenormFlushToZero* and shaderRoundingModeRTZ* go, in the extension's struct and in the 1.2
// aggregate alike; what the profile says of the other members is kept (a device may promise less than we do).
void ApplyFloatControls(DeviceDescription& d) {
  static constexpr std::string_view kUnsupported[] = {
      "shaderDenormFlushToZeroFloat16", "shaderDenormFlushToZeroFloat32", "shaderDenormFlushToZeroFloat64",
      "shaderRoundingModeRTZFloat16",   "shaderRoundingModeRTZFloat32",   "shaderRoundingModeRTZFloat64"};
  for (auto& [sType, blob] : d.extendedProperties) {
    if (sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES &&
        sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES)
      continue;
    const StructInfo* info = FindStruct(sType);
    if (info == nullptr) continue;
    for (const MemberInfo& m : info->members) {
      if (m.kind != MemberKind::Bool32 ||
          std::find(std::begin(kUnsupported), std::end(kUnsupported), m.name) == std::end(kUnsupported))
        continue;
      VkBool32 value;
      std::memcpy(&value, blob.bytes.data() + m.offset, sizeof value);
      if (value == VK_FALSE) continue;
      value = VK_FALSE;
      std::memcpy(blob.bytes.data() + m.offset, &value, sizeof value);
      d.dropped.push_back({"property " + std::string(info->name) + '.' + std::string(m.name),
                           "the interpreter has no flush-to-zero or round-toward-zero mode (docs/execution.md)"});
    }
  }
}

void IntersectFormats(DeviceDescription& d, const DriverCapabilities& driver) {
  for (auto& [format, support] : d.formats) {
    const FormatSupport mine = driver.FormatFeatures(format);
    const FormatSupport masked{support.linearTilingFeatures & mine.linearTilingFeatures,
                               support.optimalTilingFeatures & mine.optimalTilingFeatures,
                               support.bufferFeatures & mine.bufferFeatures};
    if (masked.linearTilingFeatures != support.linearTilingFeatures ||
        masked.optimalTilingFeatures != support.optimalTilingFeatures ||
        masked.bufferFeatures != support.bufferFeatures) {
      std::string_view name = EnumValueName("VkFormat", format);
      d.dropped.push_back({"format features of " + (name.empty() ? std::to_string(format) : std::string(name)),
                           "not implemented by crashtest " CRASHTEST_VERSION " for this format"});
    }
    support = masked;
  }
}

void IntersectQueueFlags(DeviceDescription& d) {
  // Sparse binding, protected memory, video (decode 0x20, encode 0x40) and optical flow (0x100) queues need
  // engines crashtest does not have. Written as values: encode is a provisional extension the headers hide.
  constexpr VkQueueFlags kUnsupported = VK_QUEUE_SPARSE_BINDING_BIT | VK_QUEUE_PROTECTED_BIT | 0x20u | 0x40u | 0x100u;
  for (std::size_t i = 0; i < d.queueFamilies.size(); ++i) {
    VkQueueFlags removed = d.queueFamilies[i].queueFlags & kUnsupported;
    if (removed == 0) continue;
    d.queueFamilies[i].queueFlags &= ~kUnsupported;
    for (uint32_t bit = 1; bit != 0 && bit <= removed; bit <<= 1) {
      if ((removed & bit) == 0) continue;
      std::string_view name = EnumValueName("VkQueueFlagBits", bit);
      d.dropped.push_back({"queue family " + std::to_string(i) + ' ' +
                               (name.empty() ? "flag " + std::to_string(bit) : std::string(name)),
                           NotImplemented()});
    }
  }
}

// crashtest's reason to exist: the fault reports and the pipeline statistics. Every device offers their
// extensions, whatever its profile lists (VK_KHR_device_fault is newer than the 1.3.239 registry, so no
// profile could list it anyway), unless the profile asks to emulate the real driver's list exactly.
struct OfferedExtension {
  const char* name;
  std::initializer_list<std::string_view> features;  // of `featureStruct`, enabled when the extension is added
  const char* featureStruct;
};
const OfferedExtension kOfferedEverywhere[] = {
    {VK_EXT_DEVICE_FAULT_EXTENSION_NAME, {"deviceFault", "deviceFaultVendorBinary"}, "VkPhysicalDeviceFaultFeaturesEXT"},
    // Its features are not in the 1.3.239 registry; PhysicalDevice answers them (all supported).
    {VK_KHR_DEVICE_FAULT_EXTENSION_NAME, {}, nullptr},
    {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, {"pipelineExecutableInfo"},
     "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR"},
};

constexpr const char* kOfferedReason =
    "crashtest offers the fault and statistics extensions on every device (\"crashtest\": {\"exactExtensions\": "
    "true} emulates the profile's list exactly)";

void OfferTestingExtensions(DeviceDescription& d, const DriverCapabilities& driver) {
  for (const OfferedExtension& offered : kOfferedEverywhere) {
    uint32_t spec = 0;
    if (!driver.ImplementsExtension(offered.name, &spec) || d.HasExtension(offered.name)) continue;
    if (d.exactExtensions) {
      d.dropped.push_back({std::string("extension ") + offered.name + " (not added)",
                           "not in the profile, and \"crashtest\": {\"exactExtensions\": true} emulates the "
                           "profile's list exactly"});
      continue;
    }
    VkExtensionProperties e{};
    std::strncpy(e.extensionName, offered.name, sizeof(e.extensionName) - 1);
    e.specVersion = spec;
    d.extensions.insert(std::lower_bound(d.extensions.begin(), d.extensions.end(), e,
                                         [](const VkExtensionProperties& a, const VkExtensionProperties& b) {
                                           return std::strcmp(a.extensionName, b.extensionName) < 0;
                                         }),
                        e);
    d.added.push_back({std::string("extension ") + offered.name, kOfferedReason});
  }
}

// The features of the extensions OfferTestingExtensions added (and that survived their requirements): an
// extension offered with its features off would offer nothing.
void EnableOfferedFeatures(DeviceDescription& d) {
  for (auto it = d.added.begin(); it != d.added.end();) {
    const OfferedExtension* offered = nullptr;
    for (const OfferedExtension& o : kOfferedEverywhere)
      if (it->what == std::string("extension ") + o.name) offered = &o;
    if (offered == nullptr) {
      ++it;
      continue;
    }
    if (!d.HasExtension(offered->name)) {  // dropped for an unmet requirement, which `dropped` explains
      it = d.added.erase(it);
      continue;
    }
    if (offered->featureStruct != nullptr) {
      if (const StructInfo* s = FindStruct(offered->featureStruct)) {
        std::byte* bytes = StructBytes(d, *s, /*create=*/true);
        for (std::string_view member : offered->features) {
          const MemberInfo* m = s->FindMember(member);
          if (m == nullptr) continue;
          const VkBool32 on = VK_TRUE;
          std::memcpy(bytes + m->offset, &on, sizeof on);
        }
      }
    }
    ++it;
  }
}

}  // namespace

void IntersectWithDriver(DeviceDescription& d, const DriverCapabilities& driver) {
  IntersectApiVersion(d, driver);
  IntersectExtensions(d, driver);
  OfferTestingExtensions(d, driver);
  DropExtensionsWithUnmetRequirements(d, driver);
  EnableOfferedFeatures(d);
  DropUnprovidedStructs(d, driver, d.extendedFeatures);
  DropUnprovidedStructs(d, driver, d.extendedProperties);
  IntersectFeatures(d, driver);
  // What is left must still satisfy the spec's Feature Requirements (what the driver implements is enabled, the
  // rest goes); whatever that removes may unmeet an extension's prerequisites or a struct's provider, and those
  // may in turn take features away.
  // (Each round removes something; a handful of rounds settle every real profile, the bound guards the rest.)
  for (std::size_t before = SIZE_MAX, round = 0; before != d.dropped.size() && round < 8; ++round) {
    before = d.dropped.size();
    EnforceFeatureRequirements(d, driver);
    DropExtensionsWithUnmetRequirements(d, driver);
    DropUnprovidedStructs(d, driver, d.extendedFeatures);
    DropUnprovidedStructs(d, driver, d.extendedProperties);
  }
  ApplyUnsupportedLimits(d);
  ApplyFloatControls(d);
  IntersectFormats(d, driver);
  CompleteRequiredFormatSupport(d, driver);
  IntersectQueueFlags(d);
}

}  // namespace crashtest
