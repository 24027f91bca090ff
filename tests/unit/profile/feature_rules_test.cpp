// The spec's Feature Requirements (device/feature_requirements.cpp) on every built-in device, and what the profile
// intersection does to a description that breaks them (profile/feature_rules.cpp). Issue 18.
#include "profile/feature_rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "device/driver_capabilities.h"
#include "profile/builtin_profiles.h"
#include "profile/config.h"
#include "profile/description_access.h"
#include "profile/driver_intersection.h"
#include "profile/extension_requirements_types.h"
#include "profile/profile_reader.h"
#include "profile/struct_table.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;

constexpr std::string_view kUpdateAfterBind[] = {
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingSampledImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageImageUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingUniformTexelBufferUpdateAfterBind",
    "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageTexelBufferUpdateAfterBind",
};

bool Dropped(const DeviceDescription& d, const std::string& what) {
  return std::any_of(d.dropped.begin(), d.dropped.end(), [&](const DroppedCapability& c) { return c.what == what; });
}
bool Added(const DeviceDescription& d, const std::string& what) {
  return std::any_of(d.added.begin(), d.added.end(), [&](const AddedCapability& c) { return c.what == what; });
}

// Clears the memory model features in both their structs, as a profile of a driver without them says.
void ClearMemoryModel(DeviceDescription& d) {
  const VkBool32 off = VK_FALSE;
  for (const char* s : {"VkPhysicalDeviceVulkan12Features", "VkPhysicalDeviceVulkanMemoryModelFeatures"})
    for (const char* m : {"vulkanMemoryModel", "vulkanMemoryModelDeviceScope"}) {
      std::byte* p = MemberBytes(d, s, m);
      ASSERT_NE(p, nullptr) << s << "." << m;
      std::memcpy(p, &off, sizeof off);
    }
}

// A built-in profile as read, before the intersection with a driver.
DeviceDescription ReadBuiltin(const std::string& name) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.source = "builtin:" + name;
  EXPECT_TRUE(ReadProfileText(*FindBuiltinProfile(name), options, d, diagnostics)) << AllMessages(diagnostics);
  return d;
}

// The crashtest driver without the named features.
struct DriverWithout {
  explicit DriverWithout(std::initializer_list<std::string_view> removed) {
    for (std::string_view f : Driver().features)
      if (std::find(removed.begin(), removed.end(), f) == removed.end()) features.push_back(f);
    capabilities = Driver();
    capabilities.features = features;
  }
  std::vector<std::string_view> features;
  DriverCapabilities capabilities{};
};

TEST(FeatureRules, EveryNameInTheRulesIsInTheRegistry) {
  for (const FeatureRequirement& r : FeatureRequirements()) {
    std::vector<std::string_view> names(r.conditions.begin(), r.conditions.end());
    names.insert(names.end(), r.required.begin(), r.required.end());
    EXPECT_FALSE(r.required.empty());
    for (std::string_view name : names) {
      if (IsExtensionName(name)) {
        EXPECT_NE(FindExtensionRequirements(name), nullptr) << name;
        continue;
      }
      const std::size_t dot = name.find('.');
      ASSERT_NE(dot, std::string_view::npos) << name;
      const StructInfo* s = FindStruct(name.substr(0, dot));
      ASSERT_NE(s, nullptr) << name;
      const MemberInfo* m = s->FindMember(name.substr(dot + 1));
      ASSERT_NE(m, nullptr) << name;
      EXPECT_EQ(m->kind, MemberKind::Bool32) << name;
    }
  }
}

// Every device the library ships, as an application sees it, keeps every promise its version, extensions and
// features make. Before update-after-bind was honoured, each advertised VK_EXT_descriptor_indexing without it.
TEST(FeatureRules, EveryBuiltinDeviceMeetsTheFeatureRequirements) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    DeviceDescription d;
    Diagnostics diagnostics;
    ASSERT_TRUE(LoadDevice("builtin:" + std::string(p.name), "", "", false, d, diagnostics)) << AllMessages(diagnostics);
    for (const std::string& unmet : UnmetFeatureRequirements(d)) ADD_FAILURE() << unmet;
    // Nothing the driver implements was lost to a broken rule either: the driver's lists are consistent.
    for (const DroppedCapability& c : d.dropped)
      EXPECT_EQ(c.reason.find("Feature Requirements"), std::string::npos) << c.what << ": " << c.reason;
  }
}

TEST(FeatureRules, EveryBuiltinDeviceOffersDescriptorIndexingWithUpdateAfterBind) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    DeviceDescription d;
    Diagnostics diagnostics;
    ASSERT_TRUE(LoadDevice("builtin:" + std::string(p.name), "", "", false, d, diagnostics));
    EXPECT_TRUE(d.HasExtension("VK_EXT_descriptor_indexing"));
    EXPECT_TRUE(FeatureSupported(d, "VkPhysicalDeviceVulkan12Features.descriptorIndexing"));
    for (std::string_view f : kUpdateAfterBind) EXPECT_TRUE(FeatureSupported(d, f)) << f;
    EXPECT_TRUE(FeatureSupported(
        d, "VkPhysicalDeviceInlineUniformBlockFeatures.descriptorBindingInlineUniformBlockUpdateAfterBind"));
    EXPECT_EQ(VK_API_VERSION_MINOR(d.properties.apiVersion), 3u);
  }
}

// A driver without update-after-bind may not advertise the extension nor the descriptorIndexing feature; the
// individual descriptor indexing features it does honour stay.
TEST(FeatureRules, WithoutUpdateAfterBindDescriptorIndexingGoes) {
  DriverWithout driver({kUpdateAfterBind[0], kUpdateAfterBind[1]});
  DeviceDescription d = ReadBuiltin("default");
  IntersectWithDriver(d, driver.capabilities);
  EXPECT_FALSE(d.HasExtension("VK_EXT_descriptor_indexing"));
  EXPECT_TRUE(Dropped(d, "extension VK_EXT_descriptor_indexing"));
  EXPECT_FALSE(FeatureSupported(d, "VkPhysicalDeviceVulkan12Features.descriptorIndexing"));
  EXPECT_TRUE(FeatureSupported(d, "VkPhysicalDeviceDescriptorIndexingFeatures.runtimeDescriptorArray"));
  // The inline uniform block's update-after-bind needed descriptor indexing only; it may stay.
  EXPECT_TRUE(d.HasExtension("VK_EXT_inline_uniform_block"));
  EXPECT_TRUE(UnmetFeatureRequirements(d).empty());
  EXPECT_EQ(VK_API_VERSION_MINOR(d.properties.apiVersion), 3u);  // descriptorIndexing is optional in every version
}

// "storageBuffer16BitAccess, if uniformAndStorageBuffer16BitAccess is enabled": a feature that needs another goes
// with it, and so does the extension that promises it.
TEST(FeatureRules, AFeatureGoesWithTheFeatureItNeeds) {
  DriverWithout driver({"VkPhysicalDevice16BitStorageFeatures.storageBuffer16BitAccess"});
  DeviceDescription d = ReadBuiltin("default");
  ASSERT_TRUE(FeatureSupported(d, "VkPhysicalDevice16BitStorageFeatures.uniformAndStorageBuffer16BitAccess"));
  IntersectWithDriver(d, driver.capabilities);
  EXPECT_FALSE(FeatureSupported(d, "VkPhysicalDevice16BitStorageFeatures.uniformAndStorageBuffer16BitAccess"));
  EXPECT_FALSE(FeatureSupported(d, "VkPhysicalDeviceVulkan11Features.uniformAndStorageBuffer16BitAccess"));
  EXPECT_TRUE(Dropped(d, "feature VkPhysicalDevice16BitStorageFeatures.uniformAndStorageBuffer16BitAccess"));
  EXPECT_FALSE(d.HasExtension("VK_KHR_16bit_storage"));
  EXPECT_TRUE(UnmetFeatureRequirements(d).empty());
}

// A profile's 1.3 device without a feature 1.3 makes mandatory (what a real driver's profile may say: issue 18
// found devices reporting 1.3 without the memory model) gets it when the driver honours it...
TEST(FeatureRules, AVersionsMandatoryFeatureIsEnabledWhenTheDriverHonoursIt) {
  DeviceDescription d = ReadBuiltin("default");
  ClearMemoryModel(d);
  IntersectWithDriver(d);
  EXPECT_EQ(VK_API_VERSION_MINOR(d.properties.apiVersion), 3u);
  EXPECT_TRUE(FeatureSupported(d, "VkPhysicalDeviceVulkan12Features.vulkanMemoryModel"));
  EXPECT_TRUE(Added(d, "feature VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel"));
  EXPECT_TRUE(UnmetFeatureRequirements(d).empty());
}

// ... and reports the version below when the driver does not.
TEST(FeatureRules, AVersionWithoutItsMandatoryFeaturesIsLowered) {
  DriverWithout driver({"VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel",
                        "VkPhysicalDeviceVulkan12Features.vulkanMemoryModel"});
  DeviceDescription d = ReadBuiltin("default");
  ClearMemoryModel(d);
  IntersectWithDriver(d, driver.capabilities);
  EXPECT_EQ(VK_API_VERSION_MINOR(d.properties.apiVersion), 2u);
  EXPECT_TRUE(Dropped(d, "apiVersion 1.3 (reporting 1.2)"));
  EXPECT_EQ(d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES), nullptr);
  EXPECT_TRUE(UnmetFeatureRequirements(d).empty());
}

// A profile that lists an extension promises the features the spec attaches to it.
TEST(FeatureRules, AnExtensionsFeaturesAreEnabledWhenTheDriverHonoursThem) {
  DeviceDescription d = ReadBuiltin("default");
  std::byte* p = MemberBytes(d, "VkPhysicalDeviceDescriptorIndexingFeatures", "descriptorBindingStorageImageUpdateAfterBind");
  ASSERT_NE(p, nullptr);
  const VkBool32 off = VK_FALSE;
  std::memcpy(p, &off, sizeof off);
  std::memcpy(MemberBytes(d, "VkPhysicalDeviceVulkan12Features", "descriptorBindingStorageImageUpdateAfterBind"), &off,
              sizeof off);
  IntersectWithDriver(d);
  EXPECT_TRUE(d.HasExtension("VK_EXT_descriptor_indexing"));
  EXPECT_TRUE(FeatureSupported(d, "VkPhysicalDeviceDescriptorIndexingFeatures.descriptorBindingStorageImageUpdateAfterBind"));
  EXPECT_TRUE(UnmetFeatureRequirements(d).empty());
}

// VkPhysicalDeviceVulkanMemoryModelFeatures is an individual struct promoted to 1.2 like any other: the value a
// profile gives in VkPhysicalDeviceVulkan12Features is the value it reports (its name starts like the aggregates',
// which once kept it out of the synonym table).
TEST(FeatureRules, TheMemoryModelStructAgreesWithTheVulkan12Aggregate) {
  DeviceDescription d = ReadBuiltin("default");
  const StructBlob* blob = d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES);
  ASSERT_NE(blob, nullptr);
  const auto* model = static_cast<const VkPhysicalDeviceVulkanMemoryModelFeatures*>(blob->data());
  EXPECT_EQ(model->vulkanMemoryModel, VK_TRUE);
  EXPECT_EQ(model->vulkanMemoryModelDeviceScope, VK_TRUE);
  EXPECT_EQ(model->vulkanMemoryModelAvailabilityVisibilityChains, VK_TRUE);
}

}  // namespace
}  // namespace crashtest
