// The internal representations of a pipeline executable, in compilation order (VK_KHR_pipeline_executable_properties:
// "should" follow compilation order, final form last): the optimised SPIR-V as disassembly, then crashtest's IR
// annotated with what explains the statistics (liveness per instruction, register budget, spills and fills).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "device/device_description.h"
#include "pipeline/compiler.h"
#include "statistics/shader_statistics.h"

namespace crashtest::statistics {

// SPIRV-Tools' disassembly with friendly names; on failure a one-line comment saying why (never empty).
std::string DisassembleSpirv(std::span<const uint32_t> words);

// A header that derives the register, occupancy and spill figures from the model, then the IR listing with
// "live N" per instruction and the spill and fill placements.
std::string AnnotatedIrListing(const pipeline::CompiledShader& shader, const MachineModel& model,
                               const ShaderStatistics& stats);

}  // namespace crashtest::statistics
