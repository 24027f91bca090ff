#include <optional>
#include <string>
#include <string_view>

#include "device/device_description.h"
#include "fault/plan_reader.h"
#include "fuzz_targets.h"
#include "profile/config.h"
#include "profile/driver_intersection.h"
#include "profile/json_file.h"
#include "profile/profile_reader.h"

namespace crashtest::fuzz {
namespace {

// A name no file has: relative profile paths in a configuration resolve beside it and are not found, so the
// fuzzer exercises the "cannot open" path instead of reading the machine's files.
constexpr const char* kInputPath = "/nonexistent-crashtest-fuzz/input.json";

// The first error's formatted message, as `crashtest check` prints it (every message is formatted, so the
// formatting of whatever the reader put into a message is exercised too).
std::string FirstError(const Diagnostics& diagnostics) {
  std::string first;
  for (const Diagnostic& d : diagnostics.Items()) {
    std::string line = d.Format();
    if (first.empty() && d.severity == Severity::Error) first = std::move(line);
  }
  return first;
}

// crashtestInjectFault's reader on the same bytes, for a device with two queue families (2 and 1 queues).
void ReadAsInjectedFault(std::string_view text) {
  Diagnostics diagnostics;
  const ReadContext ctx{"crashtestInjectFault", false, &diagnostics};
  const std::optional<Json> root = ParseJsonText(text, ctx);
  if (!root) return;
  const DeviceQueueCounts queues = {2, 1};
  PlannedFault fault;
  bool hasTrigger = false;
  (void)ReadInjectedFault(ctx, *root, fault, &hasTrigger, &queues);
  (void)FirstError(diagnostics);
}

}  // namespace

Outcome RunConfig(std::span<const uint8_t> bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  Outcome outcome;
  // `crashtest check`'s choice (tools/cmd_check.cpp, LooksLikeProfile): a top-level "capabilities" object makes
  // the file a profile.
  Diagnostics ignored;
  const std::optional<Json> root = ParseJsonText(text, ReadContext{kInputPath, false, &ignored});
  if (root && root->is_object() && root->contains("capabilities")) {
    // ReadDevice's path for a profile file (src/profile/config.cpp).
    ProfileReadOptions options;
    options.source = kInputPath;
    DeviceDescription device;
    Diagnostics diagnostics;
    outcome.accepted = ReadProfileText(text, options, device, diagnostics);
    if (outcome.accepted) IntersectWithDriver(device);
    outcome.error = FirstError(diagnostics);
  } else {
    ConfigurationResult config;
    outcome.accepted = LoadConfigurationText(kInputPath, text, /*strict=*/false, config);
    outcome.error = FirstError(config.diagnostics);
  }
  ReadAsInjectedFault(text);
  return outcome;
}

}  // namespace crashtest::fuzz
