#include "statistics/shader_statistics.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <array>
#include <limits>

#include "statistics/back_end_view.h"
#include "statistics/loop_unrolling.h"
#include "statistics/load_scheduling.h"
#include "statistics/loop_weights.h"
#include "statistics/memory_footprint.h"
#include "statistics/output_exports.h"
#include "statistics/private_arrays.h"
#include "statistics/register_files.h"
#include "statistics/stable_hash.h"

namespace crashtest::statistics {
namespace {

uint64_t RoundUp(uint64_t value, uint64_t granule) { return (value + granule - 1) / granule * granule; }

enum class MemoryUnit : uint8_t { None, Vector, Scalar };

// Which memory pipeline an instruction goes through, for clauses: uniform loads from buffers through the scalar
// cache, other buffer, image, scratch and atomic accesses through the vector memory unit; workgroup memory and
// values already in registers (inputs, push constants) through neither.
// `held`: HeldInScalarRegisters(inst) on a machine with a scalar unit (false without one).
MemoryUnit MemoryUnitOf(const ir::Instruction& inst, const InstructionCost& cost, bool held) {
  if (cost.latency != LatencyKind::Memory && cost.latency != LatencyKind::Texture &&
      cost.latency != LatencyKind::Atomic)
    return MemoryUnit::None;
  if (held && inst.op == spv::OpLoad) return MemoryUnit::Scalar;
  return MemoryUnit::Vector;
}

bool IsScalarInstruction(const ir::Instruction& inst, const InstructionCost& cost, bool held) {
  if (cost.cls == InstructionClass::ControlFlow) return true;  // branches run on the scalar unit (exec masks too)
  if (inst.op == spv::OpControlBarrier || inst.op == spv::OpMemoryBarrier) return true;
  return held;
}

void CountInstructions(const pipeline::CompiledShader& shader, const MachineModel& model,
                       const std::vector<uint64_t>& weights, const LoopUnrolling& unrolling, ShaderStatistics& stats,
                       uint64_t& issueCycles) {
  const ir::Module& module = shader.module;
  const bool scalarUnit = model.scalarRegisterBudget != 0;
  uint64_t cycles = 0;
  issueCycles = 0;
  // The model's latency of each kind, looked up once rather than per instruction.
  constexpr size_t kLatencyKinds = static_cast<size_t>(LatencyKind::Atomic) + 1;
  std::array<uint32_t, kLatencyKinds> latency{};
  for (size_t k = 0; k < kLatencyKinds; ++k) latency[k] = LatencyOf(model.latency, static_cast<LatencyKind>(k));
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) {
    uint64_t blockCycles = 0, blockIssues = 0;
    MemoryUnit run = MemoryUnit::None;
    auto liveIn = shader.liveness.LiveIn(b);
    for (const ir::Instruction& inst : module.function.blocks[b].instructions) {
      InstructionCost cost = ClassifyInstruction(module, inst);
      // Machine instructions, as a GPU back end emits them: ALU work once per 32-bit component (the SIMT lanes
      // are scalar: a vec4 add is four adds, a mat4 x vec4 sixteen multiply-adds), nothing for what it folds
      // away (composites, phis, copies, variables, fall-through branches, descriptor bookkeeping).
      // An unrolled loop's body is in the code once per iteration, without its exit test.
      const bool conditional = inst.op == spv::OpBranchConditional || inst.op == spv::OpSwitch;
      const uint64_t copies = conditional && unrolling.exitTestRemoved[b] ? 0 : unrolling.blockCopies[b];
      const bool folded = inst.result != ir::kNone && unrolling.foldsAway[inst.result];
      const uint64_t issued = cost.latency == LatencyKind::Free ? 0 : cost.issues;
      const uint64_t machine = folded ? 0 : SaturatingMul(issued, copies);
      ++stats.irInstructions;
      stats.instructions += machine;
      stats.instructionsByClass[static_cast<size_t>(cost.cls)] += machine;
      // Encodings: ALU, branch and barrier instructions take one dword (VOP1/VOP2/SOP), memory, texture and
      // atomic instructions two (SMEM/MUBUF/MIMG/DS carry offsets and resource operands).
      const bool wide = cost.latency == LatencyKind::Memory || cost.latency == LatencyKind::Texture ||
                        cost.latency == LatencyKind::Atomic || cost.latency == LatencyKind::Shared;
      stats.machineCodeBytes += machine * (wide ? 8 : 4);
      const bool held = scalarUnit && HeldInScalarRegisters(module, stats.uniformity, inst);
      if (scalarUnit && IsScalarInstruction(inst, cost, held)) stats.scalarInstructions += machine;
      else stats.vectorInstructions += machine;
      if (conditional) {
        stats.branches += copies;
        if (stats.uniformity.IsDivergentBranch(b)) stats.divergentBranches += copies;
      }
      if (inst.op == spv::OpPhi) {
        // A phi operand becomes a move at the end of its predecessor unless the allocator can give it the phi's
        // register: not for a constant, nor for a value still live after the phi (the two interfere).
        auto operands = module.Operands(inst);
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          ir::ValueId v = operands[k];
          if (module.values[v].kind == ir::ValueKind::Constant ||
              std::binary_search(liveIn.begin(), liveIn.end(), v))
            ++stats.copies;
        }
      }
      if (machine != 0) {
        MemoryUnit unit = MemoryUnitOf(inst, cost, held);
        if (unit != run && unit == MemoryUnit::Vector) ++stats.vectorMemoryClauses;
        if (unit != run && unit == MemoryUnit::Scalar) ++stats.scalarMemoryClauses;
        run = unit;
      }
      blockCycles = SaturatingAdd(blockCycles, SaturatingMul(latency[static_cast<size_t>(cost.latency)], cost.issues));
      blockIssues = SaturatingAdd(blockIssues, issued);
    }
    cycles = SaturatingAdd(cycles, SaturatingMul(blockCycles, weights[b]));
    issueCycles = SaturatingAdd(issueCycles, SaturatingMul(blockIssues, weights[b]));
  }
  stats.estimatedCycles = cycles;
  stats.machineCodeBytes += 4;  // the end-of-program instruction
}

}  // namespace

uint64_t SubgroupsByRegisters(const MachineModel& model, uint64_t registers, uint32_t subgroupSize) {
  if (registers == 0 || subgroupSize == 0) return model.maxSubgroupsPerCore;
  // The register file holds registerFilePerLane registers for each of maxSubgroupSize lanes; a subgroup of
  // `subgroupSize` invocations takes `registers` of them per invocation (so wave32 fits twice the waves of
  // wave64, as on RDNA).
  return uint64_t{model.registerFilePerLane} * model.maxSubgroupSize / (registers * subgroupSize);
}

namespace {

void ComputeOccupancy(const MachineModel& model, ShaderStatistics& stats) {
  uint64_t subgroups = model.maxSubgroupsPerCore;
  stats.occupancyLimit = OccupancyLimit::HardwareCap;
  uint64_t byRegisters = SubgroupsByRegisters(model, stats.registersAllocated, stats.subgroupSize);
  if (byRegisters < subgroups) {
    subgroups = byRegisters;
    stats.occupancyLimit = OccupancyLimit::Registers;
  }
  if (stats.workgroupMemoryBytes != 0 && stats.subgroupsPerWorkgroup != 0) {
    // Workgroups share a core's workgroup memory; each brings all its subgroups.
    uint64_t bySharedMemory = model.sharedMemoryPerCore / stats.workgroupMemoryBytes * stats.subgroupsPerWorkgroup;
    if (bySharedMemory < subgroups) {
      subgroups = bySharedMemory;
      stats.occupancyLimit = OccupancyLimit::SharedMemory;
    }
  }
  stats.subgroupsPerCore = subgroups;
}

uint64_t Hash(const pipeline::CompiledShader& shader, const MachineModel& model, const ShaderStatistics& stats) {
  StableHash hash;
  hash.Add(shader.optimizedSpirv);
  hash.Add(static_cast<uint64_t>(stats.stage));
  hash.Add(stats.subgroupSize);
  for (uint32_t v : {model.registerBudget, model.registerFilePerLane, model.allocationGranule,
                     model.maxSubgroupsPerCore, model.sharedMemoryPerCore, model.coreCount, model.minSubgroupSize,
                     model.maxSubgroupSize, model.latency.alu, model.latency.transcendental, model.latency.memory,
                     model.latency.shared, model.latency.texture, model.latency.branch, model.latency.barrier,
                     model.latency.atomic, model.scalarRegisterBudget, model.scalarAllocationGranule,
                     model.privateArrayRegisterLimit, model.loopUnrollIterations, model.loopUnrollIterationsForLoads,
                     model.loadSchedulingRegisters, model.simdsPerCore, static_cast<uint32_t>(model.dialect),
                     model.vertexStageInputRegisters, model.geometryVerticesHeld})
    hash.Add(v);
  return hash.Value();
}

}  // namespace

const char* OccupancyLimitName(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::HardwareCap: return "hardware cap";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "workgroup memory";
  }
  return "?";
}

uint64_t InstructionsOfClass(const ShaderStatistics& stats, InstructionClass cls) {
  return stats.instructionsByClass[static_cast<size_t>(cls)];
}

namespace {

// Vector register demand: the vector file's live values plus the private arrays held in registers and the
// outputs held for the export, at the position where their sum peaks.
uint64_t VectorDemand(const ir::Module& module, const analysis::Liveness& vectorLiveness,
                      const PrivateArrays& arrays, const HeldOutputs& outputs) {
  if (arrays.registerComponentsAt.empty() && outputs.componentsAt.empty()) return vectorLiveness.MaxLiveComponents();
  uint64_t peak = vectorLiveness.MaxLiveComponents();
  uint32_t position = 0;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b)
    for (uint32_t i = 0; i < module.function.blocks[b].instructions.size(); ++i, ++position)
      peak = std::max<uint64_t>(
          peak, uint64_t{vectorLiveness.LiveComponentsAt(b, i)} +
                    (arrays.registerComponentsAt.empty() ? 0 : arrays.registerComponentsAt[position]) +
                    (outputs.componentsAt.empty() ? 0 : outputs.componentsAt[position]));
  return peak;
}

}  // namespace

ShaderStatistics ComputeStatistics(const pipeline::CompiledShader& compiled, const MachineModel& model,
                                   VkShaderStageFlagBits stage, uint32_t subgroupSize) {
  ShaderStatistics stats;
  stats.backEndView = BackEndViewOf(compiled);
  const pipeline::CompiledShader& shader = stats.backEndView != nullptr ? *stats.backEndView : compiled;
  const ir::Module& module = shader.module;
  stats.stage = stage;
  stats.subgroupSize = subgroupSize != 0 ? subgroupSize : model.maxSubgroupSize;
  stats.dialect = model.dialect;
  stats.uniformity = analysis::Uniformity::Build(module, shader.postDominators, shader.loops);

  std::vector<uint64_t> weights = BlockWeights(module, shader.loops);
  uint64_t issueCycles = 0;
  const LoopUnrolling unrolling = UnrollLoops(module, shader.loops, model);
  CountInstructions(shader, model, weights, unrolling, stats, issueCycles);
  stats.basicBlocks = module.function.blocks.size();
  stats.loops = shader.loops.loops().size();
  stats.unrolledLoops = static_cast<uint64_t>(std::count(unrolling.unrolled.begin(), unrolling.unrolled.end(), true));

  // Register files: uniform values in scalar registers where the model has a scalar unit.
  RegisterFiles files = AssignRegisterFiles(module, shader.liveness, stats.uniformity, model, shader.offsetRegisters,
                                            stats.subgroupSize);
  PrivateArrays arrays = FindPrivateArrays(module, shader.loops, model);
  stats.arrayRegisters = arrays.maxRegisterComponents;
  const uint32_t valueBudget = model.registerBudget - std::min(model.registerBudget, arrays.maxRegisterComponents);
  analysis::Liveness splitLiveness;
  const analysis::Liveness* vectorLiveness = &shader.liveness;
  uint32_t vectorPeak = shader.liveness.MaxLiveComponents();
  const HeldOutputs outputs = FindHeldOutputs(module, stage, files.vectorComponents, model.geometryVerticesHeld != 0,
                                              unrolling.blockCopies, unrolling.foldsAway);
  stats.heldOutputRegisters = outputs.maxComponents;
  if (files.split) {
    // The per-instruction tables of the vector file are needed only to place arrays and held outputs or to spill.
    vectorPeak = files.vectorDemand;
    stats.temporaryRegisters = files.temporaries;
    if (!arrays.registerComponentsAt.empty() || vectorPeak > valueBudget) {
      splitLiveness = shader.liveness.WithComponents(module, files.vectorComponents);
      vectorLiveness = &splitLiveness;
    }
    stats.scalarRegisterDemand = files.scalarDemand;
    stats.scalarRegisters = RoundUp(std::max<uint64_t>(std::min<uint64_t>(files.scalarDemand,
                                                                          model.scalarRegisterBudget), 1),
                                    std::max<uint32_t>(model.scalarAllocationGranule, 1));
    stats.scalarSpills = files.scalarDemand > model.scalarRegisterBudget
                             ? files.scalarDemand - model.scalarRegisterBudget
                             : 0;
  }

  const uint32_t granule = std::max<uint32_t>(model.allocationGranule, 1);
  stats.registerDemand =
      arrays.registerComponentsAt.empty() && outputs.componentsAt.empty() ? vectorPeak
      // Held outputs alone on a split file: a walk of the blocks that hold them, not the full tables.
      : arrays.registerComponentsAt.empty() && vectorLiveness == &shader.liveness && files.split
          ? std::max(vectorPeak, PeakWithHeldOutputs(module, shader.liveness, files.vectorComponents, outputs))
          // vectorPeak: the expansions' temporaries are only in the walk's peak, not in the tables.
          : std::max<uint64_t>(vectorPeak, VectorDemand(module, *vectorLiveness, arrays, outputs));
  stats.registerBudget = model.registerBudget;
  stats.scheduledRegisterDemand = stats.registerDemand;
  if (stats.registerDemand < model.loadSchedulingRegisters) {
    // The scheduler may let the demand grow to its ceiling to keep loads in flight (at or above it, the demand is
    // the ceiling and nothing can grow); arrays held in registers keep theirs, the values get the rest.
    const uint32_t ceiling = model.loadSchedulingRegisters;
    const uint32_t valueCeiling = std::max(vectorPeak, ceiling - std::min(ceiling, arrays.maxRegisterComponents));
    std::vector<uint32_t> allComponents;
    std::span<const uint32_t> components = files.vectorComponents;
    if (!files.split) {
      allComponents.assign(module.values.size(), 0);
      for (ir::ValueId v = 0; v < module.values.size(); ++v)
        if (module.values[v].kind == ir::ValueKind::Instruction)
          allComponents[v] = analysis::RegisterComponents(module, module.values[v].type);
      components = allComponents;
    }
    LoadScheduling scheduled =
        ScheduleLoads(module, shader.liveness, components, valueCeiling,
                      stage == VK_SHADER_STAGE_VERTEX_BIT || stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);
    scheduled.demand = std::max(scheduled.demand, UnrolledLoadsInFlight(module, shader.liveness, shader.loops,
                                                                        unrolling, components, valueCeiling));
    stats.scheduledMoves = scheduled.moves;
    if (scheduled.demand > vectorPeak)
      stats.scheduledRegisterDemand =
          std::max<uint64_t>(stats.registerDemand, uint64_t{scheduled.demand} + arrays.maxRegisterComponents);
  }
  // The wave of a vertex, tessellation evaluation or geometry shader starts with the registers the hardware
  // initialises (vertex and primitive indices, ids): they are allocated even when the shader reads none of them.
  const bool vertexStage = stage == VK_SHADER_STAGE_VERTEX_BIT || stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT ||
                           stage == VK_SHADER_STAGE_GEOMETRY_BIT;
  stats.inputRegisters = vertexStage ? model.vertexStageInputRegisters : 0;
  stats.registersAllocated = RoundUp(
      std::max<uint64_t>({std::min(stats.scheduledRegisterDemand, stats.registerBudget), stats.inputRegisters, 1}),
      granule);
  // Arrays held in registers pin theirs; the values compete for the rest.
  if (vectorPeak > valueBudget)
    stats.spilling = SimulateSpilling(module, *vectorLiveness, shader.loops, weights, valueBudget,
                                      files.split ? std::span<const uint32_t>(files.vectorComponents)
                                                  : std::span<const uint32_t>());
  stats.spills = stats.spilling.spills;
  stats.fills = stats.spilling.fills;
  stats.budgetExceeded = stats.registerDemand > model.registerBudget || stats.spills != 0;
  stats.scratchBytes = uint64_t{stats.spilling.spilledComponents} * 4 + arrays.scratchBytes;
  stats.estimatedCycles = SaturatingAdd(
      stats.estimatedCycles,
      SaturatingMul(SaturatingAdd(stats.spilling.weightedSpills, stats.spilling.weightedFills), model.latency.memory));

  if (stage == VK_SHADER_STAGE_COMPUTE_BIT) {
    stats.workgroupMemoryBytes = WorkgroupMemoryBytes(module);
    for (int i = 0; i < 3; ++i) stats.workgroupSize[i] = module.entryPoint.localSize[i];
    stats.workgroupInvocations =
        uint64_t{stats.workgroupSize[0]} * stats.workgroupSize[1] * stats.workgroupSize[2];
    if (stats.subgroupSize != 0)
      stats.subgroupsPerWorkgroup = (stats.workgroupInvocations + stats.subgroupSize - 1) / stats.subgroupSize;
  }
  ComputeOccupancy(model, stats);
  stats.subgroupsPerSimd = stats.subgroupsPerCore / std::max<uint32_t>(model.simdsPerCore, 1);
  stats.inverseThroughput =
      std::max(issueCycles, stats.estimatedCycles / std::max<uint64_t>(stats.subgroupsPerSimd, 1));
  stats.codeSizeBytes = module.EncodedSizeBytes();
  stats.hash = Hash(compiled, model, stats);
  return stats;
}

}  // namespace crashtest::statistics
