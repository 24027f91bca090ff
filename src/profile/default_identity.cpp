#include "profile/default_identity.h"

#include <cstdio>
#include <cstring>

#include "profile/description_access.h"

namespace crashtest {
namespace {

bool Given(const GivenMembers& given, std::string_view structName, std::string_view member) {
  const StructInfo* s = FindStruct(structName);
  const MemberInfo* m = s ? s->FindMember(member) : nullptr;
  return m != nullptr && given.count(m) != 0;
}

// Either of the two places Vulkan 1.2 keeps the driver identity counts as given (the reader keeps them equal).
bool DriverMemberGiven(const GivenMembers& given, std::string_view member) {
  return Given(given, "VkPhysicalDeviceDriverProperties", member) ||
         Given(given, "VkPhysicalDeviceVulkan12Properties", member);
}

void WriteDriverMember(DeviceDescription& d, std::string_view member, const void* bytes, std::size_t size) {
  for (std::string_view s : {"VkPhysicalDeviceDriverProperties", "VkPhysicalDeviceVulkan12Properties"})
    if (std::byte* dst = MemberBytes(d, s, member)) std::memcpy(dst, bytes, size);
}

void WriteDriverString(DeviceDescription& d, std::string_view member, const std::string& text) {
  char buffer[VK_MAX_DRIVER_NAME_SIZE] = {};  // == VK_MAX_DRIVER_INFO_SIZE
  std::strncpy(buffer, text.c_str(), sizeof buffer - 1);
  WriteDriverMember(d, member, buffer, sizeof buffer);
}

uint32_t Fnv1a32(std::string_view text) {
  uint32_t hash = 0x811c9dc5u;
  for (char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x01000193u;
  }
  return hash;
}

}  // namespace

void ApplyDefaultIdentity(const ReadContext& ctx, const GivenMembers& given, const std::string& name,
                          DeviceDescription& d) {
  VkPhysicalDeviceProperties& p = d.properties;
  std::string filled;
  auto note = [&](const std::string& what) { filled += (filled.empty() ? "" : ", ") + what; };
  char hex[16];

  if (!Given(given, "VkPhysicalDeviceProperties", "deviceName") || p.deviceName[0] == '\0') {
    const std::string deviceName = "crashtest: " + (name.empty() ? std::string("profile") : name);
    std::memset(p.deviceName, 0, sizeof p.deviceName);
    std::strncpy(p.deviceName, deviceName.c_str(), sizeof p.deviceName - 1);
    note("deviceName \"" + std::string(p.deviceName) + '"');
  }
  if (!Given(given, "VkPhysicalDeviceProperties", "vendorID")) {
    p.vendorID = kCrashtestVendorId;
    std::snprintf(hex, sizeof hex, "0x%X", p.vendorID);
    note(std::string("vendorID ") + hex);
  }
  if (!Given(given, "VkPhysicalDeviceProperties", "deviceID")) {
    // Stable and distinct per profile, so tools keying caches by vendorID/deviceID tell profiles apart.
    p.deviceID = Fnv1a32(p.deviceName);
    std::snprintf(hex, sizeof hex, "0x%X", p.deviceID);
    note(std::string("deviceID ") + hex);
  }
  if (!Given(given, "VkPhysicalDeviceProperties", "deviceType")) {
    // What engines prefer, so a capability profile is the device they pick (as builtin:default is).
    p.deviceType = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    note("deviceType VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU");
  }
  if (!Given(given, "VkPhysicalDeviceProperties", "driverVersion")) {
    p.driverVersion = VK_MAKE_API_VERSION(0, 0, 0, 0);
    if (std::optional<uint32_t> v = ParseVersionString(CRASHTEST_VERSION)) p.driverVersion = *v;
    note("driverVersion " + std::string(CRASHTEST_VERSION));
  }
  const bool driverStructs = MemberBytes(d, "VkPhysicalDeviceDriverProperties", "driverID") != nullptr ||
                             MemberBytes(d, "VkPhysicalDeviceVulkan12Properties", "driverID") != nullptr;
  if (driverStructs) {
    if (!DriverMemberGiven(given, "driverID")) {
      const uint32_t id = kCrashtestDriverId;
      WriteDriverMember(d, "driverID", &id, sizeof id);
      note("driverID " + std::to_string(id));
    }
    if (!DriverMemberGiven(given, "driverName")) {
      WriteDriverString(d, "driverName", "crashtest");
      note("driverName \"crashtest\"");
    }
    if (!DriverMemberGiven(given, "driverInfo")) {
      WriteDriverString(d, "driverInfo", std::string("crashtest ") + CRASHTEST_VERSION + " (CPU-backed test driver)");
      note("driverInfo");
    }
  }
  // Next to an error the note is noise: the profile is rejected anyway.
  if (!filled.empty() && !ctx.diagnostics->HasErrors()) ctx.Note("", "identity the profile does not give, reported as crashtest's own: " + filled);
}

}  // namespace crashtest
