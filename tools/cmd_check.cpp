// `crashtest check`: validates configuration files and device profiles with the driver's own loader, without
// creating an instance, so CI can reject a bad file before a test run fails in vkCreateInstance.
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <string>

#include "commands.h"
#include "common/file_reader.h"
#include "profile/config.h"
#include "profile/json_file.h"

namespace crashtest {
namespace {

constexpr OptionSpec kOptions[] = {
    {"strict", "", "treat warnings (struct or extension names this Vulkan does not know) as errors"},
    {"profile", "NAME", "for a profile file: check the entry NAME of its \"profiles\" section"},
    {"json", "", "print one JSON object (every file, its messages and its result) instead of text"},
};

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "note";
  }
  return "error";
}

nlohmann::json MessageJson(const Diagnostic& d) {
  nlohmann::json m = {{"severity", SeverityName(d.severity)}, {"file", d.file}, {"text", d.text}};
  m["path"] = d.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.path);
  if (d.line > 0) {
    m["line"] = d.line;
    m["column"] = d.column;
  }
  m["formatted"] = d.Format();
  return m;
}

// A Vulkan Profiles file has a top-level "capabilities" object; a configuration never does. Anything that does
// not parse is left to the configuration loader, which reports it with line and column.
bool LooksLikeProfile(const std::string& path) {
  std::string text;
  std::string error;
  if (!ReadRegularFile(path, kMaxJsonFileBytes, text, error)) return false;
  Diagnostics ignored;
  ReadContext ctx{path, false, &ignored};
  const std::optional<Json> root = ParseJsonText(text, ctx);
  return root && root->is_object() && root->contains("capabilities");
}

std::string Plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + ' ' + std::string(word) + (n == 1 ? "" : "s");
}

struct Outcome {
  bool ok = false;
  std::size_t devices = 0;
  Diagnostics diagnostics;
};

Outcome CheckOne(const std::string& path, const ParsedArgs& args, bool& usageError) {
  const bool strict = args.Has("strict");
  const std::string* profileName = args.Value("profile");
  Outcome outcome;
  if (LooksLikeProfile(path)) {
    DeviceDescription device;
    outcome.ok = LoadDevice(path, profileName ? *profileName : "", "", strict, device, outcome.diagnostics);
    outcome.devices = outcome.ok ? 1 : 0;
  } else {
    if (profileName != nullptr) {
      std::cerr << "crashtest check: --profile applies to a profile file, but " << path
                << " is a configuration (select a profile entry there with {\"profile\": ..., \"name\": ...})\n";
      usageError = true;
      return outcome;
    }
    ConfigurationResult config;
    outcome.ok = LoadConfigurationFile(path, strict, config);
    outcome.devices = config.devices.size();
    outcome.diagnostics = std::move(config.diagnostics);
  }
  return outcome;
}

int Run(const ParsedArgs& args) {
  if (args.positional.empty()) {
    std::cerr << "crashtest check: missing FILE\nRun 'crashtest help check' for usage.\n";
    return kExitUsage;
  }
  for (const std::string& path : args.positional) {
    if (path.empty()) {  // typically an unset shell variable; "cannot open ''" would hide that
      std::cerr << "crashtest check: empty FILE name\nRun 'crashtest help check' for usage.\n";
      return kExitUsage;
    }
  }
  bool allOk = true;
  const bool json = args.Has("json");
  nlohmann::json report = {{"strict", args.Has("strict")}, {"files", nlohmann::json::array()}};
  for (const std::string& path : args.positional) {
    bool usageError = false;
    Outcome outcome = CheckOne(path, args, usageError);
    if (usageError) return kExitUsage;
    const std::size_t errors = outcome.diagnostics.Count(Severity::Error);
    const std::size_t warnings = outcome.diagnostics.Count(Severity::Warning);
    // The loader already turns its warnings into errors under --strict; this also covers any it keeps as
    // warnings, so that --strict means "nothing to say" whatever the loader's policy.
    const bool ok = outcome.ok && errors == 0 && !(args.Has("strict") && warnings != 0);
    allOk &= ok;
    if (json) {
      nlohmann::json messages = nlohmann::json::array();
      for (const Diagnostic& d : outcome.diagnostics.Items()) messages.push_back(MessageJson(d));
      report["files"].push_back({{"file", path}, {"ok", ok}, {"devices", outcome.devices}, {"errors", errors},
                                 {"warnings", warnings}, {"messages", std::move(messages)}});
      continue;
    }
    for (const Diagnostic& d : outcome.diagnostics.Items()) std::cout << d.Format() << '\n';
    std::cout << path << ": ";
    if (ok) {
      std::cout << "OK, " << Plural(outcome.devices, "device");
      if (warnings != 0) std::cout << ", " << Plural(warnings, "warning");
    } else if (errors == 0 && warnings == 0) {
      std::cout << "failed";  // cannot happen with today's loader, which always says why
    } else {
      std::cout << Plural(errors, "error") << ", " << Plural(warnings, "warning");
    }
    std::cout << '\n';
  }
  if (json) {
    report["ok"] = allOk;
    std::cout << report.dump(2) << '\n';
  }
  return allOk ? kExitOk : kExitFailure;
}

}  // namespace

const Command& CheckCommand() {
  static const Command command{
      .name = "check",
      .summary = "Validate configuration or profile files without running anything",
      .arguments = "FILE...",
      .description =
          "Reads each FILE as the driver would and reports every problem: a configuration file (devices, faults,\n"
          "options) together with every profile it names, or a bare Vulkan Profiles file (recognised by its\n"
          "top-level \"capabilities\" key). Each message names the file, the JSON path and what was expected.",
      .options = kOptions,
      .details =
          "Output (stdout): every message, then one summary line per file, e.g.\n"
          "  config.json: OK, 2 devices\n"
          "  config.json: 3 errors, 1 warning\n"
          "\n"
          "With --json, one object instead: {\"ok\", \"strict\", \"files\": [{\"file\", \"ok\", \"devices\",\n"
          "\"errors\", \"warnings\", \"messages\": [{\"severity\" (error, warning or note), \"file\", \"path\",\n"
          "\"line\", \"column\" (malformed JSON only), \"text\", \"formatted\"}]}]}.\n"
          "\n"
          "Exit codes: 0 no errors (warnings allowed unless --strict); 1 errors found; 2 usage error.",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
