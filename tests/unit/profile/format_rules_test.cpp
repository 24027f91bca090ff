// The spec's Required Format Support (format/required_format_support.cpp, profile/format_rules.cpp): every
// built-in device, as the driver reports it, supports every mandatory format feature; what a profile omits and the
// driver implements is added. Issue 18.
#include "profile/format_rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>

#include "format/required_format_support.h"
#include "profile/builtin_profiles.h"
#include "profile/config.h"
#include "profile/driver_intersection.h"
#include "profile/feature_rules.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;

DeviceDescription Load(const std::string& name) {
  DeviceDescription d;
  Diagnostics diagnostics;
  EXPECT_TRUE(LoadDevice("builtin:" + name, "", "", false, d, diagnostics)) << AllMessages(diagnostics);
  return d;
}

FormatSupport Support(const DeviceDescription& d, VkFormat format) {
  auto it = d.formats.find(format);
  return it != d.formats.end() ? it->second : FormatSupport{};
}

TEST(FormatRules, EveryBuiltinDeviceHasTheRequiredFormatSupport) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    const DeviceDescription d = Load(std::string(p.name));
    for (const std::string& unmet : UnmetFormatRequirements(d)) ADD_FAILURE() << unmet;
  }
}

// The cases issue 18 found on the default device.
TEST(FormatRules, TheDefaultDeviceHasWhatTheIssueFoundMissing) {
  const DeviceDescription d = Load("default");
  ASSERT_TRUE(FeatureSupported(d, "VkPhysicalDeviceSamplerFilterMinmaxProperties.filterMinmaxSingleComponentFormats"));
  for (VkFormat f : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R16_SFLOAT, VK_FORMAT_R32_SFLOAT})
    EXPECT_NE(Support(d, f).optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT, 0u) << f;
  EXPECT_NE(Support(d, VK_FORMAT_A8B8G8R8_UNORM_PACK32).bufferFeatures & VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT,
            0u);
  // The packed formats are their R8G8B8A8 equivalents byte for byte: everything the table asks of either is there.
  const VkFormatFeatureFlags2 packed = Support(d, VK_FORMAT_A8B8G8R8_UNORM_PACK32).optimalTilingFeatures;
  for (const FormatRequirement& r : RequiredFormatSupport())
    if (r.format == VK_FORMAT_A8B8G8R8_UNORM_PACK32) {
      EXPECT_EQ(packed & r.optimal, r.optimal);
    }
}

// Every device samples one compressed family completely. A profile whose families crashtest cannot sample (here
// mali-g78 without its ETC2 and ASTC formats, as if it listed only those crashtest does not decode) gets the BC
// formats crashtest decodes, and textureCompressionBC.
TEST(FormatRules, ADeviceWithoutASampledFamilyGetsBc) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    const DeviceDescription d = Load(std::string(p.name));
    bool complete = false;
    for (std::span<const VkFormat> family : {BcFormats(), EtcFormats(), AstcFormats()})
      complete |= std::all_of(family.begin(), family.end(), [&](VkFormat f) {
        return (Support(d, f).optimalTilingFeatures & kCompressedFamilyFeatures) == kCompressedFamilyFeatures;
      });
    EXPECT_TRUE(complete);
  }
  DeviceDescription d;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.source = "builtin:mali-g78";
  ASSERT_TRUE(ReadProfileText(*FindBuiltinProfile("mali-g78"), options, d, diagnostics));
  for (std::span<const VkFormat> family : {EtcFormats(), AstcFormats()})
    for (VkFormat f : family) d.formats.erase(f);
  ASSERT_EQ(d.features.textureCompressionBC, VK_FALSE);
  IntersectWithDriver(d);
  EXPECT_EQ(d.features.textureCompressionBC, VK_TRUE);
  for (VkFormat f : BcFormats())
    EXPECT_EQ(Support(d, f).optimalTilingFeatures & kCompressedFamilyFeatures, kCompressedFamilyFeatures) << f;
  const bool said = std::any_of(d.added.begin(), d.added.end(), [](const AddedCapability& c) {
    return c.what == "feature VkPhysicalDeviceFeatures.textureCompressionBC";
  });
  EXPECT_TRUE(said);
  EXPECT_TRUE(UnmetFormatRequirements(d).empty());
}

// A mandatory bit the profile leaves out is added, and said.
TEST(FormatRules, AMissingMandatoryBitIsAddedAndSaid) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.source = "builtin:default";
  ASSERT_TRUE(ReadProfileText(*FindBuiltinProfile("default"), options, d, diagnostics));
  d.formats[VK_FORMAT_R8G8B8A8_UNORM].bufferFeatures &= ~VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT;
  d.formats.erase(VK_FORMAT_R16G16_SINT);
  IntersectWithDriver(d);
  EXPECT_NE(Support(d, VK_FORMAT_R8G8B8A8_UNORM).bufferFeatures & VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT, 0u);
  EXPECT_NE(Support(d, VK_FORMAT_R16G16_SINT).optimalTilingFeatures & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT, 0u);
  const bool said = std::any_of(d.added.begin(), d.added.end(), [](const AddedCapability& c) {
    return c.what.rfind("format features of VK_FORMAT_R16G16_SINT", 0) == 0;
  });
  EXPECT_TRUE(said);
  EXPECT_TRUE(UnmetFormatRequirements(d).empty());
}

}  // namespace
}  // namespace crashtest
