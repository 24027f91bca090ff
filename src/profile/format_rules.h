// The spec's Required Format Support (format/required_format_support.h) applied to one device's description: the
// mandatory format features a profile lacks are added where the driver implements them (a profile of a real
// device that omits them is wrong, and an app may rely on them without asking), and what remains unmet is said.
#pragma once

#include <string>
#include <vector>

#include "device/device_description.h"
#include "device/driver_capabilities.h"

namespace crashtest {

// One sentence per requirement the description breaks, empty when it meets them all.
std::vector<std::string> UnmetFormatRequirements(const DeviceDescription& d);

// Adds every mandatory format feature the driver implements and the description lacks, recording each format
// completed in d.added. When no compressed family (BC, ETC2/EAC, ASTC) is complete, the BC formats, which the
// driver decodes, are completed and textureCompressionBC is set.
void CompleteRequiredFormatSupport(DeviceDescription& d, const DriverCapabilities& driver);

}  // namespace crashtest
