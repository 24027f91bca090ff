#include "pipeline/frontend/optimizer.h"

#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp>

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
// unify-const is not run: the duplicates folding may leave are constants, which the IR keeps as values, not as
// instructions or registers, so they change no statistic, and the pass costs as much as a cleanup pass.
void RegisterSpecialization(spvtools::Optimizer& optimizer, const SpecializationValues& specialization,
                            const ModuleContents& contents) {
  if (!specialization.empty()) optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(specialization));
  if (!contents.specConstants) return;
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
}

// Lowering wants one function: merge-return first, because the inliner cannot inline a callee with a return
// inside a loop. Without a call there is nothing to inline (merge-return on the entry point alone changes nothing
// the IR needs: a return inside a loop or selection is a block terminator like any other).
void RegisterInlining(spvtools::Optimizer& optimizer, const ModuleContents& contents) {
  if (!contents.functionCalls) return;
  optimizer.RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
}

// The lean recipe keeps what moves the statistics the way a GPU compiler's front end would, and only where the
// module has something for it (a pass that finds nothing still pays for building its analyses):
// - private-to-local (Private variables used by one function become Function variables), the single-block and
//   single-store load/store eliminations (cheap; they leave ssa-rewrite less to do), scalar replacement of
//   composite variables and ssa-rewrite: values live in SSA registers, not in Function memory, as in every GPU
//   compiler. This is what makes register demand realistic. Skipped without Private/Function variables.
// - conditional constant propagation, only with specialisation constants: after freezing, a spec constant can
//   decide a branch through a phi (`if (USE_SHARED && x)` short-circuits into a phi of `false`), which only
//   propagation through the CFG resolves. glslang already folds ordinary constant expressions, so without spec
//   constants CCP finds nothing the simplification pass does not, and it is one of the costliest passes.
// - simplification: folds instructions with constant operands (specialised loop bounds and sizes become the
//   constants the trip-count analysis reads) and trivial identities.
// - dead-branch elimination: branches on constants (typically specialisation constants) leave dead code behind.
// - local redundancy elimination: repeated expressions in a block (address arithmetic, repeated loads of the same
//   built-in) are computed once, as any back end's CSE would; it moves instruction counts by a tenth over the corpus.
// - aggressive DCE: what the SSA rewrite, the folding and the inlining leave unused (dead loads, the variables).
// - block merge: straight-line block chains become one block, so block counts are not inflated.
// Dropped from the previous lean recipe for speed: unify-const (see above), CCP without spec constants, and
// merge-return / inlining without calls (merge-return on a lone entry point only added a return flag and blocks:
// two fewer IR instructions on ten corpus shaders now). Dropped from -O: copy-propagate-arrays, if-conversion, vector DCE, redundancy
// elimination across blocks, the second and third rounds, reduce-load-size, combine-access-chains and loop passes:
// on the corpus they change few instructions but cost most of -O's time.
void RegisterLean(spvtools::Optimizer& optimizer, const ModuleContents& contents) {
  if (contents.privateVariables) optimizer.RegisterPass(spvtools::CreatePrivateToLocalPass());
  if (contents.privateVariables || contents.functionVariables) {
    optimizer.RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
        .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
        .RegisterPass(spvtools::CreateScalarReplacementPass())
        .RegisterPass(spvtools::CreateSSARewritePass());
  }
  if (contents.specConstants) optimizer.RegisterPass(spvtools::CreateCCPPass());
  optimizer.RegisterPass(spvtools::CreateSimplificationPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateLocalRedundancyEliminationPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateBlockMergePass());
}

}  // namespace

ModuleContents ScanModuleContents(std::span<const uint32_t> words) {
  // One pass over the instruction headers; the words are valid SPIR-V (validated at vkCreateShaderModule or
  // produced by the optimiser), but a zero or overlong word count still ends the scan rather than overrunning.
  constexpr size_t kHeaderWords = 5;
  ModuleContents contents;
  size_t i = kHeaderWords;
  while (i < words.size()) {
    uint32_t wordCount = words[i] >> 16;
    uint32_t opcode = words[i] & 0xffffu;
    if (wordCount == 0 || i + wordCount > words.size()) break;
    switch (opcode) {
      case spv::OpSpecConstantTrue: case spv::OpSpecConstantFalse: case spv::OpSpecConstant:
      case spv::OpSpecConstantComposite: case spv::OpSpecConstantOp:
        contents.specConstants = true;
        break;
      case spv::OpFunctionCall: contents.functionCalls = true; break;
      case spv::OpVariable:
        if (wordCount >= 4 && words[i + 3] == spv::StorageClassPrivate) contents.privateVariables = true;
        if (wordCount >= 4 && words[i + 3] == spv::StorageClassFunction) contents.functionVariables = true;
        break;
      default: break;
    }
    i += wordCount;
  }
  return contents;
}

bool SpecializeAndOptimize(std::span<const uint32_t> words, spv_target_env env,
                           const SpecializationValues& specialization, OptimizationRecipe recipe,
                           std::vector<uint32_t>* out, std::string* message) {
  spvtools::Optimizer optimizer(env);
  std::string first;
  optimizer.SetMessageConsumer([&first](spv_message_level_t level, const char*, const spv_position_t&,
                                        const char* text) {
    if (level <= SPV_MSG_ERROR && first.empty()) first = OneLine(text);
  });
  ModuleContents contents = ScanModuleContents(words);
  if (recipe == OptimizationRecipe::Performance) contents = ModuleContents::Everything();
  RegisterSpecialization(optimizer, specialization, contents);
  switch (recipe) {
    case OptimizationRecipe::Minimal: RegisterInlining(optimizer, contents); break;
    case OptimizationRecipe::Lean:
      RegisterInlining(optimizer, contents);
      RegisterLean(optimizer, contents);
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
