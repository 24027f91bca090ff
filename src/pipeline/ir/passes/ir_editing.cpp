#include "pipeline/ir/passes/ir_editing.h"

#include <algorithm>

namespace crashtest::ir {

void MarkErased(Module& module, Instruction& inst) {
  if (inst.result != kNone) {
    module.values[inst.result].owner = kNone;
    module.values[inst.result].index = kNone;
  }
  inst.op = kErasedOp;
  inst.result = kNone;
  inst.type = kNone;
  inst.valueCount = 0;
  inst.operandCount = 0;
}

bool CompactInstructions(Module& module) {
  bool removed = false;
  for (BlockId b = 0; b < module.function.blocks.size(); ++b) {
    std::vector<Instruction>& instructions = module.function.blocks[b].instructions;
    size_t out = 0;
    for (size_t i = 0; i < instructions.size(); ++i) {
      if (instructions[i].op == kErasedOp) continue;
      if (out != i) instructions[out] = instructions[i];
      if (instructions[out].result != kNone) {
        module.values[instructions[out].result].owner = b;
        module.values[instructions[out].result].index = static_cast<uint32_t>(out);
      }
      ++out;
    }
    if (out != instructions.size()) {
      removed = true;
      instructions.resize(out);
    }
  }
  return removed;
}

void CompactOperandPool(Module& module) {
  size_t used = 0;
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) used += inst.operandCount;
  if (used == module.function.operands.size()) return;
  std::vector<uint32_t> pool;
  pool.reserve(used);
  for (Block& block : module.function.blocks)
    for (Instruction& inst : block.instructions) {
      uint32_t first = static_cast<uint32_t>(pool.size());
      pool.insert(pool.end(), module.function.operands.begin() + inst.firstOperand,
                  module.function.operands.begin() + inst.firstOperand + inst.operandCount);
      inst.firstOperand = first;
    }
  module.function.operands = std::move(pool);
}

void UseReplacer::Replace(ValueId from, ValueId to) {
  if (from >= map_.size()) map_.resize(from + 1, kNone);
  to = Resolve(to);
  if (to == from) return;
  map_[from] = to;
  ++count_;
}

ValueId UseReplacer::Resolve(ValueId value) const {
  while (value < map_.size() && map_[value] != kNone) value = map_[value];
  return value;
}

bool UseReplacer::ApplyTo(Module& module, const Instruction& inst) const {
  bool changed = false;
  uint32_t* operands = module.function.operands.data() + inst.firstOperand;
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    ValueId resolved = Resolve(operands[k]);
    if (resolved != operands[k]) {
      operands[k] = resolved;
      changed = true;
    }
  }
  return changed;
}

void UseReplacer::ApplyToAll(Module& module) const {
  if (count_ == 0) return;
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) ApplyTo(module, inst);
  for (Global& global : module.globals)
    if (global.initializer != kNone) global.initializer = Resolve(global.initializer);
}

namespace {

uint64_t Mix(uint64_t hash, uint64_t word) {
  hash ^= word + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
  return hash;
}

uint64_t ScalarKey(TypeId type, uint64_t bits) { return Mix(Mix(1, type), bits); }

uint64_t CompositeKey(TypeId type, std::span<const ValueId> constituents) {
  uint64_t hash = Mix(2, type);
  for (ValueId c : constituents) hash = Mix(hash, c);
  return hash;
}

}  // namespace

ConstantPool::ConstantPool(Module& module) : m_(module) {
  uint32_t largest = 0;
  for (const Value& value : module.values) largest = std::max(largest, value.spirvId);
  for (const Block& block : module.function.blocks) largest = std::max(largest, block.spirvId);
  nextSpirvId_ = largest + 1;
  for (const Constant& constant : module.constants) {
    if (constant.isSpecialization) continue;
    TypeId type = module.values[constant.value].type;
    const Type& t = module.types[type];
    bool scalar = t.kind == TypeKind::Bool || t.kind == TypeKind::Int || t.kind == TypeKind::Float;
    if (constant.isNull && !scalar) {
      byHash_[Mix(3, type)].push_back(constant.value);
      continue;
    }
    uint64_t key = scalar ? ScalarKey(type, constant.isNull ? 0 : constant.bits)
                          : CompositeKey(type, constant.constituents);
    byHash_[key].push_back(constant.value);
  }
}

ValueId ConstantPool::Append(TypeId type, Constant constant) {
  ValueId value = static_cast<ValueId>(m_.values.size());
  constant.value = value;
  m_.values.push_back({type, ValueKind::Constant, static_cast<uint32_t>(m_.constants.size()), kNone, nextSpirvId_++});
  m_.constants.push_back(std::move(constant));
  if (!m_.valueNames.empty()) m_.valueNames.emplace_back();
  return value;
}

ValueId ConstantPool::Scalar(TypeId type, uint64_t bits) {
  const Type& t = m_.types[type];
  if (t.kind == TypeKind::Bool) bits = bits != 0;
  if ((t.kind == TypeKind::Int || t.kind == TypeKind::Float) && t.width < 64) bits &= (uint64_t{1} << t.width) - 1;
  std::vector<ValueId>& candidates = byHash_[ScalarKey(type, bits)];
  for (ValueId v : candidates) {
    const Constant& c = m_.constants[m_.values[v].owner];
    if (m_.values[v].type == type && c.constituents.empty() && (c.isNull ? 0 : c.bits) == bits) return v;
  }
  Constant constant;
  constant.bits = bits;
  ValueId value = Append(type, std::move(constant));
  byHash_[ScalarKey(type, bits)].push_back(value);
  return value;
}

ValueId ConstantPool::Composite(TypeId type, std::span<const ValueId> constituents) {
  uint64_t key = CompositeKey(type, constituents);
  for (ValueId v : byHash_[key]) {
    const Constant& c = m_.constants[m_.values[v].owner];
    if (m_.values[v].type == type && !c.isNull && std::equal(c.constituents.begin(), c.constituents.end(), constituents.begin(),
                                                constituents.end()))
      return v;
  }
  Constant constant;
  constant.constituents.assign(constituents.begin(), constituents.end());
  ValueId value = Append(type, std::move(constant));
  byHash_[key].push_back(value);
  return value;
}

ValueId ConstantPool::Zero(TypeId type) {
  const Type& t = m_.types[type];
  if (t.kind == TypeKind::Bool || t.kind == TypeKind::Int || t.kind == TypeKind::Float) return Scalar(type, 0);
  if (t.kind != TypeKind::Vector) return kNone;
  ValueId zero = Zero(t.element);
  if (zero == kNone) return kNone;
  std::vector<ValueId> constituents(m_.types[type].count, zero);
  return Composite(type, constituents);
}

ValueId ConstantPool::Null(TypeId type) {
  ValueId zero = Zero(type);
  if (zero != kNone) return zero;
  uint64_t key = Mix(3, type);
  for (ValueId v : byHash_[key])
    if (m_.values[v].type == type && m_.constants[m_.values[v].owner].isNull) return v;
  Constant constant;
  constant.isNull = true;
  ValueId value = Append(type, std::move(constant));
  byHash_[key].push_back(value);
  return value;
}

bool IsConstant(const Module& module, ValueId value) {
  const Value& v = module.values[value];
  return v.kind == ValueKind::Constant && !module.constants[v.owner].isSpecialization;
}

bool ConstantBits(const Module& module, ValueId value, uint32_t component, uint64_t* bits) {
  if (!IsConstant(module, value)) return false;
  const Constant& constant = module.constants[module.values[value].owner];
  const Type& type = module.TypeOf(value);
  if (type.kind == TypeKind::Vector) {
    if (constant.isNull) {
      *bits = 0;
      return component < type.count;
    }
    if (component >= constant.constituents.size()) return false;
    return ConstantBits(module, constant.constituents[component], 0, bits);
  }
  if (type.kind != TypeKind::Bool && type.kind != TypeKind::Int && type.kind != TypeKind::Float) return false;
  *bits = constant.isNull ? 0 : constant.bits;
  return true;
}

uint32_t ComponentCount(const Module& module, TypeId type) {
  const Type& t = module.types[type];
  return t.kind == TypeKind::Vector ? t.count : 1;
}

TypeId ComponentType(const Module& module, TypeId type) {
  const Type& t = module.types[type];
  return t.kind == TypeKind::Vector ? t.element : type;
}

uint32_t SwitchLiteralWords(const Module& module, const Instruction& inst) {
  if (inst.valueCount == 0) return 1;
  const Type& selector = module.TypeOf(module.function.operands[inst.firstOperand]);
  return selector.width > 32 ? 2 : 1;
}

void RebuildPredecessors(Function& function) {
  for (Block& block : function.blocks) block.predecessors.clear();
  for (BlockId b = 0; b < function.blocks.size(); ++b)
    for (BlockId s : function.blocks[b].successors) function.blocks[s].predecessors.push_back(b);
}

void RecomputeSuccessors(Module& module, BlockId b) {
  Block& block = module.function.blocks[b];
  block.successors.clear();
  if (block.instructions.empty()) return;
  const Instruction& terminator = block.instructions.back();
  if (terminator.op == spv::OpPhi) return;
  ForEachBlockOperand(module, terminator, [&](uint32_t& target) {
    if (std::find(block.successors.begin(), block.successors.end(), target) == block.successors.end())
      block.successors.push_back(target);
  });
}

void RemoveBlocks(Module& module, const std::vector<bool>& keep) {
  std::vector<Block>& blocks = module.function.blocks;
  std::vector<BlockId> renumber(blocks.size(), kNone);
  BlockId next = 0;
  for (BlockId b = 0; b < blocks.size(); ++b)
    if (keep[b]) renumber[b] = next++;
  if (next == blocks.size()) return;
  for (BlockId b = 0; b < blocks.size(); ++b) {
    if (keep[b]) continue;
    for (const Instruction& inst : blocks[b].instructions)
      if (inst.result != kNone) module.values[inst.result].owner = module.values[inst.result].index = kNone;
  }
  auto map = [&](BlockId id) { return id == kNone ? kNone : renumber[id]; };
  std::vector<Block> kept;
  kept.reserve(next);
  for (BlockId b = 0; b < blocks.size(); ++b) {
    if (!keep[b]) continue;
    Block& block = blocks[b];
    for (BlockId& s : block.successors) s = map(s);
    std::erase(block.successors, kNone);
    for (BlockId& p : block.predecessors) p = map(p);
    std::erase(block.predecessors, kNone);
    block.mergeBlock = map(block.mergeBlock);
    block.continueTarget = map(block.continueTarget);
    if (block.mergeBlock == kNone && block.continueTarget == kNone) block.mergeKind = MergeKind::None;
    for (const Instruction& inst : block.instructions) {
      ForEachBlockOperand(module, inst, [&](uint32_t& target) { target = map(target); });
      if (inst.result != kNone) module.values[inst.result].owner = renumber[b];
    }
    kept.push_back(std::move(block));
  }
  blocks = std::move(kept);
}

}  // namespace crashtest::ir
