#include "pipeline/ir/passes/merge_blocks.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "pipeline/ir/passes/ir_editing.h"

namespace crashtest::ir {

namespace {

class BlockMerger {
 public:
  explicit BlockMerger(Module& module) : m_(module), blocks_(module.function.blocks), replacer_(module) {}
  MergeBlocksResult Run();

 private:
  bool CanAbsorbSuccessor(BlockId a) const;
  void Absorb(BlockId a, BlockId b);

  Module& m_;
  std::vector<Block>& blocks_;
  UseReplacer replacer_;
  std::vector<bool> isMerge_, isContinue_, isCaseTarget_, removed_;
  MergeBlocksResult result_;
};

MergeBlocksResult BlockMerger::Run() {
  size_t n = blocks_.size();
  if (n < 2) return result_;
  RebuildPredecessors(m_.function);
  isMerge_.assign(n, false);
  isContinue_.assign(n, false);
  isCaseTarget_.assign(n, false);
  removed_.assign(n, false);
  std::vector<bool> reachable(n, false);
  std::vector<BlockId> stack{0};
  reachable[0] = true;
  while (!stack.empty()) {
    BlockId b = stack.back();
    stack.pop_back();
    for (BlockId s : blocks_[b].successors)
      if (!reachable[s]) {
        reachable[s] = true;
        stack.push_back(s);
      }
  }
  for (BlockId b = 0; b < n; ++b) {
    const Block& block = blocks_[b];
    if (block.mergeBlock != kNone) isMerge_[block.mergeBlock] = true;
    if (block.continueTarget != kNone) isContinue_[block.continueTarget] = true;
    if (!block.instructions.empty() && block.instructions.back().op == spv::OpSwitch)
      ForEachBlockOperand(m_, block.instructions.back(), [&](uint32_t& target) { isCaseTarget_[target] = true; });
  }
  for (BlockId a = 0; a < n; ++a) {
    if (!reachable[a] || removed_[a]) continue;
    while (CanAbsorbSuccessor(a)) Absorb(a, m_.Operands(blocks_[a].instructions.back())[0]);
  }
  if (!result_.changed) return result_;
  std::vector<bool> keep(n);
  for (BlockId b = 0; b < n; ++b) keep[b] = !removed_[b];
  RemoveBlocks(m_, keep);
  replacer_.ApplyToAll(m_);
  return result_;
}

bool BlockMerger::CanAbsorbSuccessor(BlockId a) const {
  const Block& pred = blocks_[a];
  if (pred.instructions.empty() || pred.instructions.back().op != spv::OpBranch) return false;
  BlockId b = m_.Operands(pred.instructions.back())[0];
  if (b == a || b == 0 || blocks_[b].predecessors.size() != 1) return false;
  const Block& succ = blocks_[b];
  if (isMerge_[a] && isMerge_[b]) return false;     // two merge blocks
  if (isMerge_[a] && isContinue_[b]) return false;  // a merge block and a continue target
  bool predIsHeader = pred.mergeKind != MergeKind::None;
  if (predIsHeader && b != pred.mergeBlock) {
    // "OpLoopMerge must immediately precede an OpBranch or OpBranchConditional": only a loop header may absorb a
    // non-header that ends in one of those.
    if (succ.mergeKind != MergeKind::None || pred.mergeKind != MergeKind::Loop) return false;
    uint16_t op = succ.instructions.empty() ? 0 : succ.instructions.back().op;
    if (op != spv::OpBranch && op != spv::OpBranchConditional) return false;
  }
  if ((isMerge_[b] || isContinue_[b]) && isCaseTarget_[a]) return false;
  return true;
}

void BlockMerger::Absorb(BlockId a, BlockId b) {
  Block& pred = blocks_[a];
  Block& succ = blocks_[b];
  pred.instructions.pop_back();  // the OpBranch
  for (Instruction& inst : succ.instructions) {
    if (inst.op == spv::OpPhi) {  // one predecessor: the phi is its only incoming value
      replacer_.Replace(inst.result, m_.Operands(inst)[0]);
      m_.values[inst.result].owner = m_.values[inst.result].index = kNone;
      continue;
    }
    if (inst.result != kNone) {
      m_.values[inst.result].owner = a;
      m_.values[inst.result].index = static_cast<uint32_t>(pred.instructions.size());
    }
    pred.instructions.push_back(inst);
  }
  if (pred.mergeKind != MergeKind::None && pred.mergeBlock == b) {
    pred.mergeKind = MergeKind::None;
    pred.mergeBlock = pred.continueTarget = kNone;
    pred.loopControl = 0;
    result_.removedMergeDeclaration = true;
  }
  if (succ.mergeKind != MergeKind::None) {
    pred.mergeKind = succ.mergeKind;
    pred.mergeBlock = succ.mergeBlock;
    pred.continueTarget = succ.continueTarget;
    pred.loopControl = succ.loopControl;
  }
  pred.successors = succ.successors;
  for (BlockId s : succ.successors) {
    Block& next = blocks_[s];
    std::replace(next.predecessors.begin(), next.predecessors.end(), b, a);
    for (Instruction& inst : next.instructions) {
      if (inst.op != spv::OpPhi) break;
      ForEachBlockOperand(m_, inst, [&](uint32_t& parent) {
        if (parent == b) parent = a;
      });
    }
  }
  for (Block& block : blocks_) {
    if (block.mergeBlock == b) block.mergeBlock = a;
    if (block.continueTarget == b) block.continueTarget = a;
  }
  if (isMerge_[b]) isMerge_[a] = true;
  if (isContinue_[b]) isContinue_[a] = true;
  if (isCaseTarget_[b]) isCaseTarget_[a] = true;
  succ = Block{};
  removed_[b] = true;
  result_.changed = true;
}

}  // namespace

MergeBlocksResult MergeBlocks(Module& module) {
  BlockMerger merger(module);
  return merger.Run();
}

}  // namespace crashtest::ir
