// Editing helpers shared by the clean-up passes (fold_constants, dead_branches, local_cse, dead_code,
// merge_blocks): erasing instructions, replacing uses, making constants, removing blocks, and keeping the
// module's cross references (Value::owner/index, block indices in branches, phis and merge information,
// predecessor lists) consistent after an edit.
//
// Conventions: an erased instruction is marked with OpNop (lowering never emits one) until CompactInstructions
// removes it; its result ValueId stays in Module::values with no definition (owner == kNone), as the IR's other
// passes leave removed values. New constants are appended with fresh SPIR-V ids above the module's largest.
#pragma once

#include <spirv/unified1/spirv.hpp>

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "pipeline/ir/module.h"

namespace crashtest::ir {

inline constexpr uint16_t kErasedOp = spv::OpNop;

// Marks the instruction erased and detaches its result; CompactInstructions drops it later.
void MarkErased(Module& module, Instruction& inst);
// Removes erased instructions from every block and renumbers Value::index. Returns whether any was removed.
bool CompactInstructions(Module& module);
// Drops operand pool words no instruction references (edits append operands and leave the old ones behind).
void CompactOperandPool(Module& module);

// Pending "replace every use of A by B" edits, applied to all value operands in one sweep. Chains (A → B, B → C)
// resolve to the last value.
class UseReplacer {
 public:
  explicit UseReplacer(const Module& module) : map_(module.values.size(), kNone) {}
  void Replace(ValueId from, ValueId to);
  ValueId Resolve(ValueId value) const;
  bool Empty() const { return count_ == 0; }
  // Rewrites the value operands of one instruction; returns whether it changed.
  bool ApplyTo(Module& module, const Instruction& inst) const;
  void ApplyToAll(Module& module) const;

 private:
  std::vector<ValueId> map_;
  size_t count_ = 0;
};

// Interns constants: an existing constant with the same type and contents is reused, so that equal constants are
// one ValueId (which CSE and the identity checks rely on).
class ConstantPool {
 public:
  explicit ConstantPool(Module& module);
  ValueId Scalar(TypeId type, uint64_t bits);
  ValueId Composite(TypeId type, std::span<const ValueId> constituents);
  // The zero value of a scalar or vector type (a composite of scalar zeros); kNone for other types.
  ValueId Zero(TypeId type);
  // OpConstantNull of any type (a scalar or vector zero for those types).
  ValueId Null(TypeId type);

 private:
  ValueId Append(TypeId type, Constant constant);
  Module& m_;
  uint32_t nextSpirvId_ = 1;
  std::unordered_map<uint64_t, std::vector<ValueId>> byHash_;
};

// Constant contents: whether `value` is a (non-specialisation) scalar constant or OpConstantNull of a scalar, and
// its bits; `component` picks a component of a vector constant (ignored for scalars).
bool ConstantBits(const Module& module, ValueId value, uint32_t component, uint64_t* bits);
bool IsConstant(const Module& module, ValueId value);  // non-specialisation OpConstant*

// Number of components of a scalar (1) or vector type.
uint32_t ComponentCount(const Module& module, TypeId type);
TypeId ComponentType(const Module& module, TypeId type);

// Calls `visit(uint32_t& blockIndex)` for every block index an instruction names: branch and switch targets and
// phi parents. `module` is needed for the width of switch literals.
template <class Visit>
void ForEachBlockOperand(Module& module, const Instruction& inst, Visit&& visit);

// Rebuilds Block::predecessors from Block::successors, in block order.
void RebuildPredecessors(Function& function);
// Removes the blocks whose `keep` entry is false and renumbers every block index (successors, predecessors,
// merge/continue targets, branch targets, phi parents, Value::owner). Values defined in removed blocks lose their
// definition. The kept blocks must not branch to removed ones, and phis must not name them.
void RemoveBlocks(Module& module, const std::vector<bool>& keep);

// Recomputes Block::successors of `block` from its terminator.
void RecomputeSuccessors(Module& module, BlockId block);

// Words of an OpSwitch case literal for the selector's type.
uint32_t SwitchLiteralWords(const Module& module, const Instruction& inst);

template <class Visit>
void ForEachBlockOperand(Module& module, const Instruction& inst, Visit&& visit) {
  uint32_t* operands = module.function.operands.data() + inst.firstOperand;
  switch (inst.op) {
    case spv::OpBranch:
      if (inst.operandCount >= 1) visit(operands[0]);
      break;
    case spv::OpBranchConditional:  // condition, true label, false label, [weights]
      if (inst.operandCount >= 3) {
        visit(operands[1]);
        visit(operands[2]);
      }
      break;
    case spv::OpSwitch: {  // selector, default, (literal, label)...
      if (inst.operandCount < 2) break;
      visit(operands[1]);
      uint32_t step = SwitchLiteralWords(module, inst) + 1;
      for (uint32_t k = 2 + step - 1; k < inst.operandCount; k += step) visit(operands[k]);
      break;
    }
    case spv::OpPhi:  // values, then parents
      for (uint32_t k = 0; k < inst.valueCount && inst.valueCount + k < inst.operandCount; ++k)
        visit(operands[inst.valueCount + k]);
      break;
    default: break;
  }
}

}  // namespace crashtest::ir
