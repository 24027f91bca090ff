// The built-in device library: json/devices/*.json embedded into the library at build time, so that
// "builtin:NAME" works with nothing but the manifest.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace crashtest {

struct BuiltinProfile {
  std::string_view name;         // file name without .json, e.g. "default"
  std::string_view description;  // one line for `crashtest devices`
  std::string_view json;         // the whole profile text
};

// All built-in profiles, sorted by name.
std::span<const BuiltinProfile> BuiltinProfiles();
// The JSON text of a built-in profile, by name ("default", not "builtin:default").
std::optional<std::string_view> FindBuiltinProfile(std::string_view name);

}  // namespace crashtest
