#include <algorithm>

#include "profile/extension_requirements.h"

namespace crashtest {

const ExtensionRequirements* FindExtensionRequirements(std::string_view name) {
  const auto* begin = std::begin(kExtensionRequirements);
  const auto* end = std::end(kExtensionRequirements);
  const auto* it = std::lower_bound(begin, end, name,
                                    [](const ExtensionRequirements& r, std::string_view n) { return r.name < n; });
  return it != end && it->name == name ? it : nullptr;
}

std::span<const ExtensionRequirements> AllExtensionRequirements() { return kExtensionRequirements; }

}  // namespace crashtest
