// `crashtest devices`: what the driver would expose for the current configuration, and the built-in device
// library users can name as "builtin:NAME". Uses the driver's own configuration loader, so what this prints is
// exactly what vkCreateInstance would build.
#include <cstdlib>
#include <iostream>
#include <string>

#include "commands.h"
#include "device_report.h"
#include "device_text.h"
#include "profile/builtin_profiles.h"
#include "profile/config.h"

namespace crashtest {
namespace {

using Json = nlohmann::json;

constexpr OptionSpec kOptions[] = {
    {"verbose", "", "also show extensions, features, queue families, memory, machine model and dropped capabilities"},
    {"config", "FILE", "read FILE instead of $CRASHTEST_CONFIG (and skip the built-in library listing)"},
    {"json", "", "print JSON instead of text"},
};

// Which configuration was read, for the heading: users often do not know whether CRASHTEST_CONFIG is set.
std::string ConfigurationOrigin(const ParsedArgs& args, const ConfigurationResult& config) {
  if (args.Value("config") != nullptr) return config.path;
  if (!config.path.empty()) return config.path + " (from " + kConfigEnvironmentVariable + ")";
  return std::string("none: ") + kConfigEnvironmentVariable + " is not set, so the built-in default device";
}

Json BuiltinLibrary() {
  Json list = Json::array();
  for (const BuiltinProfile& p : BuiltinProfiles())
    list.push_back({{"name", std::string(p.name)},
                    {"reference", "builtin:" + std::string(p.name)},
                    {"description", std::string(p.description)}});
  return list;
}

void PrintText(const Json& report, std::ostream& out) {
  out << "Configuration: " << report["configurationOrigin"].get<std::string>() << "\n\n";
  out << "Devices, in the order the driver enumerates them:\n";
  for (const Json& d : report["devices"]) PrintDeviceText(d, out);
  if (!report.contains("builtins")) return;
  out << "\nBuilt-in devices (name them as \"builtin:NAME\" in the configuration's \"devices\"):\n";
  std::size_t width = 0;
  for (const Json& b : report["builtins"]) width = std::max(width, b["name"].get<std::string>().size());
  for (const Json& b : report["builtins"]) {
    std::string name = b["name"].get<std::string>();
    name.resize(width + 2, ' ');
    out << "  " << name << b["description"].get<std::string>() << '\n';
  }
}

int Run(const ParsedArgs& args) {
  if (!args.positional.empty()) {
    std::cerr << "crashtest devices: unexpected argument '" << args.positional[0]
              << "' (use --config FILE to read a configuration)\nRun 'crashtest help devices' for usage.\n";
    return kExitUsage;
  }
  ConfigurationResult config;
  const std::string* file = args.Value("config");
  const bool ok = file != nullptr ? LoadConfigurationFile(*file, /*strict=*/false, config) : LoadConfiguration(config);
  // Diagnostics go to stderr so that stdout stays parseable with --json.
  for (const Diagnostic& d : config.diagnostics.Items()) std::cerr << d.Format() << '\n';
  if (!ok) {
    std::cerr << "crashtest devices: the configuration has errors; the driver would fail vkCreateInstance "
                 "with VK_ERROR_INITIALIZATION_FAILED\n";
    return kExitFailure;
  }

  const bool verbose = args.Has("verbose");
  Json report;
  report["configuration"] = config.path.empty() ? Json(nullptr) : Json(config.path);
  report["configurationOrigin"] = ConfigurationOrigin(args, config);
  report["devices"] = Json::array();
  for (std::size_t i = 0; i < config.devices.size(); ++i)
    report["devices"].push_back(DescribeDevice(config.devices[i], i, verbose));
  if (file == nullptr) report["builtins"] = BuiltinLibrary();

  if (args.Has("json"))
    std::cout << report.dump(2) << '\n';
  else
    PrintText(report, std::cout);
  return kExitOk;
}

}  // namespace

const Command& DevicesCommand() {
  static const Command command{
      .name = "devices",
      .summary = "List the devices the driver exposes and the built-in device library",
      .arguments = "",
      .description =
          "Lists the devices the driver would expose for the current configuration ($CRASHTEST_CONFIG, or the\n"
          "built-in default device when it is unset), in the order the driver enumerates them, then the built-in\n"
          "device library. Each device shows its index, deviceName, type, vendorID/deviceID, apiVersion, driver\n"
          "identity and where it came from. The Vulkan loader may re-sort devices by type before the application\n"
          "sees them (see docs/cli.md).",
      .options = kOptions,
      .details =
          "Configuration messages (errors, warnings) go to stderr, the listing to stdout.\n"
          "\n"
          "Exit codes: 0 listed; 1 the configuration has errors (the driver would fail vkCreateInstance);\n"
          "2 usage error.",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
