// Dead-branch elimination: OpBranchConditional on a constant (or with both targets the same block) and OpSwitch
// on a constant become OpBranch; blocks no longer reachable from the entry are removed, and the phis of the
// remaining blocks lose their entries for removed edges (a phi left with one entry is replaced by its value).
//
// Structured control flow stays consistent: a selection header that now ends in an unconditional branch loses its
// merge declaration ("OpSelectionMerge must immediately precede an OpBranchConditional or OpSwitch", SPIR-V 1.6,
// 2.11); a loop header keeps its OpLoopMerge. A merge block or continue target that a reachable header still names
// is kept even when unreachable, emptied to a lone OpUnreachable, as SPIRV-Tools' dead-branch elimination keeps it.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns whether the module changed.
bool EliminateDeadBranches(Module& module);

}  // namespace crashtest::ir
