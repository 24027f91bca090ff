// Lookup over the built-in device library. The table itself (BuiltinProfiles()) is generated at build time by
// json/embed_profiles.py from json/devices/*.json, sorted by name.
#include "profile/builtin_profiles.h"

#include <algorithm>

namespace crashtest {

std::optional<std::string_view> FindBuiltinProfile(std::string_view name) {
  const std::span<const BuiltinProfile> profiles = BuiltinProfiles();
  const auto it = std::lower_bound(profiles.begin(), profiles.end(), name,
                                   [](const BuiltinProfile& p, std::string_view n) { return p.name < n; });
  if (it == profiles.end() || it->name != name) return std::nullopt;
  return it->json;
}

}  // namespace crashtest
