// Common-subexpression elimination: a pure instruction or a load from read-only memory (instruction_properties.h)
// with the same opcode, result type and operands (values and literals) as an earlier one in the same block is
// replaced by it, as SPIRV-Tools' local-redundancy-elimination did. Optionally the scope is the dominator tree (a
// value computed in a block is reused in every block it dominates). Operands are compared as written (no
// commutativity), so `a + b` and `b + a` stay two instructions.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

struct CseOptions {
  // Across blocks, over the dominator tree. Off by default: it lengthens live ranges across branches and loops
  // (stats_spill_loop's register demand doubles), which moves the register statistics away from what back ends
  // with rematerialisation report; per block is what SPIRV-Tools' local-redundancy-elimination did.
  bool acrossBlocks = false;
};

// Returns whether the module changed.
bool EliminateCommonSubexpressions(Module& module, CseOptions options = {});

}  // namespace crashtest::ir
