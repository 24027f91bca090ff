// Thin noexcept thunks: no exception crosses the C ABI. std::bad_alloc becomes VK_ERROR_OUT_OF_HOST_MEMORY, anything
// else VK_ERROR_UNKNOWN, each logged once through ReportError.
#pragma once

#include <vulkan/vulkan.h>

#include <exception>
#include <new>

#include "common/log.h"
#include "common/result.h"

namespace crashtest::icd {

template <typename Body>
VkResult Guarded(const char* command, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", command);
  } catch (const std::exception& e) {
    return ReportError(VK_ERROR_UNKNOWN, "%s: internal error: %s", command, e.what());
  } catch (...) {
    return ReportError(VK_ERROR_UNKNOWN, "%s: internal error", command);
  }
}

// For commands that return void: the failure can only be logged.
template <typename Body>
void GuardedVoid(const char* command, Body&& body) noexcept {
  try {
    body();
  } catch (const std::exception& e) {
    CT_ERROR("%s: internal error: %s", command, e.what());
  } catch (...) {
    CT_ERROR("%s: internal error", command);
  }
}

}  // namespace crashtest::icd
