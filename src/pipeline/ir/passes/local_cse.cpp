#include "pipeline/ir/passes/local_cse.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "pipeline/analysis/dominators.h"
#include "pipeline/ir/passes/instruction_properties.h"
#include "pipeline/ir/passes/ir_editing.h"

namespace crashtest::ir {

namespace {

// Open-addressing table of the pure instructions seen on the current dominator-tree path. Entries are removed in
// the reverse order of insertion (leaving a dominator subtree), which restores linear probing exactly.
class ValueTable {
 public:
  ValueTable(const Module& module, size_t capacity) : m_(module) {
    size_t size = std::bit_ceil(std::max<size_t>(16, capacity * 2));
    slots_.assign(size, kNone);
    hashes_.assign(size, 0);
  }

  // The dominating equal instruction's result, or kNone after recording `inst` as the available one.
  ValueId FindOrInsert(const Instruction& inst) {
    uint64_t hash = Hash(inst);
    size_t mask = slots_.size() - 1;
    size_t slot = hash & mask;
    for (; slots_[slot] != kNone; slot = (slot + 1) & mask)
      if (hashes_[slot] == hash && Equal(InstructionOf(slots_[slot]), inst)) return slots_[slot];
    slots_[slot] = inst.result;
    hashes_[slot] = hash;
    undo_.push_back(slot);
    return kNone;
  }
  size_t Mark() const { return undo_.size(); }
  void PopTo(size_t mark) {
    while (undo_.size() > mark) {
      slots_[undo_.back()] = kNone;
      undo_.pop_back();
    }
  }

 private:
  const Instruction& InstructionOf(ValueId v) const {
    const Value& value = m_.values[v];
    return m_.function.blocks[value.owner].instructions[value.index];
  }
  uint64_t Hash(const Instruction& inst) const {
    uint64_t hash = (uint64_t{inst.op} << 32) ^ inst.type ^ (uint64_t{inst.valueCount} << 48);
    for (uint32_t word : m_.Operands(inst)) hash = (hash ^ word) * 0x100000001b3ull;
    return hash ^ (hash >> 29);
  }
  bool Equal(const Instruction& a, const Instruction& b) const {
    if (a.op != b.op || a.type != b.type || a.valueCount != b.valueCount || a.operandCount != b.operandCount)
      return false;
    auto x = m_.Operands(a), y = m_.Operands(b);
    return std::equal(x.begin(), x.end(), y.begin());
  }

  const Module& m_;
  std::vector<ValueId> slots_;
  std::vector<uint64_t> hashes_;
  std::vector<size_t> undo_;
};

}  // namespace

bool EliminateCommonSubexpressions(Module& module, CseOptions options) {
  Function& function = module.function;
  if (function.blocks.empty()) return false;
  bool uniformReadOnly = !WritesUniformMemory(module);
  auto candidate = [&](const Instruction& inst) {
    return IsPureInstruction(module, inst) || IsReadOnlyLoad(module, inst, uniformReadOnly);
  };
  size_t candidates = 0;
  for (const Block& block : function.blocks)
    for (const Instruction& inst : block.instructions) candidates += candidate(inst) ? 1 : 0;
  if (candidates < 2) return false;

  analysis::DominatorTree dom = analysis::DominatorTree::Build(function);
  // Children lists of the dominator tree, for a depth-first walk that enters a block's subtree after the block.
  std::vector<std::vector<BlockId>> children(function.blocks.size());
  for (BlockId b : dom.ReversePostOrder()) {
    BlockId parent = dom.ImmediateDominator(b);
    if (parent != kNone) children[parent].push_back(b);
  }
  ValueTable table(module, candidates);
  UseReplacer replacer(module);
  bool changed = false;
  auto visitBlock = [&](BlockId b) {
    for (Instruction& inst : function.blocks[b].instructions) {
      replacer.ApplyTo(module, inst);  // operands dominate the use, so they were visited: resolve them first
      if (!candidate(inst)) continue;
      ValueId available = table.FindOrInsert(inst);
      if (available == kNone) continue;
      // The one computation now serves a NoContraction use too: it must stay exact.
      module.values[available].exact = module.values[available].exact || module.values[inst.result].exact;
      replacer.Replace(inst.result, available);
      MarkErased(module, inst);
      changed = true;
    }
  };
  // Explicit stack: (block, table mark on entry, next child).
  struct Frame { BlockId block; size_t mark; size_t next; };
  std::vector<Frame> stack;
  stack.push_back({0, table.Mark(), 0});
  visitBlock(0);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if (frame.next < children[frame.block].size()) {
      BlockId child = children[frame.block][frame.next++];
      if (!options.acrossBlocks) table.PopTo(0);
      size_t mark = table.Mark();
      stack.push_back({child, mark, 0});
      visitBlock(child);
      continue;
    }
    table.PopTo(frame.mark);
    stack.pop_back();
  }
  if (!changed) return false;
  replacer.ApplyToAll(module);  // phis (back edges) and unreachable blocks
  CompactInstructions(module);
  return true;
}

}  // namespace crashtest::ir
