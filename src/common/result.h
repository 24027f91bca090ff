// Every error crashtest returns goes through ReportError, so each one is logged once with its reason.
#pragma once

#include <vulkan/vulkan.h>

namespace crashtest {

const char* ResultName(VkResult result);

// Logs "<message>: <VkResult name>" at error level (warning level for VK_ERROR_FORMAT_NOT_SUPPORTED and other
// results that apps use to probe) and returns `result`.
VkResult ReportError(VkResult result, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace crashtest
