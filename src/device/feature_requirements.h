// The Vulkan spec's "Feature Requirements" (chapter Features): which features a device must support given its core
// version, the extensions it advertises and its other features. Facts of the spec only; the driver's version cap
// (driver_capabilities.cpp) and the profile intersection (src/profile/feature_rules.cpp) apply them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string_view>

namespace crashtest {

// One rule: on a device of core version >= minVersion (0: any) where every condition holds, the required features
// must be supported (with anyOf: at least one of them). A condition is an extension name ("VK_...") or a feature;
// features are "StructName.member", named in the individual struct where one exists (the Vulkan11/12/13 aggregate
// member is the same feature). A rule without conditions is a core version's requirement.
struct FeatureRequirement {
  uint32_t minVersion;
  std::span<const std::string_view> conditions;
  std::span<const std::string_view> required;
  bool anyOf = false;
};

std::span<const FeatureRequirement> FeatureRequirements();

inline bool IsExtensionName(std::string_view condition) { return condition.substr(0, 3) == "VK_"; }

}  // namespace crashtest
