// The clean-up pipeline run on every lowered shader before the verifier (pipeline/compiler.cpp): what SPIRV-Tools'
// simplification, dead-branch-elim, local-redundancy-elimination, aggressive-dce and block-merge passes did on the
// SPIR-V, done on the IR, where ids are dense and there are no analyses to rebuild per pass.
//
// Order: constant folding and dead-branch elimination alternate until a round of dead-branch elimination changes
// nothing (bounded: removing a branch can make a phi constant, which can decide another branch), then CSE, DCE and
// block merging.
#pragma once

#include "pipeline/ir/module.h"
#include "pipeline/ir/passes/fold_constants.h"
#include "pipeline/ir/passes/local_cse.h"

namespace crashtest::ir {

struct CleanupOptions {
  CseOptions cse;
  FoldOptions fold;
  int maxFoldRounds = 4;
};

// Returns whether the module changed.
bool CleanUp(Module& module, CleanupOptions options = {});

}  // namespace crashtest::ir
