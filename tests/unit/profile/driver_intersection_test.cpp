#include "profile/driver_intersection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "profile/config.h"
#include "profile/profile_reader.h"
#include "profile/struct_table.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;
using test::Member;

constexpr VkExtensionProperties kExtensions[] = {{"VK_KHR_driver_properties", 1}, {"VK_KHR_timeline_semaphore", 1}};
constexpr std::string_view kFeatures[] = {"VkPhysicalDeviceFeatures.fullDrawIndexUint32",
                                          "VkPhysicalDeviceVulkan12Features.timelineSemaphore",
                                          "VkPhysicalDeviceMultiviewFeatures.multiview"};

// A driver that implements Vulkan 1.1, two extensions and three features (multiview: 1.1 makes it mandatory, so the
// intersection enables it on a 1.1 device whose profile is silent).
const DriverCapabilities kDriver{VK_MAKE_API_VERSION(0, 1, 1, 5), kExtensions, {}, kFeatures};

bool Dropped(const DeviceDescription& d, const std::string& what) {
  return std::any_of(d.dropped.begin(), d.dropped.end(), [&](const DroppedCapability& c) { return c.what == what; });
}

DeviceDescription LoadMinimal() {
  DeviceDescription d;
  Diagnostics diagnostics;
  EXPECT_TRUE(ReadProfileFile(DataPath("profiles/minimal-discrete.json"), {}, d, diagnostics))
      << AllMessages(diagnostics);
  return d;
}

TEST(DriverIntersection, LowersApiVersionAndKeepsImplementedExtensionsAtTheLowerSpecVersion) {
  DeviceDescription d = LoadMinimal();
  IntersectWithDriver(d, kDriver);
  EXPECT_EQ(d.properties.apiVersion, VK_MAKE_API_VERSION(0, 1, 1, 5));
  EXPECT_TRUE(Dropped(d, "apiVersion 1.2.198 (reporting 1.1.5)"));
  ASSERT_EQ(d.extensions.size(), 2u);
  EXPECT_EQ(d.ExtensionSpecVersion("VK_KHR_timeline_semaphore"), 1u);  // min(profile 2, driver 1)
}

TEST(DriverIntersection, ClearsUnimplementedFeaturesAndHonoursSynonyms) {
  DeviceDescription d = LoadMinimal();
  IntersectWithDriver(d, kDriver);
  EXPECT_EQ(d.features.fullDrawIndexUint32, VK_TRUE);
  EXPECT_EQ(d.features.geometryShader, VK_FALSE);
  EXPECT_TRUE(Dropped(d, "feature VkPhysicalDeviceFeatures.geometryShader"));
  // Listed only under the Vulkan12 name, but the individual struct is the same feature.
  EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceTimelineSemaphoreFeatures", "timelineSemaphore"), VK_TRUE);
  // Vulkan 1.2 aggregates are not provided by a 1.1 device without an extension: dropped.
  EXPECT_EQ(d.FindFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES), nullptr);
  EXPECT_TRUE(Dropped(d, "struct VkPhysicalDeviceVulkan12Features"));
  // Still provided by VK_KHR_driver_properties.
  EXPECT_NE(d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES), nullptr);
}

TEST(DriverIntersection, DropsUnimplementedExtensionsAndQueueFlags) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadProfileFile(DataPath("profiles/llvmpipe-mesa-22.3.6.json"), {}, d, diagnostics));
  IntersectWithDriver(d, kDriver);
  EXPECT_FALSE(d.HasExtension("VK_EXT_robustness2"));
  EXPECT_TRUE(Dropped(d, "extension VK_EXT_robustness2"));
  EXPECT_EQ(d.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT), nullptr);
  EXPECT_TRUE(Dropped(d, "struct VkPhysicalDeviceRobustness2PropertiesEXT"));

  DeviceDescription m = LoadMinimal();
  IntersectWithDriver(m, kDriver);
  EXPECT_EQ(m.queueFamilies[0].queueFlags & VK_QUEUE_SPARSE_BINDING_BIT, 0u);
  EXPECT_NE(m.queueFamilies[0].queueFlags & VK_QUEUE_GRAPHICS_BIT, 0u);
  EXPECT_TRUE(Dropped(m, "queue family 0 VK_QUEUE_SPARSE_BINDING_BIT"));
  for (const DroppedCapability& c : m.dropped) EXPECT_FALSE(c.reason.empty()) << c.what;
}

// The profile's bits the driver lacks go; the bits the spec's Required Format Support makes mandatory are added
// (format_rules.cpp), and only those the driver implements.
TEST(DriverIntersection, MasksFormatFeaturesWithTheDriversFormatTable) {
  DeviceDescription d = LoadMinimal();
  const FormatSupport before = d.formats.at(VK_FORMAT_R8G8B8A8_UNORM);
  IntersectWithDriver(d, kDriver);
  const FormatSupport mine = kDriver.FormatFeatures(VK_FORMAT_R8G8B8A8_UNORM);
  const VkFormatFeatureFlags2 after = d.formats.at(VK_FORMAT_R8G8B8A8_UNORM).optimalTilingFeatures;
  EXPECT_EQ(after & ~mine.optimalTilingFeatures, 0u);
  EXPECT_EQ(after & before.optimalTilingFeatures, before.optimalTilingFeatures & mine.optimalTilingFeatures);
  EXPECT_NE(after & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT, 0u);  // mandatory, not in the profile
}

// VK_KHR_dynamic_rendering requires VK_KHR_depth_stencil_resolve (vk.xml); a 1.1 device that cannot advertise the
// latter must not advertise the former. VK_KHR_create_renderpass2's own prerequisites (multiview, maintenance2) are
// core in 1.1, so it stays.
TEST(DriverIntersection, DropsExtensionsWhosePrerequisitesAreNotAdvertised) {
  constexpr VkExtensionProperties extensions[] = {{"VK_KHR_create_renderpass2", 1}, {"VK_KHR_dynamic_rendering", 1}};
  const DriverCapabilities driver{VK_MAKE_API_VERSION(0, 1, 1, 0), extensions, {}, kFeatures};
  DeviceDescription d = LoadMinimal();
  d.extensions = {{"VK_KHR_create_renderpass2", 1}, {"VK_KHR_dynamic_rendering", 1}};
  IntersectWithDriver(d, driver);
  EXPECT_TRUE(d.HasExtension("VK_KHR_create_renderpass2"));
  EXPECT_FALSE(d.HasExtension("VK_KHR_dynamic_rendering"));
  auto it = std::find_if(d.dropped.begin(), d.dropped.end(),
                         [](const DroppedCapability& c) { return c.what == "extension VK_KHR_dynamic_rendering"; });
  ASSERT_NE(it, d.dropped.end());
  EXPECT_EQ(it->reason, "requires VK_KHR_depth_stencil_resolve, not advertised");

  // With the prerequisite advertised too, both stay (with the feature the extension promises: Feature
  // Requirements, feature_rules.cpp).
  constexpr VkExtensionProperties more[] = {{"VK_KHR_create_renderpass2", 1},
                                            {"VK_KHR_depth_stencil_resolve", 1},
                                            {"VK_KHR_dynamic_rendering", 1}};
  constexpr std::string_view richerFeatures[] = {"VkPhysicalDeviceMultiviewFeatures.multiview",
                                                 "VkPhysicalDeviceDynamicRenderingFeatures.dynamicRendering"};
  const DriverCapabilities richer{VK_MAKE_API_VERSION(0, 1, 1, 0), more, {}, richerFeatures};
  DeviceDescription e = LoadMinimal();
  e.extensions = {{"VK_KHR_create_renderpass2", 1}, {"VK_KHR_depth_stencil_resolve", 1},
                  {"VK_KHR_dynamic_rendering", 1}};
  const StructInfo* dynamicRendering = FindStruct("VkPhysicalDeviceDynamicRenderingFeatures");
  ASSERT_NE(dynamicRendering, nullptr);
  const VkBool32 on = VK_TRUE;
  std::memcpy(StructBytes(e, *dynamicRendering, /*create=*/true) + dynamicRendering->FindMember("dynamicRendering")->offset,
              &on, sizeof on);
  IntersectWithDriver(e, richer);
  EXPECT_TRUE(e.HasExtension("VK_KHR_dynamic_rendering"));
}

// An extension with requiresCore above the reported version goes (VK_KHR_maintenance4 needs Vulkan 1.1).
TEST(DriverIntersection, DropsExtensionsThatNeedAHigherCoreVersion) {
  constexpr VkExtensionProperties extensions[] = {{"VK_KHR_maintenance4", 2}};
  const DriverCapabilities driver{VK_MAKE_API_VERSION(0, 1, 0, 0), extensions, {}, kFeatures};
  DeviceDescription d = LoadMinimal();
  d.extensions = {{"VK_KHR_maintenance4", 2}};
  IntersectWithDriver(d, driver);
  EXPECT_FALSE(d.HasExtension("VK_KHR_maintenance4"));
  EXPECT_TRUE(Dropped(d, "extension VK_KHR_maintenance4"));
}

}  // namespace
}  // namespace crashtest

namespace crashtest {
namespace {

// Required Limits (issue 18): a limit tied to a feature the driver clears takes the spec's "unsupported" value. The
// built-in default device's profile says 16x anisotropy, but crashtest does not filter anisotropically, so it reports
// 1.0; several viewports (multiViewport), points and lines, which it supports, keep the profile's 16 viewports and
// ranges (2047.9375-pixel points, 64-pixel lines).
TEST(DriverIntersection, LimitsOfUnsupportedFeaturesTakeTheSpecsUnsupportedValues) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(LoadDevice("builtin:default", "", "", false, d, diagnostics)) << AllMessages(diagnostics);
  const VkPhysicalDeviceLimits& l = d.properties.limits;
  EXPECT_EQ(d.features.samplerAnisotropy, VK_FALSE);
  EXPECT_EQ(l.maxSamplerAnisotropy, 1.0f);
  EXPECT_EQ(d.features.multiViewport, VK_TRUE);
  EXPECT_EQ(l.maxViewports, 16u);
  EXPECT_EQ(d.features.largePoints, VK_TRUE);
  EXPECT_EQ(d.features.wideLines, VK_TRUE);
  EXPECT_EQ(l.pointSizeRange[1], 2047.9375f);
  EXPECT_EQ(l.lineWidthRange[1], 64.0f);
  const bool said = std::any_of(d.dropped.begin(), d.dropped.end(), [](const auto& entry) {
    return entry.what.find("maxSamplerAnisotropy") != std::string::npos;
  });
  EXPECT_TRUE(said);
}

// The interpreter rounds to nearest even and keeps denormals: the built-in default device's profile promises
// flush-to-zero and round-toward-zero too, which the intersection takes back in the 1.2 aggregate and in the
// float-controls struct, keeping what the interpreter does.
TEST(DriverIntersection, FloatControlsPromiseOnlyWhatTheInterpreterDoes) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(LoadDevice("builtin:default", "", "", false, d, diagnostics)) << AllMessages(diagnostics);
  EXPECT_TRUE(d.HasExtension("VK_KHR_shader_float_controls") || d.properties.apiVersion >= VK_API_VERSION_1_2);
  for (const char* s : {"VkPhysicalDeviceVulkan12Properties", "VkPhysicalDeviceFloatControlsProperties"}) {
    if (FindStruct(s) == nullptr) continue;
    const VkStructureType sType = FindStruct(s)->sType;
    if (d.FindProperties(sType) == nullptr) continue;
    for (const char* width : {"Float16", "Float32", "Float64"}) {
      EXPECT_EQ(Member<VkBool32>(d, s, std::string("shaderDenormFlushToZero") + width), VK_FALSE) << s << width;
      EXPECT_EQ(Member<VkBool32>(d, s, std::string("shaderRoundingModeRTZ") + width), VK_FALSE) << s << width;
      EXPECT_EQ(Member<VkBool32>(d, s, std::string("shaderRoundingModeRTE") + width), VK_TRUE) << s << width;
      EXPECT_EQ(Member<VkBool32>(d, s, std::string("shaderDenormPreserve") + width), VK_TRUE) << s << width;
    }
  }
  EXPECT_TRUE(Dropped(d, "property VkPhysicalDeviceVulkan12Properties.shaderRoundingModeRTZFloat32"));
}

}  // namespace
}  // namespace crashtest
