// "Did you mean ...?" suggestions for misspelt or newer-Vulkan names.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace crashtest {

// Levenshtein distance (insert, delete, substitute: cost 1 each).
std::size_t EditDistance(std::string_view a, std::string_view b);

// Calls `each` with a visitor; returns the visited candidate closest to `name` ("" when none was visited). Only the
// first 256 bytes of `name` are compared (no Vulkan name is that long), so the time stays bounded.
std::string_view ClosestName(std::string_view name,
                             const std::function<void(const std::function<void(std::string_view)>&)>& each);

}  // namespace crashtest
