#include "pipeline/analysis/dominators.h"

#include <utility>

namespace crashtest::analysis {

using ir::kNone;

namespace {

// Reverse post-order by an explicit-stack DFS (a recursive one overflows on long shaders under ASan).
std::vector<ir::BlockId> DepthFirstReversePostOrder(const std::vector<std::vector<ir::BlockId>>& successors,
                                          const std::vector<ir::BlockId>& roots) {
  size_t n = successors.size();
  std::vector<uint8_t> visited(n, 0);
  std::vector<ir::BlockId> postOrder;
  postOrder.reserve(n);
  std::vector<std::pair<ir::BlockId, size_t>> stack;
  for (ir::BlockId root : roots) {
    if (visited[root]) continue;
    visited[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [block, next] = stack.back();
      if (next < successors[block].size()) {
        ir::BlockId s = successors[block][next++];
        if (!visited[s]) {
          visited[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        postOrder.push_back(block);
        stack.pop_back();
      }
    }
  }
  return {postOrder.rbegin(), postOrder.rend()};
}

}  // namespace

DominatorTree DominatorTree::Build(const ir::Function& function, bool post) {
  size_t n = function.blocks.size();
  // Post-dominators run on the reversed CFG with a virtual exit (index n) whose predecessors are the exit blocks.
  size_t nodes = post ? n + 1 : n;
  std::vector<std::vector<ir::BlockId>> successors(nodes), predecessors(nodes);
  for (ir::BlockId b = 0; b < n; ++b) {
    const ir::Block& block = function.blocks[b];
    if (post) {
      successors[b] = block.predecessors;
      predecessors[b] = block.successors;
      if (block.successors.empty()) {
        successors[n].push_back(b);
        predecessors[b].push_back(static_cast<ir::BlockId>(n));
      }
    } else {
      successors[b] = block.successors;
      predecessors[b] = block.predecessors;
    }
  }
  ir::BlockId root = post ? static_cast<ir::BlockId>(n) : 0;
  DominatorTree tree;
  std::vector<ir::BlockId> rpo = n == 0 ? std::vector<ir::BlockId>{} : DepthFirstReversePostOrder(successors, {root});
  std::vector<uint32_t> order(nodes, kNone);
  for (uint32_t i = 0; i < rpo.size(); ++i) order[rpo[i]] = i;
  std::vector<ir::BlockId> idom(nodes, kNone);
  if (!rpo.empty()) idom[root] = root;
  auto intersect = [&](ir::BlockId a, ir::BlockId b) {
    while (a != b) {
      while (order[a] > order[b]) a = idom[a];
      while (order[b] > order[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      ir::BlockId b = rpo[i];
      ir::BlockId newIdom = kNone;
      for (ir::BlockId p : predecessors[b]) {
        if (idom[p] == kNone) continue;
        newIdom = newIdom == kNone ? p : intersect(p, newIdom);
      }
      if (newIdom != idom[b]) {
        idom[b] = newIdom;
        changed = true;
      }
    }
  }
  tree.idom_.assign(n, kNone);
  tree.order_.assign(n, kNone);
  for (ir::BlockId b = 0; b < n; ++b) {
    tree.order_[b] = order[b];
    if (b != root && idom[b] != kNone && idom[b] < n) tree.idom_[b] = idom[b];
  }
  for (ir::BlockId b : rpo)
    if (b < n) tree.rpo_.push_back(b);
  return tree;
}

bool DominatorTree::Dominates(ir::BlockId a, ir::BlockId b) const {
  if (!IsReachable(a) || !IsReachable(b)) return false;
  // Walk up from b: idom order positions strictly decrease towards the root.
  while (b != kNone && order_[b] > order_[a]) b = idom_[b];
  return b == a;
}

}  // namespace crashtest::analysis

