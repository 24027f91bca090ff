#include "statistics/loop_weights.h"

#include <algorithm>
#include <limits>

namespace crashtest::statistics {

std::vector<uint64_t> BlockWeights(const ir::Module& module, const analysis::LoopInfo& loops) {
  const size_t n = module.function.blocks.size();
  // Weight of each loop: its own trip count times its parent's weight (parents come first in nesting order
  // only by index convention, so resolve recursively with memoisation).
  const auto& all = loops.loops();
  std::vector<uint64_t> loopWeight(all.size(), 0);
  auto weightOf = [&](auto&& self, uint32_t loop) -> uint64_t {
    if (loopWeight[loop] != 0) return loopWeight[loop];
    const analysis::Loop& info = all[loop];
    // A loop that provably never runs its body still runs its header test once.
    uint64_t trips = info.tripCount ? std::max<uint64_t>(*info.tripCount, 1) : kDefaultLoopTripCount;
    uint64_t parent = info.parent == ir::kNone ? 1 : self(self, info.parent);
    loopWeight[loop] = std::min(SaturatingMul(trips, parent), kMaxBlockWeight);
    return loopWeight[loop];
  };
  std::vector<uint64_t> weights(n, 1);
  for (ir::BlockId b = 0; b < n; ++b) {
    uint32_t loop = loops.LoopOf(b);
    if (loop != ir::kNone) weights[b] = weightOf(weightOf, loop);
  }
  return weights;
}

bool InLoop(const analysis::LoopInfo& loops, uint32_t loop, ir::BlockId block) {
  for (uint32_t l = loops.LoopOf(block); l != ir::kNone; l = loops.loops()[l].parent)
    if (l == loop) return true;
  return false;
}

bool LeavesLoop(const analysis::LoopInfo& loops, ir::BlockId from, ir::BlockId to) {
  uint32_t loop = loops.LoopOf(from);
  return loop != ir::kNone && !InLoop(loops, loop, to);
}

}  // namespace crashtest::statistics
