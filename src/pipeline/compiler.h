// The shader compiler: SPIR-V words in, crashtest IR with its analyses out. Pipelines call it per stage;
// `crashtest stats` calls it offline. Each phase is timed, for VK_EXT_pipeline_creation_feedback and benchmarks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pipeline/analysis/dominators.h"
#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/analysis/offset_registers.h"
#include "pipeline/frontend/optimizer.h"
#include "pipeline/ir/module.h"

namespace crashtest::pipeline {

struct CompileOptions {
  uint32_t vulkanApiVersion = VK_API_VERSION_1_3;  // chooses the SPIR-V environment
  bool spirv14 = false;                            // VK_KHR_spirv_1_4 enabled (Vulkan 1.1 devices)
  // Shader modules are validated at vkCreateShaderModule; pipelines need not validate the same words again.
  bool validate = true;
  std::string entryPoint = "main";
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  const VkSpecializationInfo* specialization = nullptr;
  OptimizationRecipe recipe = OptimizationRecipe::Lean;
};

enum class CompilePhase { Validation, Specialization, Optimization, Lowering, Verification };
const char* CompilePhaseName(CompilePhase phase);

struct CompileError {
  CompilePhase phase = CompilePhase::Validation;
  std::string message;
};

struct CompileTimings {  // nanoseconds
  uint64_t validation = 0, optimization = 0, lowering = 0, verification = 0, analysis = 0;
  uint64_t cleanup = 0;  // the IR clean-up passes (ir/passes/cleanup.h), between lowering and verification
  uint64_t Total() const { return validation + optimization + lowering + cleanup + verification + analysis; }
};

struct CompiledShader {
  std::vector<uint32_t> optimizedSpirv;
  ir::Module module;
  analysis::DominatorTree dominators;
  analysis::DominatorTree postDominators;
  analysis::LoopInfo loops;
  analysis::OffsetRegisters offsetRegisters;
  analysis::Liveness liveness;
  CompileTimings timings;
};

// spv::ExecutionModel of a single shader stage; kNone for a stage the compiler does not know.
uint32_t ExecutionModelOfStage(VkShaderStageFlagBits stage);

bool Compile(std::span<const uint32_t> words, const CompileOptions& options, CompiledShader* out,
             CompileError* error);

// The back half of Compile for words Compile already produced (CompiledShader::optimizedSpirv, e.g. from a
// pipeline cache): lowering, verification and analyses only. `options.validate`, `specialization` and `recipe`
// are ignored: the words are already specialised and optimised. Timings of the skipped phases are zero.
bool CompileOptimized(std::span<const uint32_t> optimizedWords, const CompileOptions& options, CompiledShader* out,
                      CompileError* error);

// The analyses of CompiledShader (dominators, loops, offset registers, liveness), built anew from its module: the
// last step of Compile, and for a module a pass changed afterwards (statistics/back_end_view.h).
void Analyze(CompiledShader* shader);

}  // namespace crashtest::pipeline
