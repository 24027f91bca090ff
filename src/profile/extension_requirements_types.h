// What an extension needs before a device may advertise it, as vk.xml states it (generated table:
// extension_requirements.h). requiredExtensions lists extensions that must all be supported; each is also met when the
// device's core version includes what it was promoted to.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <span>
#include <string_view>

namespace crashtest {

struct ExtensionRequirements {
  std::string_view name;
  bool device;                  // a device extension (else an instance extension)
  uint32_t requiresCore;        // minimum core version, 0 when none
  uint32_t promotedTo;          // core version it was promoted to, 0 when none
  std::array<std::string_view, 4> requiredExtensions;  // empty entries at the end
};

// The requirements of `name`, or nullptr for an extension vk.xml does not list.
const ExtensionRequirements* FindExtensionRequirements(std::string_view name);
// Every extension vk.xml lists for Vulkan (not disabled or for other APIs), sorted by name.
std::span<const ExtensionRequirements> AllExtensionRequirements();

}  // namespace crashtest
