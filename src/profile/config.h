// The configuration file named by CRASHTEST_CONFIG: the devices to emulate (in order), the fault plan and the
// options. See docs/configuration.md and json/schema/config.schema.json.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "device/device_description.h"
#include "fault/fault_plan.h"
#include "profile/dump_options.h"
#include "profile/execution_options.h"
#include "profile/presentation_options.h"
#include "profile/diagnostics.h"

namespace crashtest {

struct ConfigurationResult {
  std::string path;  // the configuration file, "" when none was given
  std::vector<DeviceDescription> devices;  // in configuration order, already intersected with the driver
  nlohmann::json faults = nlohmann::json::array();    // raw "faults"
  FaultPlan plan;  // "faults", validated (src/fault/plan_reader.h)
  nlohmann::json options = nlohmann::json::object();  // raw "options"
  ExecutionOptions execution;  // "options" that govern shader execution
  DumpOptions dump;            // "options" that govern crash dumps
  PresentationOptions presentation;  // "options" that govern swapchains (docs/wsi.md)
  Diagnostics diagnostics;
};

// The environment variable naming the configuration file.
inline constexpr const char* kConfigEnvironmentVariable = "CRASHTEST_CONFIG";

// Reads CRASHTEST_CONFIG (or, when unset or empty, configures the one device "builtin:default"). False when the
// configuration has errors: the driver then fails vkCreateInstance with VK_ERROR_INITIALIZATION_FAILED.
bool LoadConfiguration(ConfigurationResult& out);
// Reads one configuration file (`crashtest check FILE [--strict]`).
bool LoadConfigurationFile(const std::string& path, bool strict, ConfigurationResult& out);
// The same for a configuration already in memory (tests/fuzz): `path` names it in messages, and relative profile
// paths are resolved against its directory.
bool LoadConfigurationText(const std::string& path, std::string_view text, bool strict, ConfigurationResult& out);
// Loads one device reference as a configuration entry does: "builtin:NAME" or a profile path (relative paths
// against `baseDirectory`), optionally selecting an entry of the profile's "profiles" section.
// Built-in devices are read once per process and then copied from a cache.
bool LoadDevice(const std::string& reference, const std::string& profileName, const std::string& baseDirectory,
                bool strict, DeviceDescription& out, Diagnostics& diagnostics);
// The same without the cache: always reads and intersects.
bool ReadDevice(const std::string& reference, const std::string& profileName, const std::string& baseDirectory,
                bool strict, DeviceDescription& out, Diagnostics& diagnostics);

}  // namespace crashtest
