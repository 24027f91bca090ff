#include "statistics/statistic_table.h"

namespace crashtest::statistics {
namespace {

constexpr auto kU64 = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR;
constexpr auto kBool = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR;

using S = const ShaderStatistics&;

// crashtest's own statistics. The order here is the report order; append new statistics at the end of their
// group only.
constexpr StatisticDescriptor kCrashtest[] = {
    {"instructions", "Instructions",
     "Machine instructions estimated from the optimised IR (ALU work per 32-bit component, folded instructions "
     "not counted): the sum of the five classes below",
     kU64, Better::Lower, false, [](S s) { return s.instructions; }},
    {"aluInstructions", "ALU instructions",
     "Arithmetic, logic, conversion, address, derivative and subgroup operations, per 32-bit component", kU64,
     Better::Lower, false, [](S s) { return InstructionsOfClass(s, InstructionClass::Alu); }},
    {"memoryInstructions", "Memory instructions",
     "Loads, stores and copies in every storage class except images; vertex emission", kU64, Better::Lower,
     false, [](S s) { return InstructionsOfClass(s, InstructionClass::Memory); }},
    {"textureInstructions", "Texture instructions",
     "Image sample, fetch, gather, read, write and query instructions", kU64, Better::Lower, false,
     [](S s) { return InstructionsOfClass(s, InstructionClass::Texture); }},
    {"controlFlowInstructions", "Control-flow instructions",
     "Conditional branches, switches, kills and demotes", kU64, Better::Lower, false,
     [](S s) { return InstructionsOfClass(s, InstructionClass::ControlFlow); }},
    {"barrierAtomicInstructions", "Barrier and atomic instructions",
     "Control and memory barriers and atomic operations", kU64, Better::Lower, false,
     [](S s) { return InstructionsOfClass(s, InstructionClass::BarrierAtomic); }},
    {"irInstructions", "IR instructions",
     "Instructions in crashtest's IR after optimisation, one each (phis and terminators included)", kU64,
     Better::Lower, false, [](S s) { return s.irInstructions; }},
    {"scalarInstructions", "Scalar instructions",
     "Machine instructions the scalar unit runs once per subgroup: uniform integer work, uniform loads, branches "
     "and barriers (0 on a machine without a scalar unit)",
     kU64, Better::Neither, false, [](S s) { return s.scalarInstructions; }},
    {"vectorInstructions", "Vector instructions",
     "Machine instructions the vector unit runs for every invocation: Instructions less the scalar ones", kU64,
     Better::Lower, false, [](S s) { return s.vectorInstructions; }},
    {"basicBlocks", "Basic blocks", "Basic blocks of the optimised shader body (every function inlined)", kU64,
     Better::Neither, false, [](S s) { return s.basicBlocks; }},
    {"loops", "Loops", "Natural loops (back edges to a dominating header), nested loops counted separately", kU64,
     Better::Neither, false, [](S s) { return s.loops; }},
    {"branches", "Branches", "Conditional branches and switches", kU64, Better::Lower, false,
     [](S s) { return s.branches; }},
    {"divergentBranches", "Divergent branches",
     "Conditional branches and switches on a condition that differs between the invocations of a subgroup "
     "(uniformity analysis), so both paths run with some invocations masked off",
     kU64, Better::Lower, false, [](S s) { return s.divergentBranches; }},
    {"registerDemand", "Register demand",
     "Peak number of 32-bit vector register components live at once in one invocation (uniform values excluded "
     "where the machine has scalar registers), private arrays kept in registers included",
     kU64, Better::Lower, false, [](S s) { return s.registerDemand; }},
    {"registers", "Registers",
     "32-bit vector registers allocated per invocation: demand (after the scheduler keeps loads in flight, where "
     "the model has one) capped at the budget, rounded up to the allocation granule",
     kU64, Better::Lower, false, [](S s) { return s.registersAllocated; }},
    {"scalarRegisterDemand", "Scalar register demand",
     "Peak number of scalar registers live at once in a subgroup: uniform values, divergent booleans as lane "
     "masks (0 on a machine without scalar registers)",
     kU64, Better::Lower, false, [](S s) { return s.scalarRegisterDemand; }},
    {"scalarRegisters", "Scalar registers",
     "Scalar registers allocated per subgroup: scalar demand capped at the scalar budget, rounded up to the "
     "scalar granule",
     kU64, Better::Lower, false, [](S s) { return s.scalarRegisters; }},
    {"registerBudgetExceeded", "Register budget exceeded",
     "Whether the register demand exceeds the per-invocation register budget, so values are spilled", kBool,
     Better::Lower, false, [](S s) -> uint64_t { return s.budgetExceeded ? 1 : 0; }},
    {"spills", "Spills",
     "Values stored to scratch memory because the demand exceeds the register budget (furthest-next-use "
     "heuristic)",
     kU64, Better::Lower, false, [](S s) { return s.spills; }},
    {"fills", "Fills", "Reloads of spilled values from scratch memory", kU64, Better::Lower, false,
     [](S s) { return s.fills; }},
    {"scratchSize", "Scratch size",
     "Bytes of scratch memory per invocation: spill slots plus private arrays not kept in registers", kU64,
     Better::Lower, false, [](S s) { return s.scratchBytes; }},
    {"workgroupMemorySize", "Workgroup memory size", "Bytes of workgroup (shared) memory one workgroup declares",
     kU64, Better::Lower, true, [](S s) { return s.workgroupMemoryBytes; }},
    {"workgroupSize", "Workgroup size", "Invocations per workgroup (local size x * y * z)", kU64, Better::Neither,
     true, [](S s) { return s.workgroupInvocations; }},
    {"subgroupsPerWorkgroup", "Subgroups per workgroup",
     "Subgroups one workgroup is split into: workgroup size divided by the subgroup size, rounded up", kU64,
     Better::Neither, true, [](S s) { return s.subgroupsPerWorkgroup; }},
    {"subgroupsPerCore", "Subgroups per core",
     "Occupancy: subgroups resident per core, limited by registers, workgroup memory and the hardware cap", kU64,
     Better::Higher, false, [](S s) { return s.subgroupsPerCore; }},
    {"estimatedCycles", "Estimated cycles",
     "Latency-weighted instruction sum per invocation from the device's latency table, loop bodies multiplied "
     "by their trip count",
     kU64, Better::Lower, false, [](S s) { return s.estimatedCycles; }},
    {"codeSize", "Code size", "Bytes of crashtest's IR encoding of the shader", kU64, Better::Lower, false,
     [](S s) { return s.codeSizeBytes; }},
    {"hash", "Shader hash",
     "Stable 64-bit hash of the optimised SPIR-V, the stage, the subgroup size and the machine model", kU64,
     Better::Neither, false, [](S s) { return s.hash; }},
};

// RADV's (Mesa's AMD driver with the ACO back end) names, units and meanings, in its order; the descriptions
// are ours. Registers and scratch are RADV's units: SGPRs per subgroup, VGPRs per invocation, scratch per
// subgroup (wave).
constexpr StatisticDescriptor kRadv[] = {
    {"driverPipelineHash", "Driver pipeline hash",
     "Stable 64-bit hash of the optimised SPIR-V, the stage, the subgroup size and the machine model", kU64,
     Better::Neither, false, [](S s) { return s.hash; }},
    {"sgprs", "SGPRs",
     "Scalar registers allocated per subgroup (RDNA allocates a fixed block to every wave, so this rarely "
     "varies)",
     kU64, Better::Lower, false, [](S s) { return s.scalarRegisters; }},
    {"vgprs", "VGPRs", "Vector registers allocated per invocation", kU64, Better::Lower, false,
     [](S s) { return s.registersAllocated; }},
    {"spilledSgprs", "Spilled SGPRs", "Scalar registers over the scalar budget, spilled into vector register lanes",
     kU64, Better::Lower, false, [](S s) { return s.scalarSpills; }},
    {"spilledVgprs", "Spilled VGPRs", "Vector registers spilled to scratch memory", kU64, Better::Lower, false,
     [](S s) -> uint64_t { return s.spilling.spilledComponents; }},
    {"codeSize", "Code size", "Estimated bytes of machine code (4 or 8 bytes per instruction encoding)", kU64,
     Better::Lower, false, [](S s) { return s.machineCodeBytes; }},
    {"ldsSize", "LDS size", "Bytes of local data share (workgroup memory) per workgroup", kU64, Better::Lower,
     false, [](S s) { return s.workgroupMemoryBytes; }},
    {"scratchSize", "Scratch size", "Bytes of scratch memory per subgroup (wave): spill slots and private arrays",
     kU64, Better::Lower, false, [](S s) { return s.scratchBytes * s.subgroupSize; }},
    {"subgroupsPerSimd", "Subgroups per SIMD",
     "Subgroups (waves) resident per SIMD, limited by registers, workgroup memory and the hardware cap", kU64,
     Better::Higher, false, [](S s) { return s.subgroupsPerSimd; }},
    {"hash", "Hash", "32-bit hash of the shader: the low half of the driver pipeline hash", kU64, Better::Neither,
     false, [](S s) { return s.hash & 0xffffffffu; }},
    {"instructions", "Instructions", "Estimated machine instructions, scalar and vector", kU64, Better::Lower,
     false, [](S s) { return s.instructions; }},
    {"copies", "Copies", "Register moves left by phis that could not share the phi's register", kU64,
     Better::Lower, false, [](S s) { return s.copies; }},
    {"branches", "Branches", "Branch instructions: conditional branches and loop back edges", kU64, Better::Lower,
     false, [](S s) { return s.branches + s.loops - s.unrolledLoops; }},
    {"latency", "Latency", "Estimated cycles for one subgroup to run the shader (latency table, loops weighted)",
     kU64, Better::Lower, false, [](S s) { return s.estimatedCycles; }},
    {"inverseThroughput", "Inverse Throughput",
     "Estimated cycles per subgroup with the resident subgroups sharing the SIMD", kU64, Better::Lower, false,
     [](S s) { return s.inverseThroughput; }},
    {"vmemClause", "VMEM Clause", "Runs of consecutive vector memory instructions (single ones included)", kU64,
     Better::Lower, false, [](S s) { return s.vectorMemoryClauses; }},
    {"smemClause", "SMEM Clause", "Runs of consecutive scalar memory loads (single ones included)", kU64,
     Better::Lower, false, [](S s) { return s.scalarMemoryClauses; }},
    {"preSchedSgprs", "Pre-Sched SGPRs", "Peak scalar register demand before allocation rounding", kU64,
     Better::Lower, false, [](S s) { return s.scalarRegisterDemand; }},
    {"preSchedVgprs", "Pre-Sched VGPRs", "Peak vector register demand per invocation before allocation rounding",
     kU64, Better::Lower, false, [](S s) { return s.registerDemand; }},
};

// NVIDIA's driver's names and units; the descriptions are ours.
constexpr StatisticDescriptor kNvidia[] = {
    {"registerCount", "Register Count", "Registers allocated per thread (invocation)", kU64, Better::Lower, false,
     [](S s) { return s.registersAllocated; }},
    {"binarySize", "Binary Size", "Estimated bytes of machine code (16 bytes per instruction)", kU64,
     Better::Lower, false, [](S s) { return (s.instructions + 1) * 16; }},
    {"stackSize", "Stack Size",
     "Bytes of call stack per thread: 0, every function is inlined (no recursion in Vulkan shaders)", kU64,
     Better::Lower, false, [](S) -> uint64_t { return 0; }},
    {"localMemorySize", "Local Memory Size",
     "Bytes of local (per-thread off-chip) memory: register spills and private arrays not kept in registers",
     kU64, Better::Lower, false, [](S s) { return s.scratchBytes; }},
    {"sharedMemorySize", "Shared Memory Size", "Bytes of shared memory per workgroup (thread block)", kU64,
     Better::Lower, true, [](S s) { return s.workgroupMemoryBytes; }},
};

// ANV's (Mesa's Intel driver) names and units; the descriptions are ours.
constexpr StatisticDescriptor kAnv[] = {
    {"instructionCount", "Instruction Count", "Estimated machine instructions", kU64, Better::Lower, false,
     [](S s) { return s.instructions; }},
    {"sendCount", "SEND Count",
     "Instructions that send a message to a unit outside the execution unit: memory, sampler, barriers, "
     "atomics",
     kU64, Better::Lower, false,
     [](S s) {
       return InstructionsOfClass(s, InstructionClass::Memory) + InstructionsOfClass(s, InstructionClass::Texture) +
              InstructionsOfClass(s, InstructionClass::BarrierAtomic);
     }},
    {"loopCount", "Loop Count", "Loops in the shader", kU64, Better::Neither, false, [](S s) { return s.loops; }},
    {"cycleCount", "Cycle Count", "Estimated cycles to run the shader (latency table, loops weighted)", kU64,
     Better::Lower, false, [](S s) { return s.estimatedCycles; }},
    {"spillCount", "Spill Count", "Register spills to scratch memory", kU64, Better::Lower, false,
     [](S s) { return s.spills; }},
    {"fillCount", "Fill Count", "Reloads of spilled registers from scratch memory", kU64, Better::Lower, false,
     [](S s) { return s.fills; }},
    {"scratchMemorySize", "Scratch Memory Size",
     "Bytes of scratch memory per hardware thread (subgroup): spill slots and private arrays", kU64,
     Better::Lower, false, [](S s) { return s.scratchBytes * s.subgroupSize; }},
    {"workgroupMemorySize", "Workgroup Memory Size", "Bytes of workgroup (shared local) memory per workgroup",
     kU64, Better::Lower, true, [](S s) { return s.workgroupMemoryBytes; }},
};

}  // namespace

std::span<const StatisticDescriptor> AllStatistics(StatisticDialect dialect) {
  switch (dialect) {
    case StatisticDialect::Crashtest: return kCrashtest;
    case StatisticDialect::Radv: return kRadv;
    case StatisticDialect::Nvidia: return kNvidia;
    case StatisticDialect::Anv: return kAnv;
  }
  return kCrashtest;
}

const StatisticDescriptor* FindStatistic(std::string_view key, StatisticDialect dialect) {
  for (const StatisticDescriptor& d : AllStatistics(dialect))
    if (d.key == key) return &d;
  return nullptr;
}

std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats, StatisticDialect dialect) {
  std::vector<StatisticValue> list;
  for (const StatisticDescriptor& d : AllStatistics(dialect)) {
    if (d.computeOnly && stats.stage != VK_SHADER_STAGE_COMPUTE_BIT) continue;
    StatisticValue v{&d, {}};
    uint64_t value = d.value(stats);
    if (d.format == kBool) v.value.b32 = value != 0 ? VK_TRUE : VK_FALSE;  // "must be VK_TRUE or VK_FALSE"
    else v.value.u64 = value;
    list.push_back(v);
  }
  return list;
}

std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats) {
  return ListStatistics(stats, stats.dialect);
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
