#include "run_configuration.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <vector>

#include "cli_args.h"
#include "common/file_reader.h"
#include "profile/builtin_profiles.h"
#include "profile/config.h"
#include "profile/json_file.h"

namespace crashtest {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr std::string_view kBuiltinPrefix = "builtin:";

// The driver's own bounds (a regular file, kMaxJsonFileBytes, kMaxJsonDepth): the composed configuration is
// written out again, and nlohmann's dump recurses once per nesting level.
bool ReadFile(const std::string& path, std::string& text, std::string& error) {
  return ReadRegularFile(path, kMaxJsonFileBytes, text, error);
}

// nullopt when `text` is not JSON within the bounds (`crashtest check` says where).
std::optional<Json> ParseBounded(std::string_view text) {
  Diagnostics diagnostics;
  ReadContext ctx{"", false, &diagnostics};
  return ParseJsonText(text, ctx);
}

std::string Absolute(const fs::path& base, const std::string& path) {
  fs::path p(path);
  if (p.is_relative()) p = base / p;
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return (ec ? p : a).lexically_normal().string();
}

// The configuration's profile paths are relative to its folder; the composed file lives elsewhere.
void MakeDevicePathsAbsolute(Json& devices, const fs::path& base) {
  if (!devices.is_array()) return;  // the loader reports the shape
  for (Json& entry : devices) {
    Json* reference = entry.is_object() && entry.contains("profile") ? &entry["profile"] : &entry;
    if (!reference->is_string()) continue;
    const std::string& text = reference->get_ref<const std::string&>();
    if (text.rfind(kBuiltinPrefix, 0) == 0 || text.empty()) continue;
    *reference = Absolute(base, text);
  }
}

bool ReadConfigFile(const std::string& path, Json& out, std::string& error) {
  std::string text;
  std::string readError;
  if (!ReadFile(path, text, readError)) {
    error = "--config " + path + ": " + readError;
    return false;
  }
  std::optional<Json> parsed = ParseBounded(text);
  if (!parsed) {
    error = "--config " + path + ": invalid JSON (run 'crashtest check " + path + "' for the line and column)";
    return false;
  }
  Json root = std::move(*parsed);
  if (!root.is_object()) {
    error = "--config " + path + ": expected a configuration object or a profile, got " +
            std::string(root.type_name());
    return false;
  }
  // A profile file stands for a configuration of that one device, as CRASHTEST_CONFIG accepts it.
  if (root.contains("capabilities") && !root.contains("devices") && !root.contains("faults") &&
      !root.contains("options")) {
    out = Json{{"devices", Json::array({Absolute(fs::current_path(), path)})}};
    return true;
  }
  out = std::move(root);
  if (out.contains("devices")) {
    const fs::path base = fs::path(Absolute(fs::current_path(), path)).parent_path();
    MakeDevicePathsAbsolute(out["devices"], base);
  }
  return true;
}

bool ReadFaultArgument(const std::string& argument, Json& faults, std::string& error) {
  std::optional<Json> parsed = ParseBounded(argument);
  if (!parsed) {
    std::string text;
    std::string readError;
    if (!ReadFile(argument, text, readError)) {
      error = "--fault " + argument + ": neither a fault in JSON ({\"id\": ..., \"when\": ..., \"effect\": ...}) "
              "nor a readable file (" + readError + ")";
      return false;
    }
    parsed = ParseBounded(text);
    if (!parsed) {
      error = "--fault " + argument + ": the file is not valid JSON";
      return false;
    }
  }
  Json value = std::move(*parsed);
  if (value.is_object()) {
    faults.push_back(std::move(value));
  } else if (value.is_array()) {
    for (Json& f : value) faults.push_back(std::move(f));
  } else {
    error = "--fault " + argument + ": expected a fault object or an array of faults, got " +
            std::string(value.type_name());
    return false;
  }
  return true;
}

}  // namespace

std::string ResolveDeviceArgument(const std::string& argument, std::string& error) {
  if (argument.rfind(kBuiltinPrefix, 0) == 0) return argument;  // the loader names unknown ones
  std::error_code ec;
  if (fs::is_regular_file(argument, ec)) return Absolute(fs::current_path(), argument);
  std::vector<std::string_view> names;
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    if (p.name == argument) return std::string(kBuiltinPrefix) + argument;
    names.push_back(p.name);
  }
  error = "--device " + argument + ": no built-in device and no profile file of that name";
  std::string_view suggestion = SuggestName(argument, names);
  if (suggestion.empty() && !argument.empty())
    for (std::string_view n : names)
      if (n.rfind(argument, 0) == 0) suggestion = n;  // "amd": a prefix is what people type
  if (!suggestion.empty()) error += " (did you mean " + std::string(suggestion) + "?)";
  std::string available;
  for (std::string_view n : names) available += (available.empty() ? "" : ", ") + std::string(n);
  error += "; built-in devices: " + available;
  return {};
}

bool ComposeRunConfiguration(const RunConfigurationInput& input, Json& out, std::string& error) {
  out = Json::object();
  std::string fromEnvironment;
  const std::string* configFile = input.configFile;
  if (configFile == nullptr) {
    // No --config: start from the configuration the environment already names, as the driver would read it.
    if (const char* env = std::getenv(kConfigEnvironmentVariable); env != nullptr && *env != '\0') {
      fromEnvironment = env;
      configFile = &fromEnvironment;
    }
  }
  if (configFile != nullptr && !ReadConfigFile(*configFile, out, error)) return false;
  if (!input.devices.empty()) {
    Json devices = Json::array();
    for (const std::string& d : input.devices) {
      std::string resolved = ResolveDeviceArgument(d, error);
      if (resolved.empty()) return false;
      devices.push_back(std::move(resolved));
    }
    out["devices"] = std::move(devices);
  }
  if (!input.faults.empty()) {
    Json& faults = out["faults"];
    if (faults.is_null()) faults = Json::array();
    if (!faults.is_array()) {
      error = "--fault: the configuration's \"faults\" is not an array, so faults cannot be added to it";
      return false;
    }
    for (const std::string& f : input.faults)
      if (!ReadFaultArgument(f, faults, error)) return false;
  }
  return true;
}

}  // namespace crashtest
