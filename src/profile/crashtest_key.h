// Our own top-level profile key "crashtest": what the Profiles format lacks (memory heaps and types, the
// statistics machine model, identity), with defaults by deviceType when absent.
#pragma once

#include "device/device_description.h"
#include "profile/read_context.h"
#include "profile/struct_json_reader.h"

namespace crashtest {

// Fills d.memory, d.machine and the identity members (conformanceVersion, UUIDs) from `key` (null when the
// profile has no "crashtest" key) and the defaults. `given` holds the struct members the profile wrote, so that
// UUIDs it gives are kept. Call after the capabilities are read and the aggregate structs are consistent.
bool ApplyCrashtestKey(const ReadContext& ctx, const Json* key, const GivenMembers& given, DeviceDescription& d);

// Defaults used when the key does not say otherwise (exposed for tests and `crashtest devices`).
VkPhysicalDeviceMemoryProperties DefaultMemory(VkPhysicalDeviceType type);
MachineModel DefaultMachine(VkPhysicalDeviceType type);

}  // namespace crashtest
