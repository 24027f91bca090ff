// Renders the JSON of device_report.h as the human-readable text of `crashtest devices`.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

namespace crashtest {

// One device: a heading line and indented "key  value" lines; the verbose sections when the JSON has them.
void PrintDeviceText(const nlohmann::json& device, std::ostream& out);

}  // namespace crashtest
