#include "profile/config.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "device/driver_capabilities.h"
#include "profile/builtin_profiles.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;

TEST(Config, LoadsDevicesInOrderWithRelativePathsAndKeepsFaultsAndOptions) {
  ConfigurationResult result;
  ASSERT_TRUE(LoadConfigurationFile(DataPath("configs/two-devices.json"), false, result))
      << AllMessages(result.diagnostics);
  ASSERT_EQ(result.devices.size(), 2u);
  EXPECT_STREQ(result.devices[0].properties.deviceName, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(result.devices[0].source, DataPath("profiles/llvmpipe-mesa-22.3.6.json"));
  EXPECT_STREQ(result.devices[1].properties.deviceName, "Hand-written Discrete GPU");
  EXPECT_EQ(result.devices[1].profileName, "VP_TEST_baseline_only");
  // Intersected with the driver: nothing it does not implement is left.
  EXPECT_FALSE(result.devices[0].dropped.empty());
  for (const VkExtensionProperties& e : result.devices[0].extensions)
    EXPECT_TRUE(Driver().ImplementsExtension(e.extensionName)) << e.extensionName;
  ASSERT_TRUE(result.faults.is_array());
  ASSERT_EQ(result.faults.size(), 1u);
  EXPECT_EQ(result.faults[0]["id"], "later");
  EXPECT_EQ(result.options["computeThreads"], 2);
  EXPECT_EQ(result.execution.computeThreads, 2u);
  // Execution options not given keep their documented defaults.
  EXPECT_EQ(result.execution.shaderFaults, ShaderFaultMode::Lose);
  EXPECT_EQ(result.execution.shaderTimeoutMs, 10000u);
  EXPECT_EQ(result.execution.stuckWaitMs, 10000u);
  EXPECT_EQ(result.execution.stuckWaits, StuckWaitMode::Log);
}

TEST(Config, WithoutConfigurationTheBuiltinDefaultDevice) {
  if (!FindBuiltinProfile("default")) GTEST_SKIP() << "no built-in default profile in this build";
  ::unsetenv(kConfigEnvironmentVariable);
  ConfigurationResult result;
  ASSERT_TRUE(LoadConfiguration(result)) << AllMessages(result.diagnostics);
  ASSERT_EQ(result.devices.size(), 1u);
  EXPECT_EQ(result.devices[0].source, "builtin:default");
  EXPECT_TRUE(result.faults.empty());
}

TEST(Config, EnvironmentNamesTheFile) {
  ::setenv(kConfigEnvironmentVariable, DataPath("configs/bad-faults-not-array.json").c_str(), 1);
  ConfigurationResult result;
  EXPECT_FALSE(LoadConfiguration(result));
  EXPECT_TRUE(result.diagnostics.HasErrors());
  EXPECT_EQ(result.path, DataPath("configs/bad-faults-not-array.json"));
  ::unsetenv(kConfigEnvironmentVariable);
}

TEST(Config, UnknownBuiltinNamesTheAvailableOnes) {
  DeviceDescription d;
  Diagnostics diagnostics;
  EXPECT_FALSE(LoadDevice("builtin:no-such-gpu", "", "", false, d, diagnostics));
  ASSERT_EQ(diagnostics.Items().size(), 1u);
  EXPECT_EQ(diagnostics.Items()[0].Format().rfind("builtin:no-such-gpu: no built-in device \"no-such-gpu\" (available: ", 0),
            0u)
      << diagnostics.Items()[0].Format();
}

}  // namespace
}  // namespace crashtest
