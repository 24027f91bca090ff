// The statistics of one compiled shader stage on one machine model: what VK_KHR_pipeline_executable_properties
// reports for a pipeline executable and what `crashtest stats` prints. Everything is computed from crashtest's
// IR after optimisation and its analyses; the same IR and model always give the same numbers. docs/statistics.md
// explains each figure.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>

#include "device/device_description.h"
#include "pipeline/analysis/uniformity.h"
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
  StatisticDialect dialect = StatisticDialect::Crashtest;  // the model's: how the statistics are reported
  // The shader as the back end compiles it (back_end_view.h) when that differs from the compiled shader: the
  // statistics, their uniformity and the annotated IR listing are of this one. Null otherwise.
  std::shared_ptr<const pipeline::CompiledShader> backEndView;

  uint64_t instructions = 0;  // machine instructions: ALU per 32-bit component, folded instructions not counted
  std::array<uint64_t, kInstructionClassCount> instructionsByClass{};  // indexed by InstructionClass; sum above
  uint64_t irInstructions = 0;  // IR instructions after optimisation, one each
  uint64_t basicBlocks = 0;
  uint64_t loops = 0;
  uint64_t unrolledLoops = 0;  // of those, the ones the back end unrolls (loop_unrolling.h): no back edge left
  uint64_t branches = 0;  // conditional branches and switches
  uint64_t divergentBranches = 0;  // ... on a condition that differs between the subgroup's invocations
  // Machine instructions split by the unit that runs them (a model without a scalar unit runs all on the vector
  // unit): scalar = uniform integer work, uniform loads, branches and barriers; vector = the rest.
  uint64_t scalarInstructions = 0;
  uint64_t vectorInstructions = 0;
  uint64_t copies = 0;       // register moves phis leave at block ends (constants, or values that interfere)
  uint64_t vectorMemoryClauses = 0;  // runs of consecutive vector memory instructions in a block
  uint64_t scalarMemoryClauses = 0;  // runs of consecutive scalar (uniform) loads in a block

  uint64_t registerDemand = 0;      // peak live 32-bit components in vector registers (liveness), arrays included
  uint64_t arrayRegisters = 0;      // ... of which dynamically indexed private arrays kept in registers (peak)
  uint64_t heldOutputRegisters = 0;  // peak output components held for the export at the end (output_exports.h)
  uint64_t temporaryRegisters = 0;   // most temporaries any expanded instruction adds (expansion_temporaries.h)
  uint64_t inputRegisters = 0;       // registers the hardware initialises at the wave's start (model, per stage)
  // The demand after the back end's scheduler keeps loads in flight (load_scheduling.h; = registerDemand when the
  // model does not schedule loads), and how many instructions it moved from above a load to below it.
  uint64_t scheduledRegisterDemand = 0;
  uint64_t scheduledMoves = 0;
  uint64_t scalarRegisterDemand = 0;  // peak live scalar registers (0 without a scalar unit)
  uint64_t scalarRegisters = 0;       // scalar registers allocated: capped at the scalar budget, granule-rounded
  uint64_t scalarSpills = 0;          // scalar registers above the scalar budget (spilled to vector lanes)
  uint64_t registerBudget = 0;      // the model's per-invocation budget
  // max(min(scheduled demand, budget), input registers) rounded up to the granule (at least one)
  uint64_t registersAllocated = 0;
  bool budgetExceeded = false;
  uint64_t spills = 0;
  uint64_t fills = 0;
  uint64_t scratchBytes = 0;        // per invocation: spill slots plus private arrays not kept in registers

  uint64_t workgroupMemoryBytes = 0;  // compute
  std::array<uint32_t, 3> workgroupSize{};  // compute: local size after specialisation
  uint64_t workgroupInvocations = 0;
  uint64_t subgroupsPerWorkgroup = 0;  // compute: ceil(workgroupInvocations / subgroupSize)

  uint64_t subgroupsPerCore = 0;  // occupancy
  uint64_t subgroupsPerSimd = 0;  // subgroupsPerCore shared by the core's simdsPerCore SIMDs
  OccupancyLimit occupancyLimit = OccupancyLimit::HardwareCap;

  uint64_t estimatedCycles = 0;
  // Cycles per subgroup when the core keeps subgroupsPerCore of them busy: issue-bound work, or the latency
  // shared between the resident subgroups, whichever is larger.
  uint64_t inverseThroughput = 0;
  uint64_t codeSizeBytes = 0;     // crashtest's IR encoding
  uint64_t machineCodeBytes = 0;  // estimated machine code: 4 bytes per ALU/branch, 8 per memory instruction
  uint64_t hash = 0;  // stable: optimised SPIR-V, stage, subgroup size and machine model

  SpillResult spilling;  // where the spills and fills are, for the annotated IR listing
  analysis::Uniformity uniformity;  // for the annotated IR listing
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
