#include "pipeline/frontend/optimizer.h"

#include <spirv-tools/optimizer.hpp>

#include "pipeline/frontend/spirv_validator.h"

namespace crashtest::pipeline {

const char* RecipeName(OptimizationRecipe recipe) {
  switch (recipe) {
    case OptimizationRecipe::Minimal: return "minimal";
    case OptimizationRecipe::Lean: return "lean";
    case OptimizationRecipe::Performance: return "performance";
  }
  return "?";
}

namespace {

// "Specialization constants ... are resolved at pipeline creation": set the application's values, then turn every
// spec constant (including OpSpecConstantOp chains such as gl_WorkGroupSize) into an ordinary constant.
void RegisterSpecialization(spvtools::Optimizer& optimizer, const SpecializationValues& specialization) {
  if (!specialization.empty()) optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(specialization));
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
      .RegisterPass(spvtools::CreateUnifyConstantPass());
}

// Lowering wants one function: merge-return first, because the inliner cannot inline a callee with a return
// inside a loop.
void RegisterInlining(spvtools::Optimizer& optimizer) {
  optimizer.RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
}

// The lean recipe keeps what moves the statistics the way a GPU compiler would (values in SSA registers rather
// than memory, constants folded, dead code and branches gone) and drops the expensive passes of -O whose effect
// on small shaders is marginal (copy-propagate-arrays, if-conversion, vector DCE, the second and third rounds,
// loop unrolling is off in -O anyway).
void RegisterLean(spvtools::Optimizer& optimizer) {
  optimizer.RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateScalarReplacementPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateCCPPass())
      .RegisterPass(spvtools::CreateSimplificationPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateLocalRedundancyEliminationPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateBlockMergePass());
}

}  // namespace

bool SpecializeAndOptimize(std::span<const uint32_t> words, spv_target_env env,
                           const SpecializationValues& specialization, OptimizationRecipe recipe,
                           std::vector<uint32_t>* out, std::string* message) {
  spvtools::Optimizer optimizer(env);
  std::string first;
  optimizer.SetMessageConsumer([&first](spv_message_level_t level, const char*, const spv_position_t&,
                                        const char* text) {
    if (level <= SPV_MSG_ERROR && first.empty()) first = OneLine(text);
  });
  RegisterSpecialization(optimizer, specialization);
  switch (recipe) {
    case OptimizationRecipe::Minimal: RegisterInlining(optimizer); break;
    case OptimizationRecipe::Lean:
      RegisterInlining(optimizer);
      RegisterLean(optimizer);
      break;
    case OptimizationRecipe::Performance: optimizer.RegisterPerformancePasses(); break;
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // vkCreateShaderModule validated the words already
  if (optimizer.Run(words.data(), words.size(), out, options)) return true;
  *message = "SPIR-V optimiser failed: " + (first.empty() ? std::string("no message") : first);
  return false;
}

}  // namespace crashtest::pipeline
