// What real exports and Khronos profiles contain, read as users expect (issue 19): unprefixed enum names and
// single flag bits from vulkaninfo --json, profiles without identity, misspelt extension names, a profile file
// as the whole configuration, and the fault and statistics extensions on every device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "profile/builtin_profiles.h"
#include "profile/config.h"
#include "profile/default_identity.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;
using test::Member;

std::size_t CountContaining(const Diagnostics& diagnostics, Severity severity, const std::string& text) {
  return static_cast<std::size_t>(std::count_if(diagnostics.Items().begin(), diagnostics.Items().end(), [&](const Diagnostic& d) {
    return d.severity == severity && d.Format().find(text) != std::string::npos;
  }));
}

bool Added(const DeviceDescription& d, const std::string& extension) {
  return std::any_of(d.added.begin(), d.added.end(),
                     [&](const AddedCapability& c) { return c.what == "extension " + extension; });
}

TEST(RealExports, UnprefixedNamesAndSingleFlagBitsAreReadWithANote) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadProfileFile(DataPath("profiles/vulkaninfo-unprefixed.json"), {}, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_EQ(diagnostics.Count(Severity::Error), 0u) << AllMessages(diagnostics);
  // Its single-name sample counts are below the spec's Required Limits (1 | 4): said, not refused.
  EXPECT_EQ(diagnostics.Count(Severity::Warning), 2u) << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Warning, "framebufferDepthSampleCounts is 1; every device sets "
                                                            "at least the bits 5 (Required Limits)"),
            1u)
      << AllMessages(diagnostics);
  EXPECT_EQ(d.properties.deviceType, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  EXPECT_EQ(d.properties.limits.framebufferColorSampleCounts, VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT);
  EXPECT_EQ(d.properties.limits.framebufferDepthSampleCounts, VK_SAMPLE_COUNT_1_BIT);
  EXPECT_EQ(d.properties.limits.sampledImageColorSampleCounts, VK_SAMPLE_COUNT_4_BIT);
  EXPECT_EQ(Member<VkSampleCountFlagBits>(d, "VkPhysicalDeviceFragmentShadingRatePropertiesKHR",
                                          "maxFragmentShadingRateRasterizationSamples"),
            VK_SAMPLE_COUNT_16_BIT);
  ASSERT_EQ(d.queueFamilies.size(), 1u);
  EXPECT_EQ(d.queueFamilies[0].queueFlags, VK_QUEUE_COMPUTE_BIT);
  // Each lenient reading is said once, at info level, with its JSON path.
  EXPECT_EQ(CountContaining(diagnostics, Severity::Info,
                            "maxFragmentShadingRateRasterizationSamples: \"SAMPLE_COUNT_16_BIT\" read as"),
            1u)
      << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Info, "queueFlags: \"QUEUE_COMPUTE_BIT\" read as"), 1u)
      << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Info, "framebufferDepthSampleCounts: a single"), 1u)
      << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Info, "framebufferColorSampleCounts[0]"), 1u)
      << AllMessages(diagnostics);
  for (const Diagnostic& n : diagnostics.Items())
    if (n.severity != Severity::Warning) {
      EXPECT_EQ(n.Format().rfind("note: ", 0), 0u) << n.Format();
    }
}

TEST(RealExports, WhatIsReallyWrongStaysAnError) {
  DeviceDescription d;
  Diagnostics diagnostics;
  EXPECT_FALSE(ReadDevice(DataPath("profiles/bad-unprefixed-typo.json"), "", "", false, d, diagnostics));
  const std::string all = AllMessages(diagnostics);
  EXPECT_NE(all.find("framebufferColorSampleCounts: unknown VkSampleCountFlagBits name \"SAMPLE_COUNT_3_BIT\" "
                     "(did you mean"),
            std::string::npos)
      << all;
  // A real bit of the wrong type is no sample count, with or without its prefix.
  EXPECT_NE(all.find("framebufferDepthSampleCounts[0]: unknown VkSampleCountFlagBits name \"QUEUE_COMPUTE_BIT\""),
            std::string::npos)
      << all;
}

TEST(RealExports, ProfileWithoutIdentityGetsCrashtestsOwn) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/roadmap-no-identity.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_STREQ(d.properties.deviceName, "crashtest: VP_KHR_roadmap_2022");
  EXPECT_EQ(d.properties.vendorID, kCrashtestVendorId);
  EXPECT_NE(d.properties.deviceID, 0u);
  EXPECT_EQ(d.properties.deviceType, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  EXPECT_EQ(Member<uint32_t>(d, "VkPhysicalDeviceDriverProperties", "driverID"), kCrashtestDriverId);
  EXPECT_EQ(Member<uint32_t>(d, "VkPhysicalDeviceVulkan12Properties", "driverID"), kCrashtestDriverId);
  const char* driverName = reinterpret_cast<const char*>(MemberBytes(d, "VkPhysicalDeviceDriverProperties", "driverName"));
  ASSERT_NE(driverName, nullptr);
  EXPECT_STREQ(driverName, "crashtest");
  // The requirements themselves are kept, and a discrete GPU's memory follows from the type.
  EXPECT_EQ(d.properties.limits.maxImageDimension2D, 8192u);
  EXPECT_EQ(d.memory.memoryHeapCount, 2u);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Info, "deviceName \"crashtest: VP_KHR_roadmap_2022\""), 1u)
      << AllMessages(diagnostics);
}

TEST(RealExports, IdentityAProfileGivesIsKept) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/minimal-discrete.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_STREQ(d.properties.deviceName, "Hand-written Discrete GPU");
  EXPECT_EQ(d.properties.vendorID, 4318u);
  EXPECT_EQ(d.properties.deviceID, 8712u);
  EXPECT_EQ(d.properties.driverVersion, 42u);
  EXPECT_EQ(Member<uint32_t>(d, "VkPhysicalDeviceDriverProperties", "driverID"),
            static_cast<uint32_t>(VK_DRIVER_ID_NVIDIA_PROPRIETARY));
}

TEST(RealExports, MisspeltExtensionWarnsWithDidYouMeanAndFailsStrict) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/misspelled-extension.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Warning,
                            "extensions.VK_KHR_maintenence1: unknown extension VK_KHR_maintenence1 (not in the Vulkan "),
            1u)
      << AllMessages(diagnostics);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Warning, "did you mean VK_KHR_maintenance1?"), 1u)
      << AllMessages(diagnostics);
  // A name far from every known one is not "meant" as any of them.
  EXPECT_EQ(CountContaining(diagnostics, Severity::Warning, "unknown extension VK_VENDOR_from_the_future"), 1u);
  EXPECT_EQ(CountContaining(diagnostics, Severity::Warning, "VK_VENDOR_from_the_future (not in the Vulkan 1.3."), 1u);
  EXPECT_TRUE(d.HasExtension("VK_KHR_maintenance2"));
  EXPECT_FALSE(d.HasExtension("VK_KHR_maintenence1"));

  DeviceDescription strict;
  Diagnostics strictDiagnostics;
  EXPECT_FALSE(ReadDevice(DataPath("profiles/misspelled-extension.json"), "", "", true, strict, strictDiagnostics));
  EXPECT_EQ(CountContaining(strictDiagnostics, Severity::Error, "did you mean VK_KHR_maintenance1?"), 1u)
      << AllMessages(strictDiagnostics);
}

TEST(RealExports, EveryBuiltinDeviceOffersTheFaultAndStatisticsExtensions) {
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(std::string(p.name));
    DeviceDescription d;
    Diagnostics diagnostics;
    ASSERT_TRUE(ReadDevice("builtin:" + std::string(p.name), "", "", false, d, diagnostics))
        << AllMessages(diagnostics);
    for (const char* name : {"VK_EXT_device_fault", "VK_KHR_device_fault", "VK_KHR_pipeline_executable_properties"})
      EXPECT_TRUE(d.HasExtension(name)) << name;
    EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceFaultFeaturesEXT", "deviceFault"), VK_TRUE);
    EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDeviceFaultFeaturesEXT", "deviceFaultVendorBinary"), VK_TRUE);
    EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR", "pipelineExecutableInfo"),
              VK_TRUE);
  }
}

TEST(RealExports, AddedExtensionsAreRecordedWithTheirReason) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/llvmpipe-mesa-22.3.6.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_TRUE(Added(d, "VK_EXT_device_fault"));
  EXPECT_TRUE(Added(d, "VK_KHR_device_fault"));
  EXPECT_TRUE(Added(d, "VK_KHR_pipeline_executable_properties"));
  for (const AddedCapability& c : d.added) EXPECT_NE(c.reason.find("exactExtensions"), std::string::npos) << c.reason;
  EXPECT_EQ(Member<VkBool32>(d, "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR", "pipelineExecutableInfo"),
            VK_TRUE);
}

// lavapipe offers the full VK_KHR_variable_pointers; so does the interpreter (workgroup pointers, OpPtrEqual/OpPtrDiff,
// null pointers), so its export keeps variablePointers beside variablePointersStorageBuffer, in both structs.
TEST(RealExports, LavapipeKeepsBothVariablePointersFeatures) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/llvmpipe-mesa-22.3.6.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  for (const char* structure : {"VkPhysicalDeviceVariablePointersFeatures", "VkPhysicalDeviceVulkan11Features"}) {
    EXPECT_EQ(Member<VkBool32>(d, structure, "variablePointersStorageBuffer"), VK_TRUE) << structure;
    EXPECT_EQ(Member<VkBool32>(d, structure, "variablePointers"), VK_TRUE) << structure;
  }
  EXPECT_FALSE(std::any_of(d.dropped.begin(), d.dropped.end(), [](const DroppedCapability& c) {
    return c.what.find("variablePointers") != std::string::npos;
  }));
}

TEST(RealExports, ExactExtensionsEmulatesTheProfilesListAndSaysWhatWasNotAdded) {
  DeviceDescription d;
  Diagnostics diagnostics;
  ASSERT_TRUE(ReadDevice(DataPath("profiles/exact-extensions.json"), "", "", false, d, diagnostics))
      << AllMessages(diagnostics);
  EXPECT_TRUE(d.exactExtensions);
  EXPECT_TRUE(d.HasExtension("VK_EXT_device_fault"));  // the profile lists it
  EXPECT_FALSE(d.HasExtension("VK_KHR_device_fault"));
  EXPECT_FALSE(d.HasExtension("VK_KHR_pipeline_executable_properties"));
  // No extension is added (features and formats the spec makes mandatory may be).
  for (const AddedCapability& c : d.added) EXPECT_NE(c.what.rfind("extension ", 0), 0u) << c.what;
  const auto notAdded = [&](const std::string& name) {
    return std::any_of(d.dropped.begin(), d.dropped.end(), [&](const DroppedCapability& c) {
      return c.what == "extension " + name + " (not added)" && c.reason.find("exactExtensions") != std::string::npos;
    });
  };
  EXPECT_TRUE(notAdded("VK_KHR_device_fault"));
  EXPECT_TRUE(notAdded("VK_KHR_pipeline_executable_properties"));
  EXPECT_FALSE(notAdded("VK_EXT_device_fault"));
}

TEST(RealExports, ExactExtensionsMustBeABoolean) {
  DeviceDescription d;
  Diagnostics diagnostics;
  const std::string text = R"({"capabilities": {"d": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.1.0"}}}},
                               "crashtest": {"exactExtensions": "yes"}})";
  ProfileReadOptions options;
  options.source = "inline.json";
  EXPECT_FALSE(ReadProfileText(text, options, d, diagnostics));
  EXPECT_NE(AllMessages(diagnostics).find("inline.json: crashtest.exactExtensions: expected true or false, got \"yes\""),
            std::string::npos)
      << AllMessages(diagnostics);
}

TEST(RealExports, AProfileFileIsAConfigurationOfOneDevice) {
  ConfigurationResult result;
  ASSERT_TRUE(LoadConfigurationFile(DataPath("profiles/minimal-discrete.json"), false, result))
      << AllMessages(result.diagnostics);
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_STREQ(result.devices[0].properties.deviceName, "Hand-written Discrete GPU");
  EXPECT_EQ(result.devices[0].profileName, "VP_TEST_discrete");  // the first entry, as for a configuration entry
  EXPECT_TRUE(result.plan.faults.empty());

  ::setenv(kConfigEnvironmentVariable, DataPath("profiles/roadmap-no-identity.json").c_str(), 1);
  ConfigurationResult fromEnvironment;
  EXPECT_TRUE(LoadConfiguration(fromEnvironment)) << AllMessages(fromEnvironment.diagnostics);
  ::unsetenv(kConfigEnvironmentVariable);
  ASSERT_EQ(fromEnvironment.devices.size(), 1u);
  EXPECT_STREQ(fromEnvironment.devices[0].properties.deviceName, "crashtest: VP_KHR_roadmap_2022");

  // A broken profile is reported as the profile's problem, not as "unknown member capabilities".
  ConfigurationResult bad;
  EXPECT_FALSE(LoadConfigurationFile(DataPath("profiles/bad-limit-type.json"), false, bad));
  const std::string all = AllMessages(bad.diagnostics);
  EXPECT_EQ(all.find("unknown member"), std::string::npos) << all;
  EXPECT_NE(all.find("capabilities."), std::string::npos) << all;
}

TEST(RealExports, UnknownBuiltinSuggestsByTypoAndByPrefix) {
  const std::pair<std::string, std::string> kCases[] = {
      {"amd", "builtin:amd-rdna2"}, {"mali-g87", "builtin:mali-g78"}, {"defualt", "builtin:default"}};
  for (const auto& [name, suggestion] : kCases) {
    DeviceDescription d;
    Diagnostics diagnostics;
    EXPECT_FALSE(ReadDevice("builtin:" + name, "", "", false, d, diagnostics));
    EXPECT_NE(AllMessages(diagnostics).find("(did you mean " + suggestion + "?)"), std::string::npos)
        << AllMessages(diagnostics);
  }
}

}  // namespace
}  // namespace crashtest
