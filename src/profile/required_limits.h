// The spec's "Required Limits" table (Vulkan 1.3, chapter Limits) and the consistency rules of its footnotes and
// limit descriptions, checked on one device's description. A profile that breaks them describes a device that
// no conformant driver may report: the loader warns (an error under `crashtest check --strict`).
#pragma once

#include <string>
#include <vector>

#include "device/device_description.h"
#include "profile/struct_json_reader.h"

namespace crashtest {

struct LimitProblem {
  std::string path;  // e.g. "VkPhysicalDeviceProperties.limits.maxComputeWorkGroupInvocations"
  std::string text;
};

// Limits tied to a feature are checked only when the description supports the feature (the table's "Unsupported
// Limit" column applies otherwise, which the driver intersection writes). With `given`, only the limits a profile
// states are checked (a partial profile leaves the others at 0); without, all of them.
std::vector<LimitProblem> CheckRequiredLimits(const DeviceDescription& d, const GivenMembers* given = nullptr);

}  // namespace crashtest
