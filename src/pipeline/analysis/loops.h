// Loop nesting from back edges (an edge to a dominator), tied to the structured OpLoopMerge information, with a
// trip count where the loop is a counted loop with constant bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pipeline/analysis/dominators.h"
#include "pipeline/ir/module.h"

namespace crashtest::analysis {

struct Loop {
  ir::BlockId header = ir::kNone;
  ir::BlockId merge = ir::kNone;           // OpLoopMerge's merge block (kNone for an unstructured loop)
  ir::BlockId continueTarget = ir::kNone;  // OpLoopMerge's continue target
  std::vector<ir::BlockId> latches;        // blocks with a back edge to the header
  std::vector<ir::BlockId> blocks;         // the natural loop, header first
  uint32_t parent = ir::kNone;             // index of the enclosing loop
  uint32_t depth = 1;                      // 1 for an outermost loop
  // How many times the body runs, when the loop counts an integer induction variable from a constant by a
  // constant step to a constant bound and has one exit.
  std::optional<uint64_t> tripCount;
};

class LoopInfo {
 public:
  static LoopInfo Build(const ir::Module& module, const DominatorTree& dominators);

  const std::vector<Loop>& loops() const { return loops_; }
  // Innermost loop containing the block, or kNone.
  uint32_t LoopOf(ir::BlockId block) const { return blockLoop_[block]; }
  uint32_t Depth(ir::BlockId block) const {
    return blockLoop_[block] == ir::kNone ? 0 : loops_[blockLoop_[block]].depth;
  }

 private:
  std::vector<Loop> loops_;
  std::vector<uint32_t> blockLoop_;
};

}  // namespace crashtest::analysis
