// The optimiser recipe run before lowering, as a real driver's front end runs one before its back end.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pipeline/frontend/specialization.h"

namespace crashtest::pipeline {

enum class OptimizationRecipe {
  // Specialisation and inlining only: what lowering needs (one function, frozen constants), and no IR passes.
  Minimal,
  // The default: the same SPIR-V passes, then the SSA, folding and dead-code passes every real front end applies,
  // on the IR (src/pipeline/ir/passes; see docs/compiler.md).
  Lean,
  // SPIRV-Tools' full -O recipe (spirv-opt -O): slower, for comparison.
  Performance,
};

const char* RecipeName(OptimizationRecipe recipe);

// What a module holds that decides whether a group of passes has anything to do. Passes that would find nothing
// are not registered: SPIRV-Tools builds its analyses (def-use, CFG, types, constants) per pass even when the pass
// changes nothing, which is most of the optimiser's time on small shaders.
struct ModuleContents {
  bool specConstants = false;  // OpSpecConstant*
  bool functionCalls = false;  // OpFunctionCall
  static ModuleContents Everything() { return {true, true}; }
};
ModuleContents ScanModuleContents(std::span<const uint32_t> words);

// Applies `specialization`, freezes the remaining spec constants at their defaults, and runs the recipe.
// The input must be valid (validation is not repeated). Returns false with `message` on failure.
bool SpecializeAndOptimize(std::span<const uint32_t> words, spv_target_env env,
                           const SpecializationValues& specialization, OptimizationRecipe recipe,
                           std::vector<uint32_t>* out, std::string* message);

}  // namespace crashtest::pipeline
