// `crashtest stats`: the pipeline statistics of a SPIR-V shader on an emulated device, offline, with exactly the
// code the driver runs for VK_KHR_pipeline_executable_properties (pipeline::Compile, then ComputeStatistics);
// `--compare` shows what a shader change does to them and fails when a gated statistic gets worse (CI gating).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <span>
#include <string>
#include <vector>

#include "commands.h"
#include "pipeline/compiler.h"
#include "statistics/executable_builder.h"
#include "statistics/representations.h"
#include "statistics/statistic_table.h"
#include "stats_batch.h"
#include "stats_input.h"

namespace crashtest {
namespace {

using statistics::Better;
using statistics::ShaderStatistics;
using statistics::StatisticDescriptor;
using statistics::StatisticValue;

constexpr OptionSpec kOptions[] = {
    {"device", "NAME|PROFILE", "built-in device name (default: default) or a Vulkan Profiles file"},
    {"stage", "STAGE", "vert, tesc, tese, geom, frag or comp (default: from the entry point)"},
    {"entry", "NAME", "entry point (default: the module's first)"},
    {"json", "", "print JSON instead of text"},
    {"ir", "", "also print the annotated crashtest IR (text output)"},
    {"compare", "", "compare two shaders: BEFORE.spv AFTER.spv, print the deltas"},
    {"fail-on", "LIST", "with --compare: statistics whose regression fails (keys, 'all' or 'none')"},
    {"threshold", "LIST", "with --compare: how much worse a statistic may get, e.g. registers=+4,estimatedCycles=5%"},
    {"dialect", "NAME", "statistic names: crashtest, radv, nvidia or anv (default: the device's)"},
};

// Exit codes of `crashtest stats` (docs/cli.md): a regression and "could not run" must be told apart by CI.
constexpr int kExitRegression = 1;   // --compare: a gated statistic got worse beyond its threshold
constexpr int kExitCannotRun = 3;    // a file could not be read or compiled, the device could not be loaded

// Spills, scratch, registers and occupancy in each dialect's words. Keep in step with the help text and
// docs/statistics.md.
const char* DefaultFailOn(StatisticDialect dialect) {
  switch (dialect) {
    case StatisticDialect::Crashtest: return "spills,fills,scratchSize,registers,subgroupsPerCore";
    case StatisticDialect::Radv: return "spilledSgprs,spilledVgprs,scratchSize,vgprs,subgroupsPerSimd";
    case StatisticDialect::Nvidia: return "registerCount,localMemorySize";
    case StatisticDialect::Anv: return "spillCount,fillCount,scratchMemorySize";
  }
  return "";
}

struct Analysed {
  std::string file;
  std::string entry;
  ShaderStatistics stats;
  std::string irListing;
};

struct Context {
  DeviceDescription device;
  std::string deviceReference;
  StatisticDialect dialect = StatisticDialect::Crashtest;  // --dialect, else the device model's
};

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016" PRIx64, value);
  return text;
}

bool Analyse(const std::string& path, const ParsedArgs& args, const Context& context, bool wantIr, Analysed& out) {
  std::vector<uint32_t> words;
  std::string error;
  if (!ReadSpirvWords(path, words, error)) {
    std::cerr << "crashtest stats: " << error << '\n';
    return false;
  }
  std::vector<SpirvEntryPoint> entries = ListEntryPoints(words);
  const std::string* wantedEntry = args.Value("entry");
  const SpirvEntryPoint* entry = nullptr;
  for (const SpirvEntryPoint& e : entries)
    if (wantedEntry == nullptr || e.name == *wantedEntry) {
      entry = &e;
      break;
    }
  if (entry == nullptr) {
    std::cerr << "crashtest stats: " << path << ": no entry point";
    if (wantedEntry != nullptr) std::cerr << " named \"" << *wantedEntry << "\"";
    std::cerr << " (the module has";
    if (entries.empty()) std::cerr << " none";
    for (const SpirvEntryPoint& e : entries) std::cerr << " \"" << e.name << "\"";
    std::cerr << ")\n";
    return false;
  }
  VkShaderStageFlagBits stage{};
  if (const std::string* s = args.Value("stage")) {
    ParseStage(*s, stage);  // checked in Run
  } else if (!StageOfExecutionModel(entry->executionModel, stage)) {
    std::cerr << "crashtest stats: " << path << ": entry point \"" << entry->name
              << "\" has an execution model crashtest does not compile (" << entry->executionModel << ")\n";
    return false;
  }
  pipeline::CompileOptions options;
  // Offline there is no vkCreateShaderModule: validate here, for the newest environment crashtest knows.
  options.vulkanApiVersion = VK_API_VERSION_1_3;
  options.spirv14 = true;
  options.entryPoint = entry->name;
  options.stage = stage;
  pipeline::CompiledShader compiled;
  pipeline::CompileError compileError;
  if (!pipeline::Compile(words, options, &compiled, &compileError)) {
    std::cerr << "crashtest stats: " << path << ": " << pipeline::CompilePhaseName(compileError.phase) << ": "
              << compileError.message << '\n';
    return false;
  }
  out.file = path;
  out.entry = entry->name;
  out.stats = statistics::ComputeStatistics(compiled, context.device.machine, stage);
  out.stats.dialect = context.dialect;
  if (wantIr) out.irListing = statistics::AnnotatedIrListing(compiled, context.device.machine, out.stats);
  return true;
}

std::string FormatValue(const StatisticValue& v) {
  if (v.descriptor->key == "hash" || v.descriptor->key == "driverPipelineHash") return Hex(v.value.u64);
  if (v.descriptor->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR) return v.value.b32 ? "yes" : "no";
  return std::to_string(v.value.u64);
}

nlohmann::json JsonValue(const StatisticValue& v) {
  if (v.descriptor->key == "hash" || v.descriptor->key == "driverPipelineHash") return Hex(v.value.u64);  // JSON numbers lose 64-bit precision in many readers
  if (v.descriptor->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR) return v.value.b32 != 0;
  return v.value.u64;
}

std::string DeviceName(const Context& context) { return context.device.properties.deviceName; }

nlohmann::json ToJson(const Analysed& a, const Context& context) {
  nlohmann::json statisticsJson = nlohmann::json::object();
  for (const StatisticValue& v : statistics::ListStatistics(a.stats))
    statisticsJson[std::string(v.descriptor->key)] = JsonValue(v);
  return {{"file", a.file},
          {"device", DeviceName(context)},
          {"deviceSource", context.device.source},
          {"dialect", StatisticDialectName(context.dialect)},
          {"stage", statistics::StageName(a.stats.stage)},
          {"entryPoint", a.entry},
          {"subgroupSize", a.stats.subgroupSize},
          {"occupancyLimit", statistics::OccupancyLimitName(a.stats.occupancyLimit)},
          {"statistics", statisticsJson}};
}

void PrintText(const Analysed& a, const Context& context) {
  std::cout << a.file << ": " << statistics::StageName(a.stats.stage) << " shader \"" << a.entry << "\" on "
            << DeviceName(context) << " (" << context.device.source << "), subgroup size " << a.stats.subgroupSize
            << ", " << StatisticDialectName(context.dialect) << " statistics\n";
  for (const StatisticValue& v : statistics::ListStatistics(a.stats)) {
    std::string name(v.descriptor->name);
    name.resize(std::max<size_t>(name.size() + 2, 34), ' ');
    std::cout << "  " << name << FormatValue(v);
    if (context.dialect == StatisticDialect::Crashtest) {
      if (v.descriptor->key == "subgroupsPerCore")
        std::cout << " (limited by " << statistics::OccupancyLimitName(a.stats.occupancyLimit) << ")";
      if (v.descriptor->key == "registers") std::cout << " of " << a.stats.registerBudget;
    }
    std::cout << '\n';
  }
  if (!a.irListing.empty()) std::cout << '\n' << a.irListing;
}

// Which statistics gate a comparison; false (with a usage message printed) for an unknown key.
bool ParseFailOn(const std::string& list, StatisticDialect dialect, std::vector<const StatisticDescriptor*>& gated) {
  if (list == "none") return true;
  if (list == "all") {
    for (const StatisticDescriptor& d : statistics::AllStatistics(dialect))
      if (d.better != Better::Neither) gated.push_back(&d);
    return true;
  }
  std::stringstream items(list);
  for (std::string key; std::getline(items, key, ',');) {
    const StatisticDescriptor* d = statistics::FindStatistic(key, dialect);
    if (d == nullptr || d->better == Better::Neither) {
      std::vector<std::string_view> keys;
      for (const StatisticDescriptor& s : statistics::AllStatistics(dialect))
        if (s.better != Better::Neither) keys.push_back(s.key);
      std::cerr << "crashtest stats: --fail-on: unknown or ungated statistic '" << key << "'";
      if (std::string_view close = SuggestName(key, keys); !close.empty())
        std::cerr << " (did you mean '" << close << "'?)";
      std::cerr << "; keys:";
      for (std::string_view k : keys) std::cerr << ' ' << k;
      std::cerr << ", or 'all' or 'none' (" << StatisticDialectName(dialect)
                << " statistics)\nRun 'crashtest help stats' for usage.\n";
      return false;
    }
    gated.push_back(d);
  }
  return true;
}

// Hashes ("hash", RADV's "driverPipelineHash") identify a shader; a difference of two is meaningless.
bool IsHash(const StatisticDescriptor& d) {
  return d.key == "hash" || (d.key.size() > 4 && d.key.substr(d.key.size() - 4) == "Hash");
}

const Tolerance* FindTolerance(const std::vector<Tolerance>& tolerances, const StatisticDescriptor& d) {
  for (const Tolerance& t : tolerances)
    if (t.statistic == &d) return &t;
  return nullptr;
}

struct ComparedStatistic {
  const StatisticDescriptor* descriptor;
  std::string before, after;  // formatted values
  double beforeValue, afterValue;
  bool regressed;
};

struct Comparison {
  std::vector<ComparedStatistic> rows;
  nlohmann::json deltas = nlohmann::json::object();
  std::vector<std::string_view> regressions;
};

Comparison CompareStatistics(const Analysed& before, const Analysed& after,
                             const std::vector<const StatisticDescriptor*>& gated,
                             const std::vector<Tolerance>& tolerances) {
  Comparison c;
  auto lb = statistics::ListStatistics(before.stats);
  auto la = statistics::ListStatistics(after.stats);
  for (const StatisticValue& b : lb) {
    const StatisticValue* a = nullptr;
    for (const StatisticValue& candidate : la)
      if (candidate.descriptor == b.descriptor) a = &candidate;
    if (a == nullptr) continue;  // a compute-only statistic against a graphics stage
    const StatisticDescriptor& d = *b.descriptor;
    const double vb = statistics::NumericValue(b), va = statistics::NumericValue(*a);
    const bool isGated = std::find(gated.begin(), gated.end(), &d) != gated.end();
    const bool regressed = isGated && Regressed(d, vb, va, FindTolerance(tolerances, d));
    if (regressed) c.regressions.push_back(d.key);
    if (!IsHash(d)) {
      // Unsigned difference, then two's complement: defined for any pair of values.
      c.deltas[std::string(d.key)] = d.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR
                                         ? static_cast<int64_t>(va) - static_cast<int64_t>(vb)
                                         : static_cast<int64_t>(a->value.u64 - b.value.u64);
    }
    c.rows.push_back({&d, FormatValue(b), FormatValue(*a), vb, va, regressed});
  }
  return c;
}

std::string DeltaText(const ComparedStatistic& r) {
  const StatisticDescriptor& d = *r.descriptor;
  if (IsHash(d) || d.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR)
    return r.before == r.after ? "same" : "changed";
  const int64_t delta = static_cast<int64_t>(r.afterValue) - static_cast<int64_t>(r.beforeValue);
  char text[64];
  if (delta == 0) return "=";
  if (r.beforeValue != 0)
    std::snprintf(text, sizeof text, "%+" PRId64 " (%+.1f%%)", delta, 100.0 * (r.afterValue - r.beforeValue) / r.beforeValue);
  else
    std::snprintf(text, sizeof text, "%+" PRId64, delta);
  return text;
}

// "+4", "+5%": how --threshold was given, normalised.
std::string ThresholdText(const Tolerance& t) {
  char text[32];
  std::snprintf(text, sizeof text, "+%g%s", t.amount, t.percent ? "%" : "");
  return text;
}

// Each gated statistic with its threshold ("+0" when none was given: any worsening counts).
nlohmann::json GatedJson(const std::vector<const StatisticDescriptor*>& gated, const std::vector<Tolerance>& tolerances) {
  nlohmann::json out = nlohmann::json::array();
  for (const StatisticDescriptor* d : gated) {
    const Tolerance* t = FindTolerance(tolerances, *d);
    out.push_back({{"key", std::string(d->key)}, {"threshold", t != nullptr ? ThresholdText(*t) : "+0"}});
  }
  return out;
}

std::string RightAligned(const std::string& text, std::size_t width) {
  return text.size() >= width ? ' ' + text : std::string(width - text.size(), ' ') + text;
}

nlohmann::json StringsJson(const std::vector<std::string_view>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (std::string_view i : items) out.push_back(std::string(i));
  return out;
}

int Compare(const Analysed& before, const Analysed& after, const Context& context,
            const std::vector<const StatisticDescriptor*>& gated, const std::vector<Tolerance>& tolerances,
            bool json) {
  const Comparison c = CompareStatistics(before, after, gated, tolerances);
  if (json) {
    nlohmann::json gatedJson = nlohmann::json::array();
    for (const StatisticDescriptor* d : gated) gatedJson.push_back(std::string(d->key));
    nlohmann::json out = {{"before", ToJson(before, context)}, {"after", ToJson(after, context)},
                          {"deltas", c.deltas}, {"gated", gatedJson}, {"thresholds", GatedJson(gated, tolerances)},
                          {"regressions", StringsJson(c.regressions)}};
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << before.file << " -> " << after.file << " on " << DeviceName(context) << " ("
              << context.device.source << ")\n";
    std::string header = "statistic";
    header.resize(34, ' ');
    char columns[80];
    std::snprintf(columns, sizeof columns, "%18s  %18s  %s", "before", "after", "delta");
    std::cout << "  " << header << columns << '\n';
    for (const ComparedStatistic& r : c.rows) {
      std::string name(r.descriptor->name);
      name.resize(std::max<size_t>(name.size() + 2, 34), ' ');
      char line[160];
      std::snprintf(line, sizeof line, "%18s  %18s  %s", r.before.c_str(), r.after.c_str(), DeltaText(r).c_str());
      std::cout << "  " << name << line << (r.regressed ? "  REGRESSION" : "") << '\n';
    }
    if (c.regressions.empty()) {
      std::cout << "no regression";
      if (gated.empty()) std::cout << " (nothing gated: --fail-on none)";
      std::cout << '\n';
    } else {
      std::cout << c.regressions.size() << " regression" << (c.regressions.size() == 1 ? "" : "s") << ":";
      for (std::string_view r : c.regressions) std::cout << ' ' << r;
      std::cout << '\n';
    }
  }
  return c.regressions.empty() ? kExitOk : kExitRegression;
}

// Many files (or a directory): one row per shader with the figures CI dashboards track, or one JSON object.
// The summary's columns in each dialect's keys: instructions, registers, spills, occupancy, cycles (or what the
// dialect has closest to them).
std::span<const std::string_view> SummaryColumns(StatisticDialect dialect) {
  static constexpr std::string_view kCrashtest[] = {"instructions", "registers", "spills", "subgroupsPerCore",
                                                    "estimatedCycles"};
  static constexpr std::string_view kRadv[] = {"instructions", "vgprs", "spilledVgprs", "subgroupsPerSimd", "latency"};
  static constexpr std::string_view kNvidia[] = {"registerCount", "binarySize", "localMemorySize", "sharedMemorySize"};
  static constexpr std::string_view kAnv[] = {"instructionCount", "spillCount", "fillCount", "scratchMemorySize",
                                              "cycleCount"};
  switch (dialect) {
    case StatisticDialect::Radv: return kRadv;
    case StatisticDialect::Nvidia: return kNvidia;
    case StatisticDialect::Anv: return kAnv;
    default: return kCrashtest;
  }
}

int Summarise(const std::vector<StatsInput>& inputs, const ParsedArgs& args, const Context& context, bool json) {
  const std::span<const std::string_view> kColumns = SummaryColumns(context.dialect);
  nlohmann::json shaders = nlohmann::json::array();
  nlohmann::json failed = nlohmann::json::array();
  std::size_t width = 6;
  for (const StatsInput& in : inputs) width = std::max(width, in.path.size());
  if (!json) {
    std::cout << inputs.size() << " shader" << (inputs.size() == 1 ? "" : "s") << " on " << DeviceName(context)
              << " (" << context.device.source << ")\n";
    std::string header = "shader";
    header.resize(width + 2, ' ');
    std::cout << "  " << header << "stage       ";
    for (std::string_view k : kColumns) std::cout << RightAligned(std::string(k), std::max<std::size_t>(k.size(), 8) + 2);
    std::cout << '\n';
  }
  for (const StatsInput& in : inputs) {
    Analysed a;
    if (!Analyse(in.path, args, context, false, a)) {  // the reason is on stderr
      failed.push_back(in.path);
      if (!json) {
        std::string name = in.path;
        name.resize(width + 2, ' ');
        std::cout << "  " << name << "FAILED (see stderr)\n";
      }
      continue;
    }
    if (json) {
      shaders.push_back(ToJson(a, context));
      continue;
    }
    std::string name = in.path;
    name.resize(width + 2, ' ');
    std::string stage = statistics::StageName(a.stats.stage);
    stage.resize(std::max<std::size_t>(stage.size() + 1, 12), ' ');  // "tessellation control" is the longest
    std::cout << "  " << name << stage;
    const auto values = statistics::ListStatistics(a.stats, context.dialect);
    for (std::string_view k : kColumns) {
      std::string cell = "-";
      for (const StatisticValue& v : values)
        if (v.descriptor->key == k) cell = FormatValue(v);
      std::cout << RightAligned(cell, std::max<std::size_t>(k.size(), 8) + 2);
    }
    std::cout << '\n';
  }
  if (json) {
    nlohmann::json out = {{"device", DeviceName(context)}, {"deviceSource", context.device.source},
                          {"shaders", shaders}, {"failed", failed}};
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << inputs.size() - failed.size() << " analysed, " << failed.size() << " failed\n";
  }
  return failed.empty() ? kExitOk : kExitCannotRun;
}

// Two directories: shaders matched by their path inside each, compared as pairs; one line per shader.
int CompareDirectories(const std::string& beforeDir, const std::string& afterDir, const ParsedArgs& args,
                       const Context& context, const std::vector<const StatisticDescriptor*>& gated,
                       const std::vector<Tolerance>& tolerances, bool json) {
  std::vector<StatsInput> before, after;
  std::string error;
  if (!CollectStatsInputs(beforeDir, before, error) || !CollectStatsInputs(afterDir, after, error)) {
    std::cerr << "crashtest stats: " << error << '\n';
    return kExitCannotRun;
  }
  std::vector<std::string_view> added, removed;
  for (const StatsInput& a : after)
    if (std::none_of(before.begin(), before.end(), [&](const StatsInput& b) { return b.relative == a.relative; }))
      added.push_back(a.relative);
  nlohmann::json shaders = nlohmann::json::array();
  std::vector<std::string> failed;
  std::size_t regressedShaders = 0;
  std::size_t width = 6;
  for (const StatsInput& b : before) width = std::max(width, b.relative.size());
  if (!json) {
    std::cout << beforeDir << " -> " << afterDir << " on " << DeviceName(context) << " (" << context.device.source
              << ")\n";
    std::string header = "shader";
    header.resize(width + 2, ' ');
    std::cout << "  " << header << "result      gated changes\n";
  }
  for (const StatsInput& b : before) {
    auto match = std::find_if(after.begin(), after.end(), [&](const StatsInput& a) { return a.relative == b.relative; });
    if (match == after.end()) {
      removed.push_back(b.relative);
      continue;
    }
    Analysed ab, aa;
    std::string name = b.relative;
    name.resize(width + 2, ' ');
    if (!Analyse(b.path, args, context, false, ab) || !Analyse(match->path, args, context, false, aa)) {
      failed.push_back(b.relative);
      if (!json) std::cout << "  " << name << "FAILED      (see stderr)\n";
      continue;
    }
    const Comparison c = CompareStatistics(ab, aa, gated, tolerances);
    if (!c.regressions.empty()) ++regressedShaders;
    if (json) {
      shaders.push_back({{"shader", b.relative}, {"before", ToJson(ab, context)}, {"after", ToJson(aa, context)},
                         {"deltas", c.deltas}, {"regressions", StringsJson(c.regressions)}});
      continue;
    }
    std::string changes;
    for (const ComparedStatistic& r : c.rows) {
      if (std::find(gated.begin(), gated.end(), r.descriptor) == gated.end() || r.before == r.after) continue;
      changes += (changes.empty() ? "" : "; ") + std::string(r.descriptor->key) + ' ' + r.before + " -> " + r.after +
                 (r.regressed ? " REGRESSION" : "");
    }
    std::cout << "  " << name << (c.regressions.empty() ? "ok          " : "REGRESSION  ")
              << (changes.empty() ? "-" : changes) << '\n';
  }
  if (json) {
    nlohmann::json failedJson = nlohmann::json::array();
    for (const std::string& f : failed) failedJson.push_back(f);
    nlohmann::json out = {{"before", beforeDir}, {"after", afterDir}, {"device", DeviceName(context)},
                          {"deviceSource", context.device.source}, {"gated", GatedJson(gated, tolerances)},
                          {"shaders", shaders}, {"added", StringsJson(added)}, {"removed", StringsJson(removed)},
                          {"failed", failedJson}, {"regressedShaders", regressedShaders}};
    std::cout << out.dump(2) << '\n';
  } else {
    for (std::string_view a : added) std::cout << "  added:   " << a << '\n';
    for (std::string_view r : removed) std::cout << "  removed: " << r << '\n';
    const std::size_t compared = before.size() - removed.size() - failed.size();
    std::cout << compared << " compared, " << regressedShaders << " with regressions, " << added.size()
              << " added, " << removed.size() << " removed, " << failed.size() << " failed\n";
  }
  if (!failed.empty()) return kExitCannotRun;
  return regressedShaders == 0 ? kExitOk : kExitRegression;
}

int Run(const ParsedArgs& args) {
  const bool compare = args.Has("compare");
  if (compare ? args.positional.size() != 2 : args.positional.empty()) {
    std::cerr << "crashtest stats: "
              << (compare ? "--compare takes two files or two directories, BEFORE AFTER" : "expected FILE.spv or a directory")
              << ", got " << args.positional.size() << " arguments\nRun 'crashtest help stats' for usage.\n";
    return kExitUsage;
  }
  if (const std::string* s = args.Value("stage")) {
    VkShaderStageFlagBits stage{};
    if (!ParseStage(*s, stage)) {
      std::cerr << "crashtest stats: --stage: unknown stage '" << *s
                << "' (expected vert, tesc, tese, geom, frag or comp)\nRun 'crashtest help stats' for usage.\n";
      return kExitUsage;
    }
  }
  for (const char* option : {"fail-on", "threshold"}) {
    if (args.Has(option) && !compare) {
      std::cerr << "crashtest stats: --" << option << " applies to --compare\nRun 'crashtest help stats' for usage.\n";
      return kExitUsage;
    }
  }
  StatisticDialect wantedDialect{};
  const std::string* dialectArg = args.Value("dialect");
  if (dialectArg != nullptr && !ParseStatisticDialect(*dialectArg, &wantedDialect)) {
    std::cerr << "crashtest stats: --dialect: unknown dialect '" << *dialectArg
              << "' (expected crashtest, radv, nvidia or anv)\nRun 'crashtest help stats' for usage.\n";
    return kExitUsage;
  }
  if (compare && IsDirectory(args.positional[0]) != IsDirectory(args.positional[1])) {
    std::cerr << "crashtest stats: --compare takes two files or two directories, not one of each\n"
                 "Run 'crashtest help stats' for usage.\n";
    return kExitUsage;
  }

  Context context;
  const std::string* deviceArg = args.Value("device");
  context.deviceReference = deviceArg != nullptr ? *deviceArg : "default";
  std::string error;
  if (!LoadStatsDevice(context.deviceReference, context.device, error)) {
    std::cerr << error << "crashtest stats: cannot load device '" << context.deviceReference << "'\n";
    return kExitCannotRun;
  }
  context.dialect = dialectArg != nullptr ? wantedDialect : context.device.machine.dialect;
  std::vector<const StatisticDescriptor*> gated;
  const std::string* failOn = args.Value("fail-on");
  if (!ParseFailOn(failOn != nullptr ? *failOn : DefaultFailOn(context.dialect), context.dialect, gated))
    return kExitUsage;
  std::vector<Tolerance> tolerances;
  if (const std::string* threshold = args.Value("threshold")) {
    if (!ParseThresholds(*threshold, context.dialect, tolerances, error)) {
      std::cerr << "crashtest stats: " << error << "\nRun 'crashtest help stats' for usage.\n";
      return kExitUsage;
    }
    // A statistic given a threshold is gated by it.
    for (const Tolerance& t : tolerances)
      if (std::find(gated.begin(), gated.end(), t.statistic) == gated.end()) gated.push_back(t.statistic);
  }
  const bool json = args.Has("json");
  if (compare && IsDirectory(args.positional[0]))
    return CompareDirectories(args.positional[0], args.positional[1], args, context, gated, tolerances, json);
  if (!compare && (args.positional.size() > 1 || IsDirectory(args.positional[0]))) {
    std::vector<StatsInput> inputs;
    for (const std::string& p : args.positional) {
      if (!CollectStatsInputs(p, inputs, error)) {
        std::cerr << "crashtest stats: " << error << '\n';
        return kExitCannotRun;
      }
    }
    return Summarise(inputs, args, context, json);
  }
  std::vector<Analysed> results(args.positional.size());
  for (size_t i = 0; i < args.positional.size(); ++i)
    if (!Analyse(args.positional[i], args, context, args.Has("ir") && !json && !compare, results[i]))
      return kExitCannotRun;
  if (compare) return Compare(results[0], results[1], context, gated, tolerances, json);
  if (json) std::cout << ToJson(results[0], context).dump(2) << '\n';
  else PrintText(results[0], context);
  return kExitOk;
}

}  // namespace

const Command& StatsCommand() {
  static const Command command{
      .name = "stats",
      .summary = "Pipeline statistics of a SPIR-V shader on an emulated device; compare two shaders",
      .arguments = "FILE.spv|DIR... | --compare BEFORE AFTER",
      .description =
          "Compiles FILE.spv as the driver compiles a pipeline stage (validation, specialisation defaults,\n"
          "optimisation, crashtest's IR) and prints the statistics VK_KHR_pipeline_executable_properties reports\n"
          "for it on the device: instruction counts by class, blocks, loops, branches, register demand and\n"
          "allocation, spills and fills, scratch, workgroup memory and size, occupancy, estimated cycles, code\n"
          "size and a stable hash. docs/statistics.md explains each figure and the machine model.\n"
          "\n"
          "The statistics use the names, units and meanings of the device's dialect: radv (AMD: SGPRs, VGPRs,\n"
          "Scratch size per subgroup, ...), nvidia (Register Count, Local Memory Size, ...), anv (Intel) or\n"
          "crashtest (the default device's); --dialect NAME chooses one, --dialect crashtest gives ours.\n"
          "\n"
          "With --compare, prints BEFORE, AFTER and the delta of each statistic and marks regressions of the gated\n"
          "statistics (--fail-on; default: spills, scratch, registers and occupancy in the dialect's keys:\n"
          "crashtest spills,fills,scratchSize,registers,subgroupsPerCore; radv spilledSgprs,spilledVgprs,\n"
          "scratchSize,vgprs,subgroupsPerSimd; nvidia registerCount,localMemorySize; anv spillCount,fillCount,\n"
          "scratchMemorySize), so a CI job can fail a change that makes a shader spill or lose occupancy.\n"
          "--threshold gives a statistic a tolerance: registers=+4 lets registers grow by 4, estimatedCycles=5%\n"
          "by 5 percent (a statistic with a threshold is gated).\n"
          "\n"
          "At CI scale: several files or a directory (its .spv files, recursively) print one summary row per\n"
          "shader; --compare BEFORE_DIR AFTER_DIR matches shaders by their path inside each directory and prints\n"
          "one line per shader (ok or REGRESSION with the gated changes), the added and removed ones, and totals.",
      .options = kOptions,
      .details =
          "Output: text on stdout, or with --json one object: {\"file\", \"device\", \"deviceSource\", \"dialect\",\n"
          "\"stage\", \"entryPoint\", \"subgroupSize\", \"occupancyLimit\", \"statistics\": {KEY: value}} (the hash as\n"
          "a hex string); with --compare {\"before\", \"after\", \"deltas\", \"gated\", \"thresholds\",\n"
          "\"regressions\"}; for several files {\"device\", \"deviceSource\", \"shaders\": [...], \"failed\": [...]};\n"
          "for two directories {\"before\", \"after\", \"device\", \"deviceSource\", \"gated\", \"shaders\":\n"
          "[{\"shader\", \"before\", \"after\", \"deltas\", \"regressions\"}], \"added\", \"removed\", \"failed\",\n"
          "\"regressedShaders\"}.\n"
          "\n"
          "Exit codes: 0 statistics printed (--compare: no gated statistic got worse beyond its threshold);\n"
          "1 --compare found a regression; 2 usage error; 3 could not run: a file could not be read or compiled,\n"
          "a directory has no .spv file, or the device could not be loaded (the other shaders are still reported).",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
