#include "pipeline/frontend/optimizer.h"

#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp>

#include "pipeline/frontend/dead_function_strip.h"
#include "pipeline/frontend/spec_constant_freezer.h"
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
  // The dead callees are stripped afterwards (StripUncalledFunctions), not by eliminate-dead-functions.
  optimizer.RegisterPass(spvtools::CreateMergeReturnPass()).RegisterPass(spvtools::CreateInlineExhaustivePass());
}

// The lean recipe is specialisation and inlining: everything else a real front end does runs on the IR after
// lowering (src/pipeline/ir/passes: memory to registers, folding, dead branches, local CSE, DCE, block merge), where
// ids are dense and no def-use, CFG or type analysis is rebuilt per pass. SPIRV-Tools' private-to-local,
// local-single-block-elim, local-single-store-elim, scalar-replacement and ssa-rewrite cost about 20x what
// ir::PromoteMemoryToRegisters does, and its simplification, dead-branch-elim, local-redundancy-elimination,
// aggressive-dce and block-merge 20x what ir::CleanUp does (callgrind, docs/compiler.md); most modules (no spec
// constants, no calls) now skip spvtools::Optimizer altogether. Conditional constant propagation is not needed for
// specialisation constants either: after freezing, `if (USE_SHARED && x)` short-circuits into a phi of `false`
// and another value, which the IR's folding and dead-branch elimination resolve by alternating.
// Dropped from -O: copy-propagate-arrays, if-conversion, vector DCE, the second and third rounds,
// reduce-load-size, combine-access-chains and loop passes: on the corpus they change few instructions but cost
// most of -O's time; unify-const (see above); merge-return and inlining without calls (merge-return on a lone
// entry point only added a return flag and blocks).

// Whether the recipe registers no pass at all for the module: then spvtools::Optimizer is not run (building its
// IR context and writing the binary back cost as much as a cheap pass) and the words are used as they are.
bool NothingToRun(OptimizationRecipe recipe, const ModuleContents& contents) {
  if (recipe == OptimizationRecipe::Performance) return false;
  // Specialisation values only reach spec constants: without any, setting them changes nothing.
  return !contents.specConstants && !contents.functionCalls;
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
      default: break;
    }
    i += wordCount;
  }
  return contents;
}

bool SpecializeAndOptimize(std::span<const uint32_t> words, spv_target_env env,
                           const SpecializationValues& specialization, OptimizationRecipe recipe,
                           std::vector<uint32_t>* out, std::string* message) {
  ModuleContents contents = ScanModuleContents(words);
  if (NothingToRun(recipe, contents)) {
    out->assign(words.begin(), words.end());
    return true;
  }
  // A module whose only SPIR-V pass work is specialisation is frozen by our own rewrite of the words: building an
  // spvtools::Optimizer for set-spec-constant-default-value, freeze-spec-constant-value and
  // fold-spec-constant-op-and-composite cost 1.7 M of the 2.3 M instructions of spec_constants.comp's pipeline
  // creation (callgrind; 0.6 M in all with the freezer). What the freezer does not handle (vector or composite
  // operations, undefined results) goes to SPIRV-Tools as before: the freezer changes speed, not what is frozen.
  if (recipe != OptimizationRecipe::Performance && contents.specConstants && !contents.functionCalls &&
      FreezeSpecConstants(words, specialization, out) == FreezeResult::Frozen)
    return true;
  spvtools::Optimizer optimizer(env);
  std::string first;
  optimizer.SetMessageConsumer([&first](spv_message_level_t level, const char*, const spv_position_t&,
                                        const char* text) {
    if (level <= SPV_MSG_ERROR && first.empty()) first = OneLine(text);
  });
  if (recipe == OptimizationRecipe::Performance) contents = ModuleContents::Everything();
  RegisterSpecialization(optimizer, specialization, contents);
  switch (recipe) {
    case OptimizationRecipe::Minimal:
    case OptimizationRecipe::Lean: RegisterInlining(optimizer, contents); break;
    case OptimizationRecipe::Performance: optimizer.RegisterPerformancePasses(); break;
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // vkCreateShaderModule validated the words already
  if (optimizer.Run(words.data(), words.size(), out, options)) {
    if (recipe != OptimizationRecipe::Performance && contents.functionCalls && !StripUncalledFunctions(*out, env)) {
      // A call the inliner left (it never does for valid shaders): eliminate-dead-functions as before.
      spvtools::Optimizer eliminate(env);
      eliminate.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
      std::vector<uint32_t> stripped;
      if (eliminate.Run(out->data(), out->size(), &stripped, options)) *out = std::move(stripped);
    }
    // fold-spec-constant-op-and-composite leaves OpSpecConstantOp Select and FConvert (SPIRV-Tools 2023.1), which
    // every Vulkan driver must accept (SPIR-V 1.6, OpSpecConstantOp: allowed with the Shader capability): their
    // operands are constants by now, so the freezer finishes the job.
    std::vector<uint32_t> finished;
    if (ScanModuleContents(*out).specConstants && FreezeSpecConstants(*out, {}, &finished) == FreezeResult::Frozen)
      *out = std::move(finished);
    return true;
  }
  *message = "SPIR-V optimiser failed: " + (first.empty() ? std::string("no message") : first);
  return false;
}

}  // namespace crashtest::pipeline
