#include "common/result.h"

#include <cstdarg>
#include <cstdio>

#include "common/log.h"

namespace crashtest {

const char* ResultName(VkResult result) {
  switch (result) {
#define CT_RESULT_CASE(name) \
  case name: return #name;
    CT_RESULT_CASE(VK_SUCCESS)
    CT_RESULT_CASE(VK_NOT_READY)
    CT_RESULT_CASE(VK_TIMEOUT)
    CT_RESULT_CASE(VK_EVENT_SET)
    CT_RESULT_CASE(VK_EVENT_RESET)
    CT_RESULT_CASE(VK_INCOMPLETE)
    CT_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CT_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CT_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    CT_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    CT_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CT_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CT_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CT_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CT_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CT_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CT_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CT_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    CT_RESULT_CASE(VK_ERROR_UNKNOWN)
    CT_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CT_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CT_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    CT_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CT_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CT_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef CT_RESULT_CASE
    default: return "VkResult(unknown)";
  }
}

VkResult ReportError(VkResult result, const char* format, ...) {
  LogLevel level = (result == VK_ERROR_FORMAT_NOT_SUPPORTED || result == VK_INCOMPLETE || result == VK_TIMEOUT ||
                    result == VK_NOT_READY)
                       ? LogLevel::Debug
                       : LogLevel::Error;
  if (!LogEnabled(level)) return result;
  char message[1536];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  LogMessage(level, "%s: %s", message, ResultName(result));
  return result;
}

}  // namespace crashtest
