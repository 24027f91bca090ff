#include "pipeline/ir/passes/dead_branches.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "pipeline/ir/passes/ir_editing.h"

namespace crashtest::ir {

namespace {

// The single target a terminator always takes, or kNone.
BlockId ConstantTarget(const Module& module, const Instruction& terminator) {
  auto operands = module.Operands(terminator);
  if (terminator.op == spv::OpBranchConditional && terminator.operandCount >= 3) {
    if (operands[1] == operands[2]) return operands[1];
    uint64_t condition;
    if (!ConstantBits(module, operands[0], 0, &condition)) return kNone;
    return condition ? operands[1] : operands[2];
  }
  if (terminator.op == spv::OpSwitch && terminator.operandCount >= 2) {
    uint64_t selector;
    if (!ConstantBits(module, operands[0], 0, &selector)) return kNone;
    uint32_t width = module.TypeOf(operands[0]).width;
    uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    selector &= mask;
    uint32_t words = SwitchLiteralWords(module, terminator);
    // Literals narrower than 32 bits are sign-extended into their word for signed types: compare at the width.
    for (uint32_t k = 2; k + words < terminator.operandCount; k += words + 1) {
      uint64_t literal = operands[k];
      if (words == 2) literal |= uint64_t{operands[k + 1]} << 32;
      if ((literal & mask) == selector) return operands[k + words];
    }
    return operands[1];
  }
  return kNone;
}

void MakeBranch(Module& module, Instruction& terminator, BlockId target) {
  terminator.op = spv::OpBranch;
  terminator.valueCount = 0;
  terminator.operandCount = 1;
  module.function.operands[terminator.firstOperand] = target;
}

std::vector<bool> Reachable(const Function& function) {
  std::vector<bool> reachable(function.blocks.size(), false);
  std::vector<BlockId> stack{0};
  reachable[0] = true;
  while (!stack.empty()) {
    BlockId b = stack.back();
    stack.pop_back();
    for (BlockId s : function.blocks[b].successors)
      if (!reachable[s]) {
        reachable[s] = true;
        stack.push_back(s);
      }
  }
  return reachable;
}

bool IsLoneUnreachable(const Block& block) {
  return block.instructions.size() == 1 && block.instructions[0].op == spv::OpUnreachable &&
         block.successors.empty() && block.mergeKind == MergeKind::None;
}

}  // namespace

bool EliminateDeadBranches(Module& module) {
  Function& function = module.function;
  if (function.blocks.empty()) return false;
  bool changed = false;
  for (BlockId b = 0; b < function.blocks.size(); ++b) {
    Block& block = function.blocks[b];
    if (block.instructions.empty()) continue;
    Instruction& terminator = block.instructions.back();
    BlockId target = ConstantTarget(module, terminator);
    if (target == kNone) continue;
    MakeBranch(module, terminator, target);
    RecomputeSuccessors(module, b);
    if (block.mergeKind == MergeKind::Selection) {
      block.mergeKind = MergeKind::None;
      block.mergeBlock = kNone;
    }
    changed = true;
  }

  std::vector<bool> reachable = Reachable(function);
  std::vector<bool> keep = reachable;
  for (BlockId b = 0; b < function.blocks.size(); ++b) {
    if (!reachable[b]) continue;
    const Block& block = function.blocks[b];
    if (block.mergeBlock != kNone) keep[block.mergeBlock] = true;
    if (block.continueTarget != kNone) keep[block.continueTarget] = true;
  }
  bool removing = false;
  for (BlockId b = 0; b < function.blocks.size(); ++b) {
    if (reachable[b]) continue;
    Block& block = function.blocks[b];
    if (!keep[b]) {
      removing = true;
      continue;
    }
    if (IsLoneUnreachable(block)) continue;
    for (const Instruction& inst : block.instructions)
      if (inst.result != kNone) module.values[inst.result].owner = module.values[inst.result].index = kNone;
    Instruction unreachable;
    unreachable.op = spv::OpUnreachable;
    block.instructions.assign(1, unreachable);
    block.successors.clear();
    block.mergeKind = MergeKind::None;
    block.mergeBlock = block.continueTarget = kNone;
    block.loopControl = 0;
    changed = true;
  }
  RebuildPredecessors(function);

  // Phis keep the entries of edges that still exist and come from reachable blocks.
  UseReplacer replacer(module);
  bool erasedPhi = false;
  std::vector<uint32_t> kept;
  for (BlockId b = 0; b < function.blocks.size(); ++b) {
    if (!reachable[b]) continue;
    Block& block = function.blocks[b];
    for (Instruction& inst : block.instructions) {
      if (inst.op != spv::OpPhi) break;
      replacer.ApplyTo(module, inst);
      uint32_t* operands = function.operands.data() + inst.firstOperand;
      kept.clear();
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        BlockId parent = operands[inst.valueCount + k];
        if (parent < reachable.size() && reachable[parent] &&
            std::find(block.predecessors.begin(), block.predecessors.end(), parent) != block.predecessors.end())
          kept.push_back(k);
      }
      if (kept.size() == inst.valueCount) continue;
      changed = true;
      if (kept.size() == 1) {
        replacer.Replace(inst.result, operands[kept[0]]);
        MarkErased(module, inst);
        erasedPhi = true;
        continue;
      }
      // Compact the (value, parent) pairs in place: values first, then parents.
      std::vector<uint32_t> pairs;
      for (uint32_t k : kept) pairs.push_back(operands[k]);
      for (uint32_t k : kept) pairs.push_back(operands[inst.valueCount + k]);
      std::copy(pairs.begin(), pairs.end(), operands);
      inst.valueCount = static_cast<uint16_t>(kept.size());
      inst.operandCount = static_cast<uint16_t>(2 * kept.size());
    }
  }
  if (removing) {
    RemoveBlocks(module, keep);
    RebuildPredecessors(function);
  }
  replacer.ApplyToAll(module);
  if (erasedPhi) CompactInstructions(module);
  return changed || removing;
}

}  // namespace crashtest::ir
