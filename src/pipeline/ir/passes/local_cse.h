// Common-subexpression elimination: a pure instruction or a load from read-only memory (instruction_properties.h)
// with the same opcode, result type and operands (values and literals) as an earlier one that dominates it is
// replaced by it. By default the scope is the dominator tree (a value computed in a block is reused in every block
// it dominates); per block is an option. Operands are compared as written (no commutativity), so `a + b` and
// `b + a` stay two instructions.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

struct CseOptions {
  // Across blocks, over the dominator tree, as NIR's CSE does in every Mesa driver: a value computed before a loop
  // and again after it is computed once and stays live across the loop, which is what RADV/ACO's register counts
  // show (bitonic_sort keeps its shared-memory and buffer offsets across both loops; docs/statistics.md,
  // "Calibration against RADV"). Per block is what SPIRV-Tools' local-redundancy-elimination did.
  bool acrossBlocks = true;
};

// Returns whether the module changed.
bool EliminateCommonSubexpressions(Module& module, CseOptions options = {});

}  // namespace crashtest::ir
