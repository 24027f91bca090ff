// `crashtest stats`: the pipeline statistics of a SPIR-V shader on an emulated device, offline, with exactly the
// code the driver runs for VK_KHR_pipeline_executable_properties (pipeline::Compile, then ComputeStatistics);
// `--compare` shows what a shader change does to them and fails when a gated statistic gets worse (CI gating).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "pipeline/compiler.h"
#include "statistics/executable_builder.h"
#include "statistics/representations.h"
#include "statistics/statistic_table.h"
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
    {"dialect", "NAME", "statistic names: crashtest, radv, nvidia or anv (default: the device's)"},
};

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

bool Worse(const StatisticDescriptor& d, double before, double after) {
  return (d.better == Better::Lower && after > before) || (d.better == Better::Higher && after < before);
}

int Compare(const Analysed& before, const Analysed& after, const Context& context,
            const std::vector<const StatisticDescriptor*>& gated, bool json) {
  auto lb = statistics::ListStatistics(before.stats);
  auto la = statistics::ListStatistics(after.stats);
  std::vector<std::string_view> regressions;
  nlohmann::json deltas = nlohmann::json::object();
  std::ostringstream table;
  for (const StatisticValue& b : lb) {
    const StatisticValue* a = nullptr;
    for (const StatisticValue& candidate : la)
      if (candidate.descriptor == b.descriptor) a = &candidate;
    if (a == nullptr) continue;  // a compute-only statistic against a graphics stage
    const StatisticDescriptor& d = *b.descriptor;
    double vb = statistics::NumericValue(b), va = statistics::NumericValue(*a);
    bool isGated = std::find(gated.begin(), gated.end(), &d) != gated.end();
    bool regressed = isGated && Worse(d, vb, va);
    if (regressed) regressions.push_back(d.key);
    std::string name(d.name);
    name.resize(std::max<size_t>(name.size() + 2, 34), ' ');
    std::string vbText = FormatValue(b), vaText = FormatValue(*a);
    table << "  " << name;
    char line[160];
    if (d.key == "hash" || d.format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR) {
      std::snprintf(line, sizeof line, "%18s  %18s  %s", vbText.c_str(), vaText.c_str(),
                    vbText == vaText ? "same" : "changed");
      if (d.key != "hash") deltas[std::string(d.key)] = static_cast<int64_t>(va) - static_cast<int64_t>(vb);
    } else {
      int64_t delta = static_cast<int64_t>(a->value.u64) - static_cast<int64_t>(b.value.u64);
      deltas[std::string(d.key)] = delta;
      if (delta == 0) {
        std::snprintf(line, sizeof line, "%18s  %18s  =", vbText.c_str(), vaText.c_str());
      } else if (vb != 0) {
        std::snprintf(line, sizeof line, "%18s  %18s  %+" PRId64 " (%+.1f%%)", vbText.c_str(), vaText.c_str(),
                      delta, 100.0 * (va - vb) / vb);
      } else {
        std::snprintf(line, sizeof line, "%18s  %18s  %+" PRId64, vbText.c_str(), vaText.c_str(), delta);
      }
    }
    table << line << (regressed ? "  REGRESSION" : "") << '\n';
  }
  if (json) {
    nlohmann::json regressionsJson = nlohmann::json::array();
    for (std::string_view r : regressions) regressionsJson.push_back(std::string(r));
    nlohmann::json gatedJson = nlohmann::json::array();
    for (const StatisticDescriptor* d : gated) gatedJson.push_back(std::string(d->key));
    nlohmann::json out = {{"before", ToJson(before, context)}, {"after", ToJson(after, context)},
                          {"deltas", deltas}, {"gated", gatedJson}, {"regressions", regressionsJson}};
    std::cout << out.dump(2) << '\n';
  } else {
    std::cout << before.file << " -> " << after.file << " on " << DeviceName(context) << " ("
              << context.device.source << ")\n";
    std::string header = "statistic";
    header.resize(34, ' ');
    char columns[80];
    std::snprintf(columns, sizeof columns, "%18s  %18s  %s", "before", "after", "delta");
    std::cout << "  " << header << columns << '\n' << table.str();
    if (regressions.empty()) {
      std::cout << "no regression";
      if (gated.empty()) std::cout << " (nothing gated: --fail-on none)";
      std::cout << '\n';
    } else {
      std::cout << regressions.size() << " regression" << (regressions.size() == 1 ? "" : "s") << ":";
      for (std::string_view r : regressions) std::cout << ' ' << r;
      std::cout << '\n';
    }
  }
  return regressions.empty() ? kExitOk : kExitFailure;
}

int Run(const ParsedArgs& args) {
  const bool compare = args.Has("compare");
  const size_t wanted = compare ? 2 : 1;
  if (args.positional.size() != wanted) {
    std::cerr << "crashtest stats: "
              << (compare ? "--compare takes two files, BEFORE.spv AFTER.spv" : "expected one FILE.spv") << ", got "
              << args.positional.size() << "\nRun 'crashtest help stats' for usage.\n";
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
  if (args.Has("fail-on") && !compare) {
    std::cerr << "crashtest stats: --fail-on applies to --compare\nRun 'crashtest help stats' for usage.\n";
    return kExitUsage;
  }
  StatisticDialect wantedDialect{};
  const std::string* dialectArg = args.Value("dialect");
  if (dialectArg != nullptr && !ParseStatisticDialect(*dialectArg, &wantedDialect)) {
    std::cerr << "crashtest stats: --dialect: unknown dialect '" << *dialectArg
              << "' (expected crashtest, radv, nvidia or anv)\nRun 'crashtest help stats' for usage.\n";
    return kExitUsage;
  }

  Context context;
  const std::string* deviceArg = args.Value("device");
  context.deviceReference = deviceArg != nullptr ? *deviceArg : "default";
  std::string error;
  if (!LoadStatsDevice(context.deviceReference, context.device, error)) {
    std::cerr << error << "crashtest stats: cannot load device '" << context.deviceReference << "'\n";
    return kExitFailure;
  }
  context.dialect = dialectArg != nullptr ? wantedDialect : context.device.machine.dialect;
  std::vector<const StatisticDescriptor*> gated;
  const std::string* failOn = args.Value("fail-on");
  if (!ParseFailOn(failOn != nullptr ? *failOn : DefaultFailOn(context.dialect), context.dialect, gated))
    return kExitUsage;
  const bool json = args.Has("json");
  std::vector<Analysed> results(args.positional.size());
  for (size_t i = 0; i < args.positional.size(); ++i)
    if (!Analyse(args.positional[i], args, context, args.Has("ir") && !json && !compare, results[i]))
      return kExitFailure;
  if (compare) return Compare(results[0], results[1], context, gated, json);
  if (json) std::cout << ToJson(results[0], context).dump(2) << '\n';
  else PrintText(results[0], context);
  return kExitOk;
}

}  // namespace

const Command& StatsCommand() {
  static const Command command{
      .name = "stats",
      .summary = "Pipeline statistics of a SPIR-V shader on an emulated device; compare two shaders",
      .arguments = "FILE.spv | --compare BEFORE.spv AFTER.spv",
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
          "scratchMemorySize), so a CI job can fail a change that makes a shader spill or lose occupancy.",
      .options = kOptions,
      .details =
          "Output: text on stdout, or with --json one object: {\"file\", \"device\", \"deviceSource\", \"dialect\",\n"
          "\"stage\", \"entryPoint\", \"subgroupSize\", \"occupancyLimit\", \"statistics\": {KEY: value}} (the hash as\n"
          "a hex string); with --compare {\"before\", \"after\", \"deltas\", \"gated\", \"regressions\"}.\n"
          "\n"
          "Exit codes: 0 statistics printed (--compare: no gated statistic got worse); 1 --compare found a\n"
          "regression, or a file could not be read or compiled, or the device could not be loaded; 2 usage error.",
      .run = &Run,
  };
  return command;
}

}  // namespace crashtest
