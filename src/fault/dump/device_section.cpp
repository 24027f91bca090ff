// Section 2: which device and driver crashed: the emulated device's identity, the profile it came from and the
// crashtest build, so a crash-report pipeline can group dumps by device and driver version.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteDeviceSection(ByteWriter& w, const DeviceIdentity& d) {
  w.U32(d.vendorID);
  w.U32(d.deviceID);
  w.U32(d.driverVersion);
  w.U32(d.apiVersion);
  w.U32(d.driverID);
  w.U32(d.deviceType);
  w.String(d.deviceName);
  w.String(d.driverName);
  w.String(d.driverInfo);
  w.String(d.profile);
  w.String(d.driverBuild);
}

}  // namespace crashtest::dump
