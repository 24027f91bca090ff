#include "profile/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

#include "fault/plan_reader.h"
#include "profile/builtin_profiles.h"
#include "profile/closest_name.h"
#include "profile/driver_intersection.h"
#include "profile/json_file.h"
#include "profile/profile_reader.h"
#include "profile/read_context.h"

namespace crashtest {
namespace {

constexpr std::string_view kBuiltinPrefix = "builtin:";
constexpr const char* kDefaultDevice = "builtin:default";

std::string Quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

std::string AvailableBuiltins() {
  std::string names;
  for (const BuiltinProfile& p : BuiltinProfiles())
    names += (names.empty() ? "" : ", ") + std::string(kBuiltinPrefix) + std::string(p.name);
  return names.empty() ? "none" : names;
}

// " (did you mean builtin:amd-rdna2?)" for a typo or a prefix ("amd"); "" when nothing is close.
std::string SuggestBuiltin(const std::string& name) {
  std::string_view best = ClosestName(name, [](const auto& visit) {
    for (const BuiltinProfile& p : BuiltinProfiles()) visit(p.name);
  });
  const bool close = !best.empty() && EditDistance(name, best) <= std::max<std::size_t>(2, name.size() / 3);
  if (!close) {
    best = {};
    for (const BuiltinProfile& p : BuiltinProfiles())
      if (!name.empty() && p.name.rfind(name, 0) == 0) best = p.name;  // "amd": people type the vendor
  }
  return best.empty() ? std::string() : " (did you mean " + std::string(kBuiltinPrefix) + std::string(best) + "?)";
}

bool ReadDevices(const ReadContext& ctx, const Json& devices, const std::string& baseDirectory,
                 ConfigurationResult& out) {
  if (!devices.is_array() || devices.empty()) {
    ctx.Error("devices", "expected a non-empty array of devices (\"builtin:NAME\", a profile path or "
                         "{\"profile\": ..., \"name\": ...}), got " + DescribeJson(devices));
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string path = IndexPath("devices", i);
    const Json& entry = devices[i];
    std::string reference;
    std::string profileName;
    if (entry.is_string()) {
      reference = entry.get<std::string>();
    } else if (entry.is_object()) {
      for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (it.key() == "profile" && it->is_string()) {
          reference = it->get<std::string>();
        } else if (it.key() == "name" && it->is_string()) {
          profileName = it->get<std::string>();
        } else if (it.key() == "profile" || it.key() == "name") {
          ctx.Error(JoinPath(path, it.key()), "expected a string, got " + DescribeJson(*it));
          ok = false;
        } else {
          ctx.Error(JoinPath(path, it.key()), "unknown member (expected \"profile\" and optionally \"name\")");
          ok = false;
        }
      }
      if (reference.empty()) {
        ctx.Error(path, "expected a \"profile\" member naming a profile file or \"builtin:NAME\"");
        ok = false;
        continue;
      }
    } else {
      ctx.Error(path, "expected \"builtin:NAME\", a profile path or {\"profile\": ..., \"name\": ...}, got " +
                          DescribeJson(entry));
      ok = false;
      continue;
    }
    DeviceDescription device;
    Diagnostics deviceDiagnostics;
    if (!LoadDevice(reference, profileName, baseDirectory, ctx.strict, device, deviceDiagnostics)) {
      // The profile's own messages name the profile; this one ties it to the configuration entry.
      if (deviceDiagnostics.Items().empty() ||
          (deviceDiagnostics.Items().size() == 1 && deviceDiagnostics.Items()[0].file == ctx.file)) {
        out.diagnostics.Append(deviceDiagnostics);
      } else {
        out.diagnostics.Append(deviceDiagnostics);
        ctx.Error(path, "device " + Quoted(reference) + " could not be loaded (see above)");
      }
      ok = false;
      continue;
    }
    out.diagnostics.Append(deviceDiagnostics);
    out.devices.push_back(std::move(device));
  }
  return ok;
}

}  // namespace

namespace {

// Built-in profiles never change within a process, so each is read and intersected once: the driver reads the
// configuration at every vkCreateInstance, and test suites and engines create many instances.
struct BuiltinCacheKey {
  std::string name;
  std::string profileName;
  bool strict;
  bool operator<(const BuiltinCacheKey& o) const {
    return std::tie(name, profileName, strict) < std::tie(o.name, o.profileName, o.strict);
  }
};
struct BuiltinCacheEntry {
  DeviceDescription description;
  Diagnostics diagnostics;  // warnings of the first read, repeated for every load
};
std::mutex builtinCacheMutex;
std::map<BuiltinCacheKey, BuiltinCacheEntry>& BuiltinCache() {
  static std::map<BuiltinCacheKey, BuiltinCacheEntry> cache;
  return cache;
}

}  // namespace

bool LoadDevice(const std::string& reference, const std::string& profileName, const std::string& baseDirectory,
                bool strict, DeviceDescription& out, Diagnostics& diagnostics) {
  if (reference.rfind(kBuiltinPrefix, 0) == 0) {
    BuiltinCacheKey key{reference.substr(kBuiltinPrefix.size()), profileName, strict};
    {
      std::lock_guard lock(builtinCacheMutex);
      auto it = BuiltinCache().find(key);
      if (it != BuiltinCache().end()) {
        out = it->second.description;
        diagnostics.Append(it->second.diagnostics);
        return true;
      }
    }
    Diagnostics local;
    if (!ReadDevice(reference, profileName, baseDirectory, strict, out, local)) {
      diagnostics.Append(local);
      return false;
    }
    diagnostics.Append(local);
    std::lock_guard lock(builtinCacheMutex);
    BuiltinCache().emplace(std::move(key), BuiltinCacheEntry{out, std::move(local)});
    return true;
  }
  return ReadDevice(reference, profileName, baseDirectory, strict, out, diagnostics);
}

bool ReadDevice(const std::string& reference, const std::string& profileName, const std::string& baseDirectory,
                bool strict, DeviceDescription& out, Diagnostics& diagnostics) {
  ProfileReadOptions options;
  options.profileName = profileName;
  options.strict = strict;
  bool ok;
  if (reference.rfind(kBuiltinPrefix, 0) == 0) {
    const std::string name = reference.substr(kBuiltinPrefix.size());
    std::optional<std::string_view> text = FindBuiltinProfile(name);
    if (!text) {
      diagnostics.Add(Severity::Error, reference, "",
                      "no built-in device " + Quoted(name) + SuggestBuiltin(name) + " (available: " +
                          AvailableBuiltins() + ")");
      return false;
    }
    options.source = reference;
    ok = ReadProfileText(*text, options, out, diagnostics);
  } else {
    std::filesystem::path path(reference);
    if (path.is_relative() && !baseDirectory.empty()) path = std::filesystem::path(baseDirectory) / path;
    options.source = path.lexically_normal().string();
    ok = ReadProfileFile(options.source, options, out, diagnostics);
  }
  if (ok) IntersectWithDriver(out);
  return ok;
}

bool LoadConfigurationFile(const std::string& path, bool strict, ConfigurationResult& out) {
  out = ConfigurationResult{};
  out.path = path;
  ReadContext ctx{path, strict, &out.diagnostics};
  std::string text;
  if (!ReadTextFile(path, text, ctx)) return false;
  return LoadConfigurationText(path, text, strict, out);
}

bool LoadConfigurationText(const std::string& path, std::string_view text, bool strict, ConfigurationResult& out) {
  out = ConfigurationResult{};
  out.path = path;
  ReadContext ctx{path, strict, &out.diagnostics};
  std::optional<Json> root = ParseJsonText(text, ctx);
  if (!root) return false;
  if (!root->is_object()) {
    ctx.Error("", "expected a configuration object {\"devices\": [...], \"faults\": [...], \"options\": {...}}, "
                  "got " + DescribeJson(*root));
    return false;
  }
  // Users of the Khronos profiles layer point at a profile file directly: a top-level "capabilities" object (a
  // configuration never has one) makes the file a configuration of that one device, its first profile entry.
  if (root->contains("capabilities") && !root->contains("devices") && !root->contains("faults") &&
      !root->contains("options")) {
    ProfileReadOptions options;
    options.source = std::filesystem::path(path).lexically_normal().string();
    options.strict = strict;
    DeviceDescription device;
    if (!ReadProfileText(text, options, device, out.diagnostics)) return false;
    IntersectWithDriver(device);
    out.devices.push_back(std::move(device));
    return !out.diagnostics.HasErrors();
  }
  const std::string baseDirectory = std::filesystem::path(path).parent_path().string();
  bool ok = true;
  bool sawDevices = false;
  bool devicesOk = true;
  const Json* faults = nullptr;
  for (auto it = root->begin(); it != root->end(); ++it) {
    if (it.key() == "devices") {
      sawDevices = true;
      devicesOk = ReadDevices(ctx, *it, baseDirectory, out);
      ok &= devicesOk;
    } else if (it.key() == "faults") {
      faults = &*it;  // read once the devices are known: a fault may name one by index
    } else if (it.key() == "options") {
      if (!it->is_object()) {
        ctx.Error("options", "expected an object, got " + DescribeJson(*it));
        ok = false;
      } else {
        out.options = *it;
        ok &= ReadExecutionOptions(ctx, *it, out.execution);
        ok &= ReadDumpOptions(ctx, *it, baseDirectory, out.dump);
        ok &= ReadPresentationOptions(ctx, *it, baseDirectory, out.presentation);
      }
    } else if (it.key() == "$schema") {
      // Editors use it to validate against json/schema/config.schema.json.
    } else {
      ctx.Error(it.key(), "unknown member (expected \"devices\", \"faults\" or \"options\")");
      ok = false;
    }
  }
  if (!sawDevices) {
    DeviceDescription device;
    if (LoadDevice(kDefaultDevice, "", "", strict, device, out.diagnostics))
      out.devices.push_back(std::move(device));
    else
      ok = false;
  }
  if (faults != nullptr) {
    std::vector<DeviceQueueCounts> queues;
    for (const DeviceDescription& device : out.devices) {
      DeviceQueueCounts& counts = queues.emplace_back();
      for (const VkQueueFamilyProperties& family : device.queueFamilies) counts.push_back(family.queueCount);
    }
    // With a device missing, the indices would name the wrong devices' queues: its own error says enough.
    ok &= ReadFaultPlan(ctx, *faults, out.devices.size(), out.plan, devicesOk ? &queues : nullptr);
    if (faults->is_array()) out.faults = *faults;
  }
  return ok && !out.diagnostics.HasErrors();
}

bool LoadConfiguration(ConfigurationResult& out) {
  const char* path = std::getenv(kConfigEnvironmentVariable);
  if (path != nullptr && *path != '\0') return LoadConfigurationFile(path, /*strict=*/false, out);
  out = ConfigurationResult{};
  DeviceDescription device;
  bool ok = LoadDevice(kDefaultDevice, "", "", false, device, out.diagnostics);
  if (ok) out.devices.push_back(std::move(device));
  return ok;
}

}  // namespace crashtest
