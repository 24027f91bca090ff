#include "statistics/statistic_table.h"

namespace crashtest::statistics {
namespace {

constexpr auto kU64 = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR;
constexpr auto kBool = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR;

// The order here is the report order; append new statistics at the end of their group only.
constexpr StatisticDescriptor kStatistics[] = {
    {"instructions", "Instructions",
     "Machine instructions estimated from the optimised IR (ALU work per 32-bit component, folded instructions "
     "not counted): the sum of the five classes below",
     kU64, Better::Lower, false},
    {"aluInstructions", "ALU instructions",
     "Arithmetic, logic, conversion, address, derivative and subgroup operations, per 32-bit component", kU64,
     Better::Lower, false},
    {"memoryInstructions", "Memory instructions",
     "Loads, stores and copies in every storage class except images; vertex emission", kU64, Better::Lower,
     false},
    {"textureInstructions", "Texture instructions",
     "Image sample, fetch, gather, read, write and query instructions", kU64, Better::Lower, false},
    {"controlFlowInstructions", "Control-flow instructions",
     "Conditional branches, switches, kills and demotes", kU64, Better::Lower, false},
    {"barrierAtomicInstructions", "Barrier and atomic instructions",
     "Control and memory barriers and atomic operations", kU64, Better::Lower, false},
    {"irInstructions", "IR instructions",
     "Instructions in crashtest's IR after optimisation, one each (phis and terminators included)", kU64,
     Better::Lower, false},
    {"basicBlocks", "Basic blocks", "Basic blocks of the optimised shader body (every function inlined)", kU64,
     Better::Neither, false},
    {"loops", "Loops", "Natural loops (back edges to a dominating header), nested loops counted separately", kU64,
     Better::Neither, false},
    {"branches", "Branches", "Conditional branches and switches", kU64, Better::Lower, false},
    {"registerDemand", "Register demand",
     "Peak number of 32-bit register components live at once in one invocation, from liveness analysis", kU64,
     Better::Lower, false},
    {"registers", "Registers",
     "32-bit registers allocated per invocation: demand capped at the budget, rounded up to the allocation "
     "granule",
     kU64, Better::Lower, false},
    {"registerBudgetExceeded", "Register budget exceeded",
     "Whether the register demand exceeds the per-invocation register budget, so values are spilled", kBool,
     Better::Lower, false},
    {"spills", "Spills",
     "Values stored to scratch memory because the demand exceeds the register budget (furthest-next-use "
     "heuristic)",
     kU64, Better::Lower, false},
    {"fills", "Fills", "Reloads of spilled values from scratch memory", kU64, Better::Lower, false},
    {"scratchSize", "Scratch size",
     "Bytes of scratch memory per invocation: spill slots plus variables not promoted to registers", kU64,
     Better::Lower, false},
    {"workgroupMemorySize", "Workgroup memory size", "Bytes of workgroup (shared) memory one workgroup declares",
     kU64, Better::Lower, true},
    {"workgroupSize", "Workgroup size", "Invocations per workgroup (local size x * y * z)", kU64, Better::Neither,
     true},
    {"subgroupsPerWorkgroup", "Subgroups per workgroup",
     "Subgroups one workgroup is split into: workgroup size divided by the subgroup size, rounded up", kU64,
     Better::Neither, true},
    {"subgroupsPerCore", "Subgroups per core",
     "Occupancy: subgroups resident per core, limited by registers, workgroup memory and the hardware cap", kU64,
     Better::Higher, false},
    {"estimatedCycles", "Estimated cycles",
     "Latency-weighted instruction sum per invocation from the device's latency table, loop bodies multiplied "
     "by their trip count",
     kU64, Better::Lower, false},
    {"codeSize", "Code size", "Bytes of crashtest's IR encoding of the shader", kU64, Better::Lower, false},
    {"hash", "Shader hash",
     "Stable 64-bit hash of the optimised SPIR-V, the stage, the subgroup size and the machine model", kU64,
     Better::Neither, false},
};

uint64_t ValueOf(std::string_view key, const ShaderStatistics& s) {
  if (key == "instructions") return s.instructions;
  if (key == "aluInstructions") return InstructionsOfClass(s, InstructionClass::Alu);
  if (key == "memoryInstructions") return InstructionsOfClass(s, InstructionClass::Memory);
  if (key == "textureInstructions") return InstructionsOfClass(s, InstructionClass::Texture);
  if (key == "controlFlowInstructions") return InstructionsOfClass(s, InstructionClass::ControlFlow);
  if (key == "barrierAtomicInstructions") return InstructionsOfClass(s, InstructionClass::BarrierAtomic);
  if (key == "irInstructions") return s.irInstructions;
  if (key == "basicBlocks") return s.basicBlocks;
  if (key == "loops") return s.loops;
  if (key == "branches") return s.branches;
  if (key == "registerDemand") return s.registerDemand;
  if (key == "registers") return s.registersAllocated;
  if (key == "registerBudgetExceeded") return s.budgetExceeded ? 1 : 0;
  if (key == "spills") return s.spills;
  if (key == "fills") return s.fills;
  if (key == "scratchSize") return s.scratchBytes;
  if (key == "workgroupMemorySize") return s.workgroupMemoryBytes;
  if (key == "workgroupSize") return s.workgroupInvocations;
  if (key == "subgroupsPerWorkgroup") return s.subgroupsPerWorkgroup;
  if (key == "subgroupsPerCore") return s.subgroupsPerCore;
  if (key == "estimatedCycles") return s.estimatedCycles;
  if (key == "codeSize") return s.codeSizeBytes;
  if (key == "hash") return s.hash;
  return 0;
}

}  // namespace

std::span<const StatisticDescriptor> AllStatistics() { return kStatistics; }

const StatisticDescriptor* FindStatistic(std::string_view key) {
  for (const StatisticDescriptor& d : kStatistics)
    if (d.key == key) return &d;
  return nullptr;
}

std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats) {
  std::vector<StatisticValue> list;
  for (const StatisticDescriptor& d : kStatistics) {
    if (d.computeOnly && stats.stage != VK_SHADER_STAGE_COMPUTE_BIT) continue;
    StatisticValue v{&d, {}};
    uint64_t value = ValueOf(d.key, stats);
    if (d.format == kBool) v.value.b32 = value != 0 ? VK_TRUE : VK_FALSE;  // "must be VK_TRUE or VK_FALSE"
    else v.value.u64 = value;
    list.push_back(v);
  }
  return list;
}

double NumericValue(const StatisticValue& statistic) {
  switch (statistic.descriptor->format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return statistic.value.b32 ? 1.0 : 0.0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return static_cast<double>(statistic.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return static_cast<double>(statistic.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return statistic.value.f64;
    default: return 0.0;
  }
}

}  // namespace crashtest::statistics
