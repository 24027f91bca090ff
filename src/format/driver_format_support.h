// The format feature bits crashtest itself can stand behind, per format. A profile's format support is masked
// with these (DriverCapabilities::FormatFeatures), so nothing is advertised that would fail the app later.
#pragma once

#include <vulkan/vulkan.h>

#include "device/device_description.h"

namespace crashtest {

// All zero for formats the format table does not know.
FormatSupport DriverFormatSupport(VkFormat format);

}  // namespace crashtest
