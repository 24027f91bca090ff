// Which pointers into a buffer or workgroup memory hold a register for their byte offset, as a GPU back end
// addresses them. NIR lowers an access chain to offset arithmetic, folds constant indices, and a constant added to
// an index, into the memory instruction's immediate offset (its algebraic rules turn (x + c) * stride into
// x * stride + c * stride), and CSE computes the rest once: so pointers whose dynamic indices have the same roots
// (the index with constant addends stripped) share one offset register, held from the first of them (which
// dominates the others) to the last memory access through any of them. A pointer with constant indices only holds
// nothing. Pointers to Function/Private variables (promoted to registers), physical-storage-buffer pointers (real
// 64-bit values, counted as such) and pointers that are not access chains (variables, phis and selects of
// pointers) are not described here.
#pragma once

#include <vector>

#include "pipeline/analysis/dominators.h"
#include "pipeline/ir/module.h"

namespace crashtest::analysis {

struct OffsetRegisters {
  // Per value: the pointer whose offset register it uses (itself for the holder), kNone for every other value.
  std::vector<ir::ValueId> holderOf;

  static OffsetRegisters Build(const ir::Module& module, const DominatorTree& dominators);
  bool HoldsRegister(ir::ValueId v) const { return !holderOf.empty() && holderOf[v] == v; }
  // Per value, what a use of it also keeps live: the holder of a pointer that shares another's register, kNone
  // otherwise (Liveness::Build's `alsoUses`). Empty when no pointer shares.
  std::vector<ir::ValueId> SharedHolders() const;
};

}  // namespace crashtest::analysis
