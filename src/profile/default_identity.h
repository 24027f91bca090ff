// Identity for profiles that carry none. Khronos capability profiles (VP_KHR_roadmap_2022, ...) describe what a
// device must support, not a device: without this they would report an empty deviceName, vendorID 0, driverID 0
// and type OTHER, which tools print as garbage and engines skip.
#pragma once

#include <string>

#include "device/device_description.h"
#include "profile/read_context.h"
#include "profile/struct_json_reader.h"

namespace crashtest {

// crashtest's own vendorID: "CRSH" in ASCII, outside both the 16-bit PCI range and the Khronos-assigned
// 0x10000-0x1FFFF range (docs/devices.md, "Why these IDs").
inline constexpr uint32_t kCrashtestVendorId = 0x43525348;
// crashtest's driverID: far above the registered VkDriverId values, so it claims to be no other driver.
inline constexpr uint32_t kCrashtestDriverId = 1000;

// Fills each identity member the profile did not write (`given`): deviceName "crashtest: NAME" (`name` is the
// profile entry's name, else the file's), vendorID kCrashtestVendorId, deviceID from the name, deviceType
// DISCRETE_GPU, driverVersion the crashtest version, and the driver's ID, name and info. Says what it filled in
// a note. Call before ApplyCrashtestKey: memory and machine defaults follow the device type, UUIDs the name.
void ApplyDefaultIdentity(const ReadContext& ctx, const GivenMembers& given, const std::string& name,
                          DeviceDescription& d);

}  // namespace crashtest
