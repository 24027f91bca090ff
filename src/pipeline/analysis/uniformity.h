// Uniformity (divergence) analysis: which SSA values are the same for every active invocation of a subgroup and
// which branches split the subgroup. GPU back ends keep uniform values in scalar registers (AMD's SGPRs, NVIDIA's
// uniform registers) computed by the scalar unit once per subgroup, and only divergent values in vector registers.
//
// A classic divergence analysis over SSA and the structured CFG (as NIR's and LLVM's):
// - sources of divergence are invocation-specific inputs (invocation ids, vertex attributes, varyings), atomics'
//   results, scans, shuffles and subgroup-elect, and loads from per-invocation memory that divergent code wrote;
// - everything else is divergent exactly when an operand is (data dependence): a load from a push constant, a
//   uniform buffer or a storage buffer at a uniform address is uniform, as is an image read at uniform coordinates;
// - a branch on a divergent condition makes the phis where its paths join divergent (sync dependence: the join
//   is the branch's immediate post-dominator and every join inside the region before it), and a loop that some
//   invocations leave earlier than others makes the values defined in it divergent where they are used after the
//   loop (temporal divergence) — inside the loop the invocations still running agree on them.
// The analysis is a side table: it never rewrites the IR.
#pragma once

#include <cstdint>
#include <vector>

#include "pipeline/analysis/dominators.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"

namespace crashtest::analysis {

class Uniformity {
 public:
  // `postDominators` and `loops` are the module's (CompiledShader keeps both).
  static Uniformity Build(const ir::Module& module, const DominatorTree& postDominators, const LoopInfo& loops);

  // Constants, undefs and variables' addresses are uniform; so is a value defined in a loop with a divergent
  // exit, inside that loop (see ValueDivergentAt).
  bool IsUniform(ir::ValueId value) const { return divergent_[value] == 0; }
  // Whether `value`, as an operand of an instruction in `useBlock`, differs between the subgroup's invocations:
  // divergent values everywhere, and values of a loop that invocations leave at different iterations after it.
  bool IsDivergentAt(ir::ValueId value, ir::BlockId useBlock) const;
  // The block ends in a conditional branch or switch on a divergent value.
  bool IsDivergentBranch(ir::BlockId block) const { return divergentBranch_[block] != 0; }
  uint32_t DivergentBranchCount() const;
  // Some invocations of the subgroup may be inactive here (inside a divergent branch's region or after a
  // divergent loop exit was taken by some): a value stored here differs from what the inactive ones hold.
  bool InDivergentControl(ir::BlockId block) const { return divergentControl_[block] != 0; }

 private:
  std::vector<uint32_t> blockLoop_;   // innermost loop per block (LoopInfo's, copied: no reference to keep valid)
  std::vector<uint32_t> loopParent_;  // per loop
  // Flags as bytes, not std::vector<bool>: the sweeps test and set them per operand, and a byte is one load
  // where a bit is a shift and a mask (the analysis was a sixth of the statistics' cost).
  std::vector<uint8_t> divergent_;         // per value
  std::vector<uint32_t> temporalLoop_;     // per value: innermost loop with a divergent exit around its definition
  std::vector<uint8_t> divergentBranch_;   // per block
  std::vector<uint8_t> divergentControl_;  // per block
};

}  // namespace crashtest::analysis
