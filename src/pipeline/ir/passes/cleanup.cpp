#include "pipeline/ir/passes/cleanup.h"

#include "pipeline/ir/passes/dead_branches.h"
#include "pipeline/ir/passes/dead_code.h"
#include "pipeline/ir/passes/fold_constants.h"
#include "pipeline/ir/passes/ir_editing.h"
#include "pipeline/ir/passes/merge_blocks.h"

namespace crashtest::ir {

bool CleanUp(Module& module, CleanupOptions options) {
  if (module.function.blocks.empty()) return false;
  bool changed = false;
  for (int round = 0; round < options.maxFoldRounds; ++round) {
    changed |= FoldConstants(module, options.fold);
    bool branches = EliminateDeadBranches(module);
    changed |= branches;
    if (!branches) break;
  }
  changed |= EliminateCommonSubexpressions(module, options.cse);
  changed |= EliminateDeadCode(module);
  MergeBlocksResult merged = MergeBlocks(module);
  if (merged.changed) {
    changed = true;
    // A loop header that absorbed its merge block no longer names its continue target, which may be unreachable.
    if (merged.removedMergeDeclaration) EliminateDeadBranches(module);
  }
  if (changed) CompactOperandPool(module);
  return changed;
}

}  // namespace crashtest::ir
