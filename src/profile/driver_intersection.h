// "Advertise only what works": removes from a profile's description what the crashtest driver does not
// implement, recording each removal (with its reason) in DeviceDescription::dropped.
#pragma once

#include "device/device_description.h"
#include "device/driver_capabilities.h"

namespace crashtest {

void IntersectWithDriver(DeviceDescription& d, const DriverCapabilities& driver);
inline void IntersectWithDriver(DeviceDescription& d) { IntersectWithDriver(d, Driver()); }

}  // namespace crashtest
