// The spec's Feature Requirements (device/feature_requirements.h) applied to one device's description: what a
// profile claims, once intersected with the driver, must still satisfy them, or the app meets an extension without
// the features it promises (VK_EXT_descriptor_indexing without update-after-bind) or a version without its
// mandatory features.
#pragma once

#include <string>
#include <vector>

#include "device/device_description.h"
#include "device/driver_capabilities.h"
#include "device/feature_requirements.h"

namespace crashtest {

// Whether the description supports a feature ("StructName.member"), under that name or its synonym in the
// Vulkan11/12/13 aggregate (or the individual struct). False when no struct holding it is present.
bool FeatureSupported(const DeviceDescription& d, std::string_view feature);

// One sentence per rule the description breaks, empty when it satisfies them all.
std::vector<std::string> UnmetFeatureRequirements(const DeviceDescription& d);

// Makes the description satisfy every rule. The features a rule requires are enabled when the driver implements
// them all (a profile that lists an extension or a version promises what the spec attaches to it; recorded in
// d.added); otherwise a core version is lowered and any other rule loses its last condition (an extension is no
// longer advertised, a feature is cleared; recorded in d.dropped). Repeats until nothing changes.
void EnforceFeatureRequirements(DeviceDescription& d, const DriverCapabilities& driver);

// Whether the driver honours a feature ("StructName.member") under that name or its aggregate synonym.
bool DriverImplementsFeature(const DriverCapabilities& driver, std::string_view feature);

}  // namespace crashtest
