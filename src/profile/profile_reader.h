// Reads a device profile in the Vulkan Profiles JSON format (as `vulkaninfo --json` writes it and as the
// Vulkan-Profiles repository ships real devices) plus our "crashtest" key into a DeviceDescription. The result is
// what the profile says; intersect it with the driver afterwards (driver_intersection.h).
#pragma once

#include <string>
#include <string_view>

#include "device/device_description.h"
#include "profile/diagnostics.h"

namespace crashtest {

struct ProfileReadOptions {
  std::string source;       // file path or "builtin:NAME": used in messages and as DeviceDescription::source
  std::string profileName;  // entry of the "profiles" section to use; "" = the first one
  bool strict = false;      // names the installed vk.xml does not know are errors instead of warnings
  // Read "formats" sections straight from the parser (fast_formats.h). The result and the messages are the same
  // either way; false exists so that tests can compare the two.
  bool fastFormats = true;
};

// False when an error was added to `diagnostics` (warnings do not fail the load).
bool ReadProfileText(std::string_view text, const ProfileReadOptions& options, DeviceDescription& out,
                     Diagnostics& diagnostics);
// Reads the file at `path`; options.source defaults to the path.
bool ReadProfileFile(const std::string& path, ProfileReadOptions options, DeviceDescription& out,
                     Diagnostics& diagnostics);

}  // namespace crashtest
