// Block merging: a block ending in OpBranch to a successor whose only predecessor it is absorbs that successor,
// under SPIRV-Tools' block-merge rules for structured control flow (so the result is what its block-merge pass
// produced before):
// - never two merge blocks together, nor a merge block with a continue target;
// - a header absorbs only its own merge block (the merge declaration then goes), or, for a loop header, a block
//   that is not a header and ends in OpBranch or OpBranchConditional;
// - never a merge block or continue target into a block that is a switch's case target (the case construct
//   would no longer be dominated by the switch);
// - a header absorbed by a non-header moves its declaration to the absorbing block; references to the absorbed
//   block as a merge block or continue target name the absorbing block.
// Unreachable blocks are left alone.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

struct MergeBlocksResult {
  bool changed = false;
  bool removedMergeDeclaration = false;  // a header absorbed its merge block: its continue target may be orphaned
};

MergeBlocksResult MergeBlocks(Module& module);

}  // namespace crashtest::ir
