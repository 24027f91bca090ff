// What `crashtest devices` says about one device, as JSON. The text output is rendered from this same JSON
// (device_text.h), so `--json` and the text can never disagree.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>

#include "device/device_description.h"

namespace crashtest {

// index, deviceName, type, vendorID/deviceID (hex strings), apiVersion, driverVersion, driverName, driverInfo,
// driverID, conformanceVersion, source, profileName; with `verbose` also extensions, enabledFeatureCount,
// queueFamilies, memory (heaps, types), machine and dropped.
nlohmann::json DescribeDevice(const DeviceDescription& device, std::size_t index, bool verbose);

}  // namespace crashtest
