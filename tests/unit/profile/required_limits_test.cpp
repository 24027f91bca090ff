// The spec's Required Limits (profile/required_limits.cpp): a profile that states a limit no conformant device may
// report is warned about when it is read (an error under `crashtest check --strict`), and every built-in device,
// as the driver reports it, meets every limit. Issue 18.
#include "profile/required_limits.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "profile/builtin_profiles.h"
#include "profile/config.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;

// A small profile whose VkPhysicalDeviceProperties.limits and VkPhysicalDeviceFeatures are the given JSON.
std::string Profile(const std::string& limits, const std::string& features = "{}") {
  return R"({
  "capabilities": {"device": {
    "features": {"VkPhysicalDeviceFeatures": )" + features + R"(},
    "properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.3.239", "deviceName": "limits test",
                                                  "limits": )" + limits + R"(}}}},
  "profiles": {"VP_TEST": {"version": 1, "api-version": "1.3.239", "label": "t", "description": "t",
                           "capabilities": ["device"]}}
})";
}

bool Read(const std::string& text, bool strict, Diagnostics& diagnostics) {
  DeviceDescription d;
  ProfileReadOptions options;
  options.source = "limits.json";
  options.strict = strict;
  return ReadProfileText(text, options, d, diagnostics);
}

// The messages about one limit.
std::vector<Diagnostic> About(const Diagnostics& diagnostics, const std::string& limit) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : diagnostics.Items())
    if (d.path.find(limit) != std::string::npos) found.push_back(d);
  return found;
}

TEST(RequiredLimits, EveryBuiltinDeviceMeetsThem) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    DeviceDescription d;
    Diagnostics diagnostics;
    ASSERT_TRUE(LoadDevice("builtin:" + std::string(p.name), "", "", /*strict=*/true, d, diagnostics))
        << AllMessages(diagnostics);
    for (const LimitProblem& problem : CheckRequiredLimits(d)) ADD_FAILURE() << problem.path << ": " << problem.text;
  }
}

TEST(RequiredLimits, WhatNoDeviceMayReportIsWarnedAndAnErrorWhenStrict) {
  const std::string text = Profile(R"({"maxComputeWorkGroupInvocations": 64, "bufferImageGranularity": 262144,
                                       "minUniformBufferOffsetAlignment": 48, "maxComputeWorkGroupSize": [128, 128, 64]})");
  Diagnostics lenient;
  EXPECT_TRUE(Read(text, false, lenient)) << AllMessages(lenient);
  for (const char* limit : {"maxComputeWorkGroupInvocations", "bufferImageGranularity", "minUniformBufferOffsetAlignment"}) {
    const std::vector<Diagnostic> found = About(lenient, limit);
    ASSERT_EQ(found.size(), 1u) << limit << "\n" << AllMessages(lenient);
    EXPECT_EQ(found[0].severity, Severity::Warning) << limit;
  }
  EXPECT_NE(About(lenient, "maxComputeWorkGroupInvocations")[0].text.find("at least 128"), std::string::npos);
  EXPECT_NE(About(lenient, "minUniformBufferOffsetAlignment")[0].text.find("power of two"), std::string::npos);
  EXPECT_TRUE(About(lenient, "maxComputeWorkGroupSize").empty());  // exactly the spec's minimum

  Diagnostics strict;
  EXPECT_FALSE(Read(text, true, strict));
  EXPECT_EQ(About(strict, "maxComputeWorkGroupInvocations").at(0).severity, Severity::Error);
}

// A partial profile states a few limits; the others are not its claims and are not checked.
TEST(RequiredLimits, OnlyTheLimitsAProfileStatesAreChecked) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.strict = true;
  ASSERT_TRUE(ReadProfileFile(DataPath("profiles/minimal-discrete.json"), options, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_FALSE(CheckRequiredLimits(d).empty());  // checked whole, its zeros break the table
}

TEST(RequiredLimits, LimitsTiedToAFeatureAreCheckedWithTheFeature) {
  const std::string limits = R"({"maxTessellationPatchSize": 0, "maxSamplerAnisotropy": 1.0})";
  Diagnostics without;
  EXPECT_TRUE(Read(Profile(limits, R"({"tessellationShader": false, "samplerAnisotropy": false})"), true, without))
      << AllMessages(without);
  Diagnostics with;
  EXPECT_FALSE(Read(Profile(limits, R"({"tessellationShader": true, "samplerAnisotropy": true})"), true, with));
  EXPECT_EQ(About(with, "maxTessellationPatchSize").size(), 1u) << AllMessages(with);
  EXPECT_EQ(About(with, "maxSamplerAnisotropy").size(), 1u) << AllMessages(with);
}

// Rules between limits: footnote 2 (maxPerStageResources), one point size has granularity 0.0, the viewport bounds
// cover twice the viewport.
TEST(RequiredLimits, ConsistencyRules) {
  Diagnostics diagnostics;
  Read(Profile(R"({"maxPerStageResources": 40, "maxPerStageDescriptorUniformBuffers": 12,
                   "maxPerStageDescriptorStorageBuffers": 8, "maxPerStageDescriptorSampledImages": 16,
                   "maxPerStageDescriptorStorageImages": 4, "maxPerStageDescriptorInputAttachments": 4,
                   "maxColorAttachments": 4,
                   "pointSizeRange": [1.0, 1.0], "pointSizeGranularity": 0.0625,
                   "maxViewportDimensions": [16384, 16384], "viewportBoundsRange": [-16384, 16383]})"),
       false, diagnostics);
  EXPECT_EQ(About(diagnostics, "maxPerStageResources").size(), 1u) << AllMessages(diagnostics);  // 40 < min(48, 128)
  EXPECT_EQ(About(diagnostics, "pointSizeGranularity").size(), 1u) << AllMessages(diagnostics);
  EXPECT_EQ(About(diagnostics, "viewportBoundsRange").size(), 2u) << AllMessages(diagnostics);  // [-32768, 32767]
}

}  // namespace
}  // namespace crashtest
