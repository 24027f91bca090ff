#include "statistics/shader_statistics.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <limits>

#include "statistics/loop_weights.h"
#include "statistics/memory_footprint.h"
#include "statistics/stable_hash.h"

namespace crashtest::statistics {
namespace {

uint64_t RoundUp(uint64_t value, uint64_t granule) { return (value + granule - 1) / granule * granule; }

void CountInstructions(const pipeline::CompiledShader& shader, const MachineModel& model,
                       const std::vector<uint64_t>& weights, ShaderStatistics& stats) {
  const ir::Module& module = shader.module;
  uint64_t cycles = 0;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) {
    uint64_t blockCycles = 0;
    for (const ir::Instruction& inst : module.function.blocks[b].instructions) {
      InstructionCost cost = ClassifyInstruction(module, inst);
      // Machine instructions, as a GPU back end emits them: ALU work once per 32-bit component (the SIMT lanes
      // are scalar: a vec4 add is four adds, a mat4 x vec4 sixteen multiply-adds), nothing for what it folds
      // away (composites, phis, copies, variables, fall-through branches, descriptor bookkeeping).
      const uint64_t machine = cost.latency == LatencyKind::Free ? 0 : cost.issues;
      ++stats.irInstructions;
      stats.instructions += machine;
      stats.instructionsByClass[static_cast<size_t>(cost.cls)] += machine;
      if (inst.op == spv::OpBranchConditional || inst.op == spv::OpSwitch) ++stats.branches;
      blockCycles = SaturatingAdd(blockCycles, SaturatingMul(LatencyOf(model.latency, cost.latency), cost.issues));
    }
    cycles = SaturatingAdd(cycles, SaturatingMul(blockCycles, weights[b]));
  }
  stats.estimatedCycles = cycles;
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
                     model.latency.atomic})
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

ShaderStatistics ComputeStatistics(const pipeline::CompiledShader& shader, const MachineModel& model,
                                   VkShaderStageFlagBits stage, uint32_t subgroupSize) {
  const ir::Module& module = shader.module;
  ShaderStatistics stats;
  stats.stage = stage;
  stats.subgroupSize = subgroupSize != 0 ? subgroupSize : model.maxSubgroupSize;

  std::vector<uint64_t> weights = BlockWeights(module, shader.loops);
  CountInstructions(shader, model, weights, stats);
  stats.basicBlocks = module.function.blocks.size();
  stats.loops = shader.loops.loops().size();

  const uint32_t granule = std::max<uint32_t>(model.allocationGranule, 1);
  stats.registerDemand = shader.liveness.MaxLiveComponents();
  stats.registerBudget = model.registerBudget;
  stats.budgetExceeded = stats.registerDemand > model.registerBudget;
  stats.registersAllocated = RoundUp(std::max<uint64_t>(std::min(stats.registerDemand, stats.registerBudget), 1),
                                     granule);
  stats.spilling = SimulateSpilling(module, shader.liveness, shader.loops, weights, model.registerBudget);
  stats.spills = stats.spilling.spills;
  stats.fills = stats.spilling.fills;
  stats.scratchBytes = uint64_t{stats.spilling.spilledComponents} * 4 + PrivateMemoryBytes(module);
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
  stats.codeSizeBytes = module.EncodedSizeBytes();
  stats.hash = Hash(shader, model, stats);
  return stats;
}

}  // namespace crashtest::statistics
