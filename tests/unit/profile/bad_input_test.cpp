// Every kind of bad input yields one message naming the file, the JSON path and what was expected.
#include <gtest/gtest.h>

#include "profile/config.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;

struct InlineCase {
  const char* what;
  const char* profile;
  const char* message;  // the exact (only) error
};

// A minimal valid frame around the part under test.
std::string Props(const std::string& inner) {
  return R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0", )" +
         inner + "}}}}}";
}

const InlineCase kInlineCases[] = {
    {"wrong type", R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"limits": {"maxImageDimension2D": "big"}}}}}})",
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.limits.maxImageDimension2D: expected an "
     "unsigned 32-bit integer, got \"big\""},
    {"out of range", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.vendorID: expected an unsigned 32-bit "
     "integer, got 4294967296 (out of range)"},
    {"unknown member", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.limits.maxImageDimension2d: unknown "
     "member of VkPhysicalDeviceLimits (did you mean \"maxImageDimension2D\"?)"},
    {"unknown enum", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.deviceType: unknown VkPhysicalDeviceType "
     "value \"VK_PHYSICAL_DEVICE_TYPE_GPU\" (did you mean \"VK_PHYSICAL_DEVICE_TYPE_CPU\"?)"},
    {"unknown flag", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.limits.framebufferColorSampleCounts[1]: "
     "unknown VkSampleCountFlagBits name \"VK_SAMPLE_COUNT_3_BIT\" (did you mean \"VK_SAMPLE_COUNT_1_BIT\"?)"},
    {"array length", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.limits.maxComputeWorkGroupSize: expected "
     "an array of 3 elements (an unsigned 32-bit integer), got 2 elements"},
    {"string too long", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceDriverProperties.driverName: expected a string of "
     "at most 255 bytes, got 300 bytes"},
    {"features struct under properties",
     R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.2.0"}, "VkPhysicalDeviceVulkan12Features": {}}}}})",
     "inline.json: capabilities.device.properties.VkPhysicalDeviceVulkan12Features: VkPhysicalDeviceVulkan12Features "
     "is not a properties struct (expected a struct that extends VkPhysicalDeviceProperties2)"},
    {"feature not a bool",
     R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0"}}, "features": {"VkPhysicalDeviceFeatures": {"geometryShader": 1}}}}})",
     "inline.json: capabilities.device.features.VkPhysicalDeviceFeatures.geometryShader: expected true or false, got 1"},
    {"bad extension version",
     R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0"}}, "extensions": {"VK_KHR_maintenance1": "2"}}}})",
     "inline.json: capabilities.device.extensions.VK_KHR_maintenance1: expected a spec version (an unsigned 32-bit "
     "integer), got \"2\""},
    {"bad apiVersion string", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.apiVersion: expected a version "
     "\"major.minor.patch\" or a number, got \"1.x\""},
    {"missing capabilities", R"({"profiles": {}})", "inline.json: capabilities: missing; expected an object of capability blocks"},
    {"unknown profile block",
     R"({"capabilities": {"a": {}}, "profiles": {"P": {"capabilities": ["b"]}}})",
     "inline.json: profiles.P.capabilities[0]: no capability block \"b\" in \"capabilities\""},
    {"crashtest key typo", nullptr,
     "inline.json: crashtest.machine.registerBudgt: unknown member (did you mean \"registerBudget\"?)"},
    {"heap index", nullptr,
     "inline.json: crashtest.memory.types[0].heapIndex: expected a heap index below 1, got 1"},
    {"conformance version", nullptr,
     "inline.json: crashtest.identity.conformanceVersion: expected a version \"major.minor.subminor.patch\" (each "
     "0-255), got \"1.3\""},
    {"timestamp clock", nullptr,
     "inline.json: crashtest.timestamps.clock: expected \"monotonic\" or \"simulated\", got \"gpu\""},
    {"timestamp cost", nullptr,
     "inline.json: crashtest.timestamps.commandNanoseconds: expected an unsigned integer (nanoseconds), got -5"},
    {"fault ring size", nullptr,
     "inline.json: crashtest.deviceFault.maxDeviceFaultCount: expected an integer from 1 to 1048576, got 0"},
    {"no queue families",
     R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0"}}, "queueFamiliesProperties": []}}})",
     "inline.json: capabilities.device.queueFamiliesProperties: expected at least one queue family, got an empty "
     "array (leave the member out for one universal queue)"},
    {"queue count 0",
     R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0"}}, "queueFamiliesProperties": [{"VkQueueFamilyProperties": {"queueFlags": ["VK_QUEUE_COMPUTE_BIT"], "queueCount": 0}}]}}})",
     "inline.json: capabilities.device.queueFamiliesProperties[0].VkQueueFamilyProperties.queueCount: expected at "
     "least 1 (each queue family must support at least one queue), got 0"},
    {"machine register budget 0", nullptr,
     "inline.json: crashtest.machine.registerBudget: expected a positive integer, got 0"},
    {"machine core count 0", nullptr, "inline.json: crashtest.machine.coreCount: expected a positive integer, got 0"},
    {"NUL in a string", nullptr,
     "inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.deviceName: a NUL character (\\u0000) "
     "in a string or name (names, texts and log lines end at it)"},
    {"malformed JSON", "{\n  \"capabilities\": {\n    \"a\": {},\n  }\n}",
     "inline.json:4:3: invalid JSON: syntax error while parsing object key - unexpected '}'; expected string literal"},
};

std::string CaseText(const InlineCase& c) {
  if (c.profile != nullptr) return c.profile;
  std::string what = c.what;
  if (what == "out of range") return Props(R"("vendorID": 4294967296)");
  if (what == "unknown member") return Props(R"("limits": {"maxImageDimension2d": 1})");
  if (what == "unknown enum") return Props(R"("deviceType": "VK_PHYSICAL_DEVICE_TYPE_GPU")");
  if (what == "unknown flag")
    return Props(R"("limits": {"framebufferColorSampleCounts": ["VK_SAMPLE_COUNT_1_BIT", "VK_SAMPLE_COUNT_3_BIT"]})");
  if (what == "array length") return Props(R"("limits": {"maxComputeWorkGroupSize": [1, 2]})");
  if (what == "string too long")
    return R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.2.0"}, "VkPhysicalDeviceDriverProperties": {"driverName": ")" +
           std::string(300, 'x') + "\"}}}}}";
  if (what == "bad apiVersion string")
    return R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.x"}}}}})";
  if (what == "crashtest key typo") return Props("") .insert(Props("").size() - 1, R"(, "crashtest": {"machine": {"registerBudgt": 1}})");
  if (what == "heap index")
    return Props("").insert(Props("").size() - 1,
                            R"(, "crashtest": {"memory": {"heaps": [{"size": 1024}], "types": [{"heapIndex": 1}]}})");
  if (what == "timestamp clock")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"timestamps": {"clock": "gpu"}})");
  if (what == "timestamp cost")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"timestamps": {"commandNanoseconds": -5}})");
  if (what == "fault ring size")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"deviceFault": {"maxDeviceFaultCount": 0}})");
  if (what == "machine register budget 0")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"machine": {"registerBudget": 0}})");
  if (what == "machine core count 0")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"machine": {"coreCount": 0}})");
  if (what == "NUL in a string") return Props(R"("deviceName": "GPU\u0000 hidden")");
  if (what == "conformance version")
    return Props("").insert(Props("").size() - 1, R"(, "crashtest": {"identity": {"conformanceVersion": "1.3"}})");
  return "";
}

TEST(BadInput, EachInlineCaseGivesExactlyItsMessage) {
  for (const InlineCase& c : kInlineCases) {
    std::string text = CaseText(c);
    // Props("") leaves a dangling ", " before the closing brace: drop it.
    if (auto pos = text.find(", }"); pos != std::string::npos) text.erase(pos, 2);
    DeviceDescription d;
    Diagnostics diagnostics;
    EXPECT_FALSE(ReadProfileText(text, {"inline.json", "", false}, d, diagnostics)) << c.what;
    ASSERT_EQ(diagnostics.Count(Severity::Error), 1u) << c.what << "\n" << text << "\n" << AllMessages(diagnostics);
    for (const Diagnostic& diag : diagnostics.Items()) {
      if (diag.severity == Severity::Error) {
        EXPECT_EQ(diag.Format(), c.message) << c.what;
      }
    }
  }
}

struct FileCase {
  const char* config;
  std::string message;
};

TEST(BadInput, EachBadConfigurationFileGivesItsMessage) {
  const std::string configs = DataPath("configs/");
  const std::string profiles = DataPath("profiles/");
  const FileCase kCases[] = {
      {"bad-missing-profile.json", profiles + "does-not-exist.json: cannot open (No such file or directory)"},
      {"bad-malformed.json",
       configs + "bad-malformed.json:4:3: invalid JSON: syntax error while parsing value - unexpected ']'; expected "
                 "'[', '{', or a literal"},
      {"bad-number-overflow.json",
       configs + "bad-number-overflow.json:3:24: invalid JSON: number overflow parsing '1e400' (a number must fit a "
                 "double)"},
      {"bad-faults-not-array.json", configs + "bad-faults-not-array.json: faults: expected an array of faults, got "
                                              "an object"},
      {"bad-options-not-object.json",
       configs + "bad-options-not-object.json: options: expected an object, got an array"},
      {"bad-shader-options.json",
       configs + "bad-shader-options.json: options.computeThreads: expected an integer from 0 to 1024, got -1"},
      {"bad-unknown-option.json",
       configs + "bad-unknown-option.json: options.computeThread: unknown option (did you mean \"computeThreads\"?); "
                 "the options are captureDirectory, captureEvery, captureLast, computeThreads, dumpDirectory, "
                 "dumpSizeLimit, presentRefreshRate, shaderFaults, shaderInstructionBudget, shaderTimeoutMs, "
                 "stuckWaitMs, stuckWaits"},
      {"bad-device-entry.json",
       configs + "bad-device-entry.json: devices[0].profil: unknown member (expected \"profile\" and optionally "
                 "\"name\")"},
      {"bad-unknown-top-level.json",
       configs + "bad-unknown-top-level.json: fault: unknown member (expected \"devices\", \"faults\" or \"options\")"},
      {"bad-profile-member.json",
       profiles + "bad-limit-type.json: capabilities.device.properties.VkPhysicalDeviceProperties.limits."
                  "maxImageDimension2D: expected an unsigned 32-bit integer, got \"big\""},
      {"bad-profile-name.json",
       profiles + "minimal-discrete.json: profiles: no profile \"VP_NOPE\" (available: VP_TEST_discrete, "
                  "VP_TEST_baseline_only)"},
  };
  for (const FileCase& c : kCases) {
    ConfigurationResult result;
    EXPECT_FALSE(LoadConfigurationFile(configs + c.config, false, result)) << c.config;
    ASSERT_FALSE(result.diagnostics.Items().empty()) << c.config;
    EXPECT_EQ(result.diagnostics.Items()[0].Format(), c.message) << c.config << "\n"
                                                                   << AllMessages(result.diagnostics);
  }
}

TEST(BadInput, EveryBadExecutionOptionIsNamed) {
  ConfigurationResult result;
  EXPECT_FALSE(LoadConfigurationFile(DataPath("configs/bad-shader-options.json"), false, result));
  const std::string all = AllMessages(result.diagnostics);
  EXPECT_NE(all.find("options.shaderTimeoutMs: expected an integer from 0 to 86400000, got 1.5"), std::string::npos)
      << all;
  EXPECT_NE(all.find("options.shaderFaults: expected \"lose\", \"masked\" or \"off\", got \"sometimes\""),
            std::string::npos)
      << all;
}

TEST(BadInput, NewerStructIsAWarningUnlessStrict) {
  const std::string config = DataPath("configs/newer-struct.json");
  const std::string expected =
      "warning: " + DataPath("profiles/newer-struct.json") +
      ": capabilities.device.features.VkPhysicalDeviceShaderObjectFeaturesEXT: unknown struct "
      "VkPhysicalDeviceShaderObjectFeaturesEXT (not in the Vulkan 1.3.239 registry; closest known: "
      "VkPhysicalDeviceShaderClockFeaturesKHR); skipped wherever it appears";
  ConfigurationResult lenient;
  ASSERT_TRUE(LoadConfigurationFile(config, false, lenient)) << AllMessages(lenient.diagnostics);
  // One warning; the only other message is the note naming the identity crashtest gave the identity-less profile.
  ASSERT_EQ(lenient.diagnostics.Count(Severity::Warning), 1u) << AllMessages(lenient.diagnostics);
  ASSERT_EQ(lenient.diagnostics.Count(Severity::Error), 0u) << AllMessages(lenient.diagnostics);
  EXPECT_EQ(lenient.diagnostics.Items()[0].Format(), expected);
  EXPECT_EQ(lenient.devices.size(), 1u);

  ConfigurationResult strict;
  EXPECT_FALSE(LoadConfigurationFile(config, true, strict));
  ASSERT_FALSE(strict.diagnostics.Items().empty());
  EXPECT_EQ(strict.diagnostics.Items()[0].severity, Severity::Error);
  EXPECT_EQ(strict.diagnostics.Items()[0].Format(), expected.substr(std::string("warning: ").size()));
}

}  // namespace
}  // namespace crashtest
