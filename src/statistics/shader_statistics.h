// The statistics of one compiled shader stage on one machine model: what VK_KHR_pipeline_executable_properties
// reports for a pipeline executable and what `crashtest stats` prints. Everything is computed from crashtest's
// IR after optimisation and its analyses; the same IR and model always give the same numbers. docs/statistics.md
// explains each figure.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "device/device_description.h"
#include "pipeline/compiler.h"
#include "statistics/instruction_class.h"
#include "statistics/spilling.h"

namespace crashtest::statistics {

// What bounds the number of subgroups resident on one core.
enum class OccupancyLimit : uint8_t { HardwareCap, Registers, SharedMemory };
const char* OccupancyLimitName(OccupancyLimit limit);

struct ShaderStatistics {
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  uint32_t subgroupSize = 0;

  uint64_t instructions = 0;  // machine instructions: ALU per 32-bit component, folded instructions not counted
  std::array<uint64_t, kInstructionClassCount> instructionsByClass{};  // indexed by InstructionClass; sum above
  uint64_t irInstructions = 0;  // IR instructions after optimisation, one each
  uint64_t basicBlocks = 0;
  uint64_t loops = 0;
  uint64_t branches = 0;  // conditional branches and switches

  uint64_t registerDemand = 0;      // peak live 32-bit components (liveness)
  uint64_t registerBudget = 0;      // the model's per-invocation budget
  uint64_t registersAllocated = 0;  // min(demand, budget) rounded up to the allocation granule (at least one)
  bool budgetExceeded = false;
  uint64_t spills = 0;
  uint64_t fills = 0;
  uint64_t scratchBytes = 0;        // per invocation: spill slots plus unpromoted Function/Private variables

  uint64_t workgroupMemoryBytes = 0;  // compute
  std::array<uint32_t, 3> workgroupSize{};  // compute: local size after specialisation
  uint64_t workgroupInvocations = 0;
  uint64_t subgroupsPerWorkgroup = 0;  // compute: ceil(workgroupInvocations / subgroupSize)

  uint64_t subgroupsPerCore = 0;  // occupancy
  OccupancyLimit occupancyLimit = OccupancyLimit::HardwareCap;

  uint64_t estimatedCycles = 0;
  uint64_t codeSizeBytes = 0;
  uint64_t hash = 0;  // stable: optimised SPIR-V, stage, subgroup size and machine model

  SpillResult spilling;  // where the spills and fills are, for the annotated IR listing
};

// `subgroupSize` 0 means the model's maxSubgroupSize (the size crashtest dispatches with by default); a smaller
// one (a stage's required subgroup size) fits more subgroups into the register file and splits a workgroup into
// more subgroups.
ShaderStatistics ComputeStatistics(const pipeline::CompiledShader& shader, const MachineModel& model,
                                   VkShaderStageFlagBits stage, uint32_t subgroupSize = 0);

uint64_t InstructionsOfClass(const ShaderStatistics& stats, InstructionClass cls);

// Subgroups of `subgroupSize` invocations needing `registers` each that the model's register file holds.
uint64_t SubgroupsByRegisters(const MachineModel& model, uint64_t registers, uint32_t subgroupSize);

}  // namespace crashtest::statistics
