// Dominator and post-dominator trees of the IR's CFG (Cooper, Harvey and Kennedy's iterative algorithm over the
// reverse post-order: for the small CFGs of shaders it beats Lengauer-Tarjan in practice).
#pragma once

#include <cstdint>
#include <vector>

#include "pipeline/ir/module.h"

namespace crashtest::analysis {

class DominatorTree {
 public:
  // Dominators from block 0; with `post`, post-dominators towards a virtual exit that every block without
  // successors (return, kill, terminate, unreachable) leads to.
  static DominatorTree Build(const ir::Function& function, bool post = false);

  bool IsReachable(ir::BlockId block) const { return order_[block] != ir::kNone; }
  // Immediate (post-)dominator; kNone for the root, for blocks whose only post-dominator is the virtual exit, and
  // for unreachable blocks.
  ir::BlockId ImmediateDominator(ir::BlockId block) const { return idom_[block]; }
  // Whether `a` dominates `b` (every block dominates itself). False when either is unreachable.
  bool Dominates(ir::BlockId a, ir::BlockId b) const;
  // Blocks in reverse post-order of the (reversed, for post-dominators) CFG; unreachable blocks are left out.
  const std::vector<ir::BlockId>& ReversePostOrder() const { return rpo_; }

 private:
  std::vector<ir::BlockId> idom_;
  std::vector<uint32_t> order_;  // position in rpo_, kNone if unreachable
  std::vector<ir::BlockId> rpo_;
};

}  // namespace crashtest::analysis
