// The configuration `crashtest run` hands the driver: --config FILE (or $CRASHTEST_CONFIG), its devices
// replaced by the --device options and its faults extended by the --fault options, with relative profile paths
// made absolute so the composed file works from any folder.
#pragma once

#include <nlohmann/json.hpp>

#include <span>
#include <string>

namespace crashtest {

struct RunConfigurationInput {
  const std::string* configFile = nullptr;  // --config; when null, $CRASHTEST_CONFIG if set
  std::span<const std::string> devices;     // --device: "builtin:NAME", NAME of a built-in device, or a profile
  std::span<const std::string> faults;      // --fault: a fault (or array of faults) as JSON, or a file holding it
};

// False with `error` set (naming the option and the value) when an input cannot be used. The result is not yet
// validated: the caller checks it with the driver's own loader.
bool ComposeRunConfiguration(const RunConfigurationInput& input, nlohmann::json& out, std::string& error);

// "builtin:amd-rdna2" for "amd-rdna2"; the absolute path of an existing profile file; "" with `error` set
// (with a did-you-mean over the built-in names, prefixes included: "amd" suggests "amd-rdna2").
std::string ResolveDeviceArgument(const std::string& argument, std::string& error);

}  // namespace crashtest
