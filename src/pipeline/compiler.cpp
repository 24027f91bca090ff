#include "pipeline/compiler.h"

#include <spirv/unified1/spirv.hpp>

#include <chrono>

#include "pipeline/frontend/spirv_validator.h"
#include "pipeline/frontend/target_environment.h"
#include "pipeline/ir/passes/cleanup.h"
#include "pipeline/ir/passes/hoist_extracts.h"
#include "pipeline/ir/passes/sink_comparisons.h"
#include "pipeline/ir/passes/promote_memory.h"
#include "pipeline/ir/verifier.h"
#include "pipeline/lowering/lower_spirv.h"
#include "pipeline/lowering/spirv_reader.h"

namespace crashtest::pipeline {

const char* CompilePhaseName(CompilePhase phase) {
  switch (phase) {
    case CompilePhase::Validation: return "validation";
    case CompilePhase::Specialization: return "specialization";
    case CompilePhase::Optimization: return "optimization";
    case CompilePhase::Lowering: return "lowering";
    case CompilePhase::Verification: return "verification";
  }
  return "?";
}

uint32_t ExecutionModelOfStage(VkShaderStageFlagBits stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return spv::ExecutionModelVertex;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return spv::ExecutionModelTessellationControl;
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return spv::ExecutionModelTessellationEvaluation;
    case VK_SHADER_STAGE_GEOMETRY_BIT: return spv::ExecutionModelGeometry;
    case VK_SHADER_STAGE_FRAGMENT_BIT: return spv::ExecutionModelFragment;
    case VK_SHADER_STAGE_COMPUTE_BIT: return spv::ExecutionModelGLCompute;
    default: return ir::kNone;
  }
}

namespace {

class PhaseTimer {
 public:
  explicit PhaseTimer(uint64_t* sink) : sink_(sink), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    *sink_ += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  uint64_t* sink_;
  std::chrono::steady_clock::time_point start_;
};

bool Failed(CompileError* error, CompilePhase phase, std::string message) {
  error->phase = phase;
  error->message = std::move(message);
  return false;
}

bool LowerVerifyAnalyze(spv_target_env env, uint32_t model, const CompileOptions& options, CompiledShader* out,
                        CompileError* error);

}  // namespace

bool Compile(std::span<const uint32_t> words, const CompileOptions& options, CompiledShader* out,
             CompileError* error) {
  spv_target_env env = TargetEnvironmentFor(options.vulkanApiVersion, options.spirv14);
  uint32_t model = ExecutionModelOfStage(options.stage);
  if (model == ir::kNone) return Failed(error, CompilePhase::Lowering, "unsupported shader stage");
  std::string message;
  out->timings = {};
  if (options.validate) {
    PhaseTimer timer(&out->timings.validation);
    if (!ValidateSpirv(words, env, &message))
      return Failed(error, CompilePhase::Validation,
                    std::string("invalid SPIR-V for ") + TargetEnvironmentName(env) + ": " + message);
  }
  {
    PhaseTimer timer(&out->timings.optimization);
    SpecializationValues specialization;
    if (!ReadSpecializationInfo(options.specialization, &specialization, &message))
      return Failed(error, CompilePhase::Specialization, "VkSpecializationInfo: " + message);
    if (!SpecializeAndOptimize(words, env, specialization, options.recipe, &out->optimizedSpirv, &message))
      return Failed(error, CompilePhase::Optimization, message);
  }
  return LowerVerifyAnalyze(env, model, options, out, error);
}

bool CompileOptimized(std::span<const uint32_t> optimizedWords, const CompileOptions& options, CompiledShader* out,
                      CompileError* error) {
  uint32_t model = ExecutionModelOfStage(options.stage);
  if (model == ir::kNone) return Failed(error, CompilePhase::Lowering, "unsupported shader stage");
  out->timings = {};
  out->optimizedSpirv.assign(optimizedWords.begin(), optimizedWords.end());
  return LowerVerifyAnalyze(TargetEnvironmentFor(options.vulkanApiVersion, options.spirv14), model, options, out,
                            error);
}

namespace {

bool LowerVerifyAnalyze(spv_target_env env, uint32_t model, const CompileOptions& options, CompiledShader* out,
                        CompileError* error) {
  std::string message;
  {
    PhaseTimer timer(&out->timings.lowering);
    SpirvModule spirv;
    if (!ReadSpirv(out->optimizedSpirv, env, &spirv, &message) ||
        !LowerSpirv(spirv, options.entryPoint, model, &out->module, &message))
      return Failed(error, CompilePhase::Lowering, message);
  }
  if (options.recipe != OptimizationRecipe::Minimal) {
    // The optimisation a GPU compiler's front end does, on the IR (ir/passes/): memory to registers (what
    // SPIRV-Tools' private-to-local, single-block/single-store eliminations, scalar replacement and ssa-rewrite
    // did), then the clean-up (what its simplification, dead-branch, redundancy, DCE and block-merge passes did).
    // Here rather than in the SPIR-V recipe so that pipeline-cache hits (CompileOptimized) get them too; the
    // verifier then checks what they left.
    PhaseTimer timer(&out->timings.cleanup);
    ir::PromoteMemoryToRegisters(out->module);
    ir::CleanUp(out->module);
    ir::HoistExtracts(out->module);
    ir::SinkComparisons(out->module);
  }
  {
    PhaseTimer timer(&out->timings.verification);
    if (!ir::Verify(out->module, &message)) return Failed(error, CompilePhase::Verification, message);
  }
  {
    PhaseTimer timer(&out->timings.analysis);
    Analyze(out);
  }
  return true;
}

}  // namespace

void Analyze(CompiledShader* shader) {
  shader->dominators = analysis::DominatorTree::Build(shader->module.function);
  shader->postDominators = analysis::DominatorTree::Build(shader->module.function, /*post=*/true);
  shader->loops = analysis::LoopInfo::Build(shader->module, shader->dominators);
  shader->offsetRegisters = analysis::OffsetRegisters::Build(shader->module, shader->dominators);
  shader->liveness = analysis::Liveness::Build(shader->module, shader->offsetRegisters.SharedHolders());
}

}  // namespace crashtest::pipeline
