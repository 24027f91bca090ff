#include "pipeline/analysis/offset_registers.h"

#include <spirv/unified1/spirv.hpp>

#include <map>

namespace crashtest::analysis {

namespace {

class OffsetKeys {
 public:
  explicit OffsetKeys(const ir::Module& module) : m_(module) {}

  // The roots of the pointer's dynamic indices, each with its byte stride; false when no index is dynamic. The
  // offset is sum(index * stride) + constant whatever the buffer or variable (the descriptor, or the variable's
  // base address, is separate and a constant folds into the immediate), so CSE shares it between pointers into
  // different buffers; where a stride is not known, the base is part of the key.
  bool Key(const ir::Instruction& def, std::vector<ir::ValueId>& key) const {
    if (def.op != spv::OpAccessChain && def.op != spv::OpInBoundsAccessChain && def.op != spv::OpPtrAccessChain)
      return false;
    auto operands = m_.Operands(def);
    bool dynamic = false;
    if (const ir::Instruction* base = Def(operands[0]); base != nullptr) dynamic = Key(*base, key);
    if (!dynamic) key.clear();
    const ir::Type& baseType = m_.types[m_.values[operands[0]].type];
    ir::TypeId current = baseType.kind == ir::TypeKind::Pointer ? baseType.element : ir::kNone;
    bool knownStrides = true;
    for (uint32_t k = 1; k < def.valueCount; ++k) {
      uint32_t stride = 0;
      ir::TypeId next = ir::kNone;
      if (k == 1 && def.op == spv::OpPtrAccessChain) {
        stride = baseType.arrayStride;  // the Element operand steps over whole pointees
        next = current;
      } else if (current != ir::kNone) {
        const ir::Type& t = m_.types[current];
        switch (t.kind) {
          case ir::TypeKind::Struct:
            if (IsConstant(operands[k])) {
              const uint64_t member = m_.constants[m_.values[operands[k]].owner].bits;
              if (member < t.members.size()) next = t.members[member];
            }
            break;
          case ir::TypeKind::Array: case ir::TypeKind::RuntimeArray:
            stride = t.arrayStride;
            next = t.element;
            break;
          case ir::TypeKind::Vector:
            stride = m_.types[t.element].width / 8;
            next = t.element;
            break;
          default: break;
        }
      }
      current = next;
      if (IsConstant(operands[k])) continue;
      if (stride == 0) knownStrides = false;
      key.push_back(stride);
      key.push_back(Root(operands[k]));
      dynamic = true;
    }
    if (dynamic && !knownStrides && key.front() != kBase) key.insert(key.begin(), {kBase, operands[0]});
    return dynamic;
  }
  static constexpr ir::ValueId kBase = ~ir::ValueId{1};  // marks a key that starts with its base

  const ir::Instruction* Def(ir::ValueId v) const {
    const ir::Value& value = m_.values[v];
    if (value.kind != ir::ValueKind::Instruction) return nullptr;
    return &m_.function.blocks[value.owner].instructions[value.index];
  }

 private:
  bool IsConstant(ir::ValueId v) const { return m_.values[v].kind == ir::ValueKind::Constant; }
  // The index with constant addends stripped: x + c, c + x and x - c all have x's root.
  ir::ValueId Root(ir::ValueId v) const {
    for (const ir::Instruction* def = Def(v); def != nullptr && (def->op == spv::OpIAdd || def->op == spv::OpISub);
         def = Def(v)) {
      auto operands = m_.Operands(*def);
      if (IsConstant(operands[1])) v = operands[0];
      else if (def->op == spv::OpIAdd && IsConstant(operands[0])) v = operands[1];
      else break;
    }
    return v;
  }

  const ir::Module& m_;
};

bool AddressedByOffset(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassStorageBuffer: case spv::StorageClassUniform: case spv::StorageClassWorkgroup:
    case spv::StorageClassPushConstant: case spv::StorageClassUniformConstant:
      return true;
    default: return false;
  }
}

}  // namespace

OffsetRegisters OffsetRegisters::Build(const ir::Module& module, const DominatorTree& dominators) {
  OffsetRegisters result;
  OffsetKeys keys(module);
  std::map<std::vector<ir::ValueId>, std::vector<ir::ValueId>> holders;
  std::vector<ir::ValueId> key;
  // Blocks in reverse post-order, so a holder is met before the pointers it dominates.
  for (ir::BlockId b : dominators.ReversePostOrder()) {
    const ir::Block& block = module.function.blocks[b];
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.result == ir::kNone || inst.type == ir::kNone) continue;
      const ir::Type& type = module.types[inst.type];
      if (type.kind != ir::TypeKind::Pointer || !AddressedByOffset(type.storageClass)) continue;
      key.clear();
      if (!keys.Key(inst, key)) continue;
      if (result.holderOf.empty()) result.holderOf.assign(module.values.size(), ir::kNone);
      std::vector<ir::ValueId>& candidates = holders[key];
      ir::ValueId holder = inst.result;
      for (ir::ValueId h : candidates)
        if (dominators.Dominates(module.values[h].owner, b)) {
          holder = h;
          break;
        }
      if (holder == inst.result) candidates.push_back(holder);
      result.holderOf[inst.result] = holder;
    }
  }
  return result;
}

std::vector<ir::ValueId> OffsetRegisters::SharedHolders() const {
  std::vector<ir::ValueId> shared;
  for (ir::ValueId v = 0; v < holderOf.size(); ++v) {
    if (holderOf[v] == ir::kNone || holderOf[v] == v) continue;
    if (shared.empty()) shared.assign(holderOf.size(), ir::kNone);
    shared[v] = holderOf[v];
  }
  return shared;
}

}  // namespace crashtest::analysis
