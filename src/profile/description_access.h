// Generic access to the structs a DeviceDescription holds, by StructInfo: the base VkPhysicalDeviceProperties /
// VkPhysicalDeviceFeatures members and the extended blobs keyed by sType.
#pragma once

#include <cstddef>

#include "device/device_description.h"
#include "profile/struct_table.h"

namespace crashtest {

// The bytes of the struct in `d`, nullptr when the description has none (never for the base structs). With
// `create`, a missing extended struct is added zeroed with its sType set.
std::byte* StructBytes(DeviceDescription& d, const StructInfo& info, bool create = false);
const std::byte* StructBytes(const DeviceDescription& d, const StructInfo& info);

// The bytes of one member ("VkPhysicalDeviceIDProperties", "deviceUUID"), nullptr when absent.
std::byte* MemberBytes(DeviceDescription& d, std::string_view structName, std::string_view member);

// Bytes a member occupies (all elements of an array).
inline std::size_t MemberSize(const MemberInfo& m) {
  return static_cast<std::size_t>(m.elementSize) * (m.arrayLength == 0 ? 1 : m.arrayLength);
}

}  // namespace crashtest
