#include "profile/execution_options.h"

#include <algorithm>
#include <string>

#include "profile/closest_name.h"

namespace crashtest {

namespace {

bool ReadCount(const ReadContext& ctx, const nlohmann::json& value, const std::string& path, uint64_t max,
               uint64_t* out) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() > max) {
    ctx.Error(path, "expected an integer from 0 to " + std::to_string(max) + ", got " + value.dump());
    return false;
  }
  *out = value.get<uint64_t>();
  return true;
}

}  // namespace

bool ReadExecutionOptions(const ReadContext& ctx, const nlohmann::json& options, ExecutionOptions& out) {
  bool ok = true;
  // An option the driver does not know would silently do nothing (a typo in a CI configuration goes unnoticed
  // for months): every key must be one of docs/configuration.md's options — those read here and the dump options
  // (dump_options.cpp, presentation_options.cpp).
  static constexpr std::string_view kKnown[] = {"captureDirectory", "captureEvery", "captureLast", "computeThreads",
                                                "dumpDirectory", "dumpSizeLimit", "presentRefreshRate", "shaderFaults",
                                                "shaderInstructionBudget", "shaderTimeoutMs", "stuckWaitMs",
                                                "stuckWaits"};
  for (auto it = options.begin(); it != options.end(); ++it) {
    if (std::find(std::begin(kKnown), std::end(kKnown), it.key()) != std::end(kKnown)) continue;
    std::string_view best = ClosestName(it.key(), [](const auto& visit) {
      for (std::string_view k : kKnown) visit(k);
    });
    std::string known;
    for (std::string_view k : kKnown) known += (known.empty() ? "" : ", ") + std::string(k);
    const bool close = !best.empty() && EditDistance(it.key(), best) <= std::max<std::size_t>(2, it.key().size() / 3);
    ctx.Error("options." + it.key(), "unknown option" +
                                         (close ? " (did you mean \"" + std::string(best) + "\"?)" : std::string()) +
                                         "; the options are " + known);
    ok = false;
  }
  uint64_t n = 0;
  if (auto it = options.find("computeThreads"); it != options.end()) {
    if (ReadCount(ctx, *it, "options.computeThreads", 1024, &n)) out.computeThreads = static_cast<uint32_t>(n);
    else ok = false;
  }
  if (auto it = options.find("shaderTimeoutMs"); it != options.end()) {
    if (ReadCount(ctx, *it, "options.shaderTimeoutMs", 86400000, &n)) out.shaderTimeoutMs = static_cast<uint32_t>(n);
    else ok = false;
  }
  if (auto it = options.find("shaderInstructionBudget"); it != options.end()) {
    if (ReadCount(ctx, *it, "options.shaderInstructionBudget", uint64_t{1} << 62, &n)) out.shaderInstructionBudget = n;
    else ok = false;
  }
  if (auto it = options.find("stuckWaitMs"); it != options.end()) {
    if (ReadCount(ctx, *it, "options.stuckWaitMs", 86400000, &n)) out.stuckWaitMs = static_cast<uint32_t>(n);
    else ok = false;
  }
  if (auto it = options.find("stuckWaits"); it != options.end()) {
    const std::string mode = it->is_string() ? it->get<std::string>() : std::string();
    if (mode == "log") out.stuckWaits = StuckWaitMode::Log;
    else if (mode == "lose") out.stuckWaits = StuckWaitMode::Lose;
    else {
      ctx.Error("options.stuckWaits", "expected \"log\" or \"lose\", got " + it->dump());
      ok = false;
    }
  }
  if (auto it = options.find("shaderFaults"); it != options.end()) {
    const std::string mode = it->is_string() ? it->get<std::string>() : std::string();
    if (mode == "lose") out.shaderFaults = ShaderFaultMode::Lose;
    else if (mode == "masked") out.shaderFaults = ShaderFaultMode::Masked;
    else if (mode == "off") out.shaderFaults = ShaderFaultMode::Off;
    else {
      ctx.Error("options.shaderFaults", "expected \"lose\", \"masked\" or \"off\", got " + it->dump());
      ok = false;
    }
  }
  return ok;
}

}  // namespace crashtest
