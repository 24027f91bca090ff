// The built-in device library as embedded in the library: every profile is found by name, parses, has the
// sections the loader and `crashtest devices` rely on, and the default device has the identity docs/devices.md
// promises (a discrete GPU that impersonates no vendor and claims no registered driver).
#include "profile/builtin_profiles.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace crashtest {
namespace {

using nlohmann::json;

json Parse(std::string_view name) {
  std::optional<std::string_view> text = FindBuiltinProfile(name);
  if (!text) {
    ADD_FAILURE() << "no built-in profile " << name;
    return json::object();
  }
  return json::parse(*text);
}

const json& Device(const json& profile) { return profile.at("capabilities").at("device"); }
const json& Properties(const json& profile, const char* structName) {
  return Device(profile).at("properties").at(structName);
}

TEST(BuiltinProfiles, LibraryHoldsTheFiveClassesSortedByName) {
  std::vector<std::string> names;
  for (const BuiltinProfile& p : BuiltinProfiles()) names.emplace_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"amd-rdna2", "default", "intel-xe-igpu", "mali-g78",
                                              "nvidia-hopper"}));
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(BuiltinProfiles, EveryProfileIsFoundByNameAndIsItsOwnText) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    std::optional<std::string_view> found = FindBuiltinProfile(p.name);
    ASSERT_TRUE(found.has_value()) << p.name;
    EXPECT_EQ(found->data(), p.json.data()) << p.name;
    EXPECT_EQ(found->size(), p.json.size()) << p.name;
  }
}

TEST(BuiltinProfiles, UnknownNamesAreNotFound) {
  EXPECT_FALSE(FindBuiltinProfile("builtin:default").has_value());  // the prefix belongs to the configuration
  EXPECT_FALSE(FindBuiltinProfile("").has_value());
  EXPECT_FALSE(FindBuiltinProfile("defaul").has_value());
  EXPECT_FALSE(FindBuiltinProfile("default.json").has_value());
  EXPECT_FALSE(FindBuiltinProfile("zzz").has_value());
}

TEST(BuiltinProfiles, EveryProfileParsesAndHasTheRequiredSections) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    json profile = json::parse(p.json, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(profile.is_discarded());
    ASSERT_TRUE(profile.contains("capabilities"));
    const json& device = Device(profile);
    for (const char* section : {"extensions", "features", "properties", "formats", "queueFamiliesProperties"}) {
      EXPECT_TRUE(device.contains(section)) << section;
    }
    for (const char* s : {"VkPhysicalDeviceProperties", "VkPhysicalDeviceVulkan11Properties",
                          "VkPhysicalDeviceVulkan12Properties", "VkPhysicalDeviceVulkan13Properties",
                          "VkPhysicalDeviceDriverProperties", "VkPhysicalDeviceIDProperties",
                          "VkPhysicalDeviceSubgroupProperties"}) {
      EXPECT_TRUE(device.at("properties").contains(s)) << s;
    }
    for (const char* s : {"VkPhysicalDeviceFeatures", "VkPhysicalDeviceVulkan11Features",
                          "VkPhysicalDeviceVulkan12Features", "VkPhysicalDeviceVulkan13Features"}) {
      EXPECT_TRUE(device.at("features").contains(s)) << s;
    }
    // The description shown by `crashtest devices` is the first profile's.
    const json& profiles = profile.at("profiles");
    ASSERT_FALSE(profiles.empty());
    EXPECT_EQ(p.description, profiles.begin()->at("description").get<std::string>());
    const json& ours = profile.at("crashtest");
    EXPECT_TRUE(ours.contains("memory"));
    EXPECT_TRUE(ours.contains("machine"));
    EXPECT_EQ(ours.at("identity").at("conformanceVersion"), "0.0.0.0");
  }
}

// What several structs say about the same thing must agree, and our key must agree with the Vulkan structs.
TEST(BuiltinProfiles, EveryProfileIsConsistent) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    json profile = json::parse(p.json);
    const json& v11 = Properties(profile, "VkPhysicalDeviceVulkan11Properties");
    const json& v12 = Properties(profile, "VkPhysicalDeviceVulkan12Properties");
    const json& v13 = Properties(profile, "VkPhysicalDeviceVulkan13Properties");
    const json& driver = Properties(profile, "VkPhysicalDeviceDriverProperties");
    const json& id = Properties(profile, "VkPhysicalDeviceIDProperties");
    const json& subgroup = Properties(profile, "VkPhysicalDeviceSubgroupProperties");
    for (const char* m : {"driverID", "driverName", "driverInfo", "conformanceVersion"}) EXPECT_EQ(v12[m], driver[m]) << m;
    for (const char* m : {"deviceUUID", "driverUUID", "deviceNodeMask", "deviceLUIDValid"}) EXPECT_EQ(v11[m], id[m]) << m;
    EXPECT_EQ(v11["subgroupSize"], subgroup["subgroupSize"]);
    EXPECT_EQ(v11["subgroupSupportedOperations"], subgroup["supportedOperations"]);
    const uint32_t size = subgroup["subgroupSize"];
    EXPECT_LE(v13["minSubgroupSize"].get<uint32_t>(), size);
    EXPECT_GE(v13["maxSubgroupSize"].get<uint32_t>(), size);

    const json& machine = profile["crashtest"]["machine"];
    EXPECT_EQ(machine["minSubgroupSize"], v13["minSubgroupSize"]);
    EXPECT_EQ(machine["maxSubgroupSize"], v13["maxSubgroupSize"]);
    const json& limits = Properties(profile, "VkPhysicalDeviceProperties")["limits"];
    // A workgroup using all the shared memory it may must fit on one core.
    EXPECT_GE(machine["sharedMemoryPerCore"].get<uint32_t>(), limits["maxComputeSharedMemorySize"].get<uint32_t>());
    EXPECT_LE(machine["registerBudget"].get<uint32_t>(), machine["registerFilePerLane"].get<uint32_t>());
    for (const char* k : {"alu", "transcendental", "memory", "shared", "texture", "branch", "barrier", "atomic"}) {
      EXPECT_GT(machine["latency"][k].get<uint32_t>(), 0u) << k;
    }

    const json& memory = profile["crashtest"]["memory"];
    const size_t heapCount = memory["heaps"].size();
    ASSERT_GE(heapCount, 1u);
    EXPECT_LE(heapCount, size_t{VK_MAX_MEMORY_HEAPS});
    EXPECT_LE(memory["types"].size(), size_t{VK_MAX_MEMORY_TYPES});
    bool hostVisibleCoherent = false;
    for (const json& type : memory["types"]) {
      EXPECT_LT(type["heapIndex"].get<size_t>(), heapCount);
      std::set<std::string> flags = type["propertyFlags"];
      // "There must be at least one memory type with both the HOST_VISIBLE and HOST_COHERENT bits set"
      // (Vulkan 1.3, 11.2.1 Device Memory Properties).
      hostVisibleCoherent |= flags.count("VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT") &&
                             flags.count("VK_MEMORY_PROPERTY_HOST_COHERENT_BIT");
    }
    EXPECT_TRUE(hostVisibleCoherent);
    // Every queue family reports at least one queue.
    for (const json& family : Device(profile)["queueFamiliesProperties"]) {
      EXPECT_GE(family["VkQueueFamilyProperties"]["queueCount"].get<uint32_t>(), 1u);
    }
  }
}

TEST(BuiltinProfiles, DefaultDeviceImpersonatesNobody) {
  json profile = Parse("default");
  const json& props = Properties(profile, "VkPhysicalDeviceProperties");
  EXPECT_EQ(props["deviceName"], "crashtest default GPU");
  // Above the 16-bit PCI vendor range and outside the Khronos VkVendorId range 0x10000-0x1FFFF.
  EXPECT_EQ(props["vendorID"], 0x43525348u);
  EXPECT_EQ(props["deviceID"], 1u);
  EXPECT_EQ(props["deviceType"], "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU");
  EXPECT_EQ(props["apiVersion"], "1.3.239");
  EXPECT_EQ(props["driverVersion"], VK_MAKE_API_VERSION(0, 0, 1, 0));

  const json& driver = Properties(profile, "VkPhysicalDeviceDriverProperties");
  EXPECT_EQ(driver["driverID"], 1000);  // a number: claims no registered VkDriverId
  EXPECT_EQ(driver["driverName"], "crashtest");
  EXPECT_EQ(driver["driverInfo"], "crashtest 0.1.0 (CPU-backed test driver)");
  EXPECT_EQ(driver["conformanceVersion"], (json{{"major", 0}, {"minor", 0}, {"subminor", 0}, {"patch", 0}}));
  EXPECT_EQ(profile["crashtest"]["identity"]["conformanceVersion"], "0.0.0.0");

  EXPECT_EQ(Properties(profile, "VkPhysicalDeviceSubgroupProperties")["subgroupSize"], 32);
  const json& families = Device(profile)["queueFamiliesProperties"];
  ASSERT_EQ(families.size(), 3u);
  const auto flags = [&](size_t i) -> const json& { return families[i]["VkQueueFamilyProperties"]["queueFlags"]; };
  const auto count = [&](size_t i) -> const json& { return families[i]["VkQueueFamilyProperties"]["queueCount"]; };
  EXPECT_TRUE(std::count(flags(0).begin(), flags(0).end(), "VK_QUEUE_GRAPHICS_BIT"));
  EXPECT_EQ(count(0), 1);
  EXPECT_FALSE(std::count(flags(1).begin(), flags(1).end(), "VK_QUEUE_GRAPHICS_BIT"));
  EXPECT_TRUE(std::count(flags(1).begin(), flags(1).end(), "VK_QUEUE_COMPUTE_BIT"));
  EXPECT_EQ(count(1), 2);
  EXPECT_FALSE(std::count(flags(2).begin(), flags(2).end(), "VK_QUEUE_COMPUTE_BIT"));
  EXPECT_TRUE(std::count(flags(2).begin(), flags(2).end(), "VK_QUEUE_TRANSFER_BIT"));
  EXPECT_EQ(count(2), 1);
  for (const json& family : families) EXPECT_EQ(family["VkQueueFamilyProperties"]["timestampValidBits"], 64);

  // Discrete: a device-local heap and a host heap, with a device-local-only type.
  const json& heaps = profile["crashtest"]["memory"]["heaps"];
  ASSERT_EQ(heaps.size(), 2u);
  EXPECT_EQ(heaps[0]["flags"], json::array({"VK_MEMORY_HEAP_DEVICE_LOCAL_BIT"}));
  EXPECT_EQ(heaps[1]["flags"], json::array());
}

TEST(BuiltinProfiles, EachProfileIsTrueToItsClass) {
  struct Expected {
    const char* name;
    uint32_t vendorID;
    const char* deviceType;
    uint32_t subgroupSize;
    bool geometryShader;
    size_t heapCount;
  };
  for (const Expected& e : {Expected{"amd-rdna2", 0x1002, "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", 64, true, 3},
                            Expected{"intel-xe-igpu", 0x8086, "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU", 32, true, 1},
                            Expected{"mali-g78", 0x13B5, "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU", 16, false, 1},
                            Expected{"nvidia-hopper", 0x10DE, "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", 32, true, 2}}) {
    SCOPED_TRACE(e.name);
    json profile = Parse(e.name);
    const json& props = Properties(profile, "VkPhysicalDeviceProperties");
    EXPECT_EQ(props["vendorID"], e.vendorID);
    EXPECT_EQ(props["deviceType"], e.deviceType);
    EXPECT_NE(props["deviceName"].get<std::string>().find("crashtest emulation"), std::string::npos);
    EXPECT_NE(Properties(profile, "VkPhysicalDeviceDriverProperties")["driverInfo"].get<std::string>().find(
                  "crashtest emulation"),
              std::string::npos);
    EXPECT_EQ(Properties(profile, "VkPhysicalDeviceSubgroupProperties")["subgroupSize"], e.subgroupSize);
    EXPECT_EQ(Device(profile)["features"]["VkPhysicalDeviceFeatures"]["geometryShader"], e.geometryShader);
    EXPECT_EQ(profile["crashtest"]["memory"]["heaps"].size(), e.heapCount);
  }
  json amd = Parse("amd-rdna2");
  EXPECT_EQ(Properties(amd, "VkPhysicalDeviceProperties")["deviceID"], 0x73BF);
  EXPECT_EQ(Properties(amd, "VkPhysicalDeviceDriverProperties")["driverID"], "VK_DRIVER_ID_MESA_RADV");
  EXPECT_EQ(Properties(amd, "VkPhysicalDeviceVulkan13Properties")["minSubgroupSize"], 32);
  json mali = Parse("mali-g78");
  const json& maliLimits = Properties(mali, "VkPhysicalDeviceProperties")["limits"];
  EXPECT_EQ(maliLimits["maxComputeSharedMemorySize"], 32768);
  EXPECT_EQ(maliLimits["maxComputeWorkGroupInvocations"], 512);
  EXPECT_TRUE(Device(mali)["formats"].contains("VK_FORMAT_ASTC_4x4_UNORM_BLOCK"));
  EXPECT_TRUE(Device(mali)["formats"].contains("VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK"));
  EXPECT_FALSE(Device(mali)["formats"].contains("VK_FORMAT_BC1_RGB_UNORM_BLOCK"));
  EXPECT_EQ(Device(mali)["features"]["VkPhysicalDeviceFeatures"]["tessellationShader"], false);
}

}  // namespace
}  // namespace crashtest
