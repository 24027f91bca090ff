#include "statistics/expansion_temporaries.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp>

namespace crashtest::statistics {
namespace {

bool IsArithmeticReduction(uint16_t op) {
  // IAdd .. BitwiseXor; the Logical forms reduce lane masks in scalar registers.
  return op >= spv::OpGroupNonUniformIAdd && op <= spv::OpGroupNonUniformBitwiseXor;
}

bool IsReducibleAtomic(uint16_t op) {
  switch (op) {
    case spv::OpAtomicIAdd:
    case spv::OpAtomicISub:
    case spv::OpAtomicSMin:
    case spv::OpAtomicUMin:
    case spv::OpAtomicSMax:
    case spv::OpAtomicUMax:
    case spv::OpAtomicAnd:
    case spv::OpAtomicOr:
    case spv::OpAtomicXor: return true;
    default: return false;
  }
}

// Clusters smaller than 32 lanes stay within a row of 16 (DPP alone); larger ones cross rows.
bool CrossesRows(const ir::Module& module, const ir::Instruction& inst) {
  auto operands = module.Operands(inst);
  if (inst.operandCount <= inst.valueCount || operands[inst.valueCount] != spv::GroupOperationClusteredReduce)
    return true;
  if (inst.valueCount < 3) return true;
  const ir::Value& size = module.values[operands[2]];
  if (size.kind != ir::ValueKind::Constant) return true;
  return module.constants[size.owner].bits >= 32;
}

// The construct each block is nested in: the header of its outermost construct (kNone outside control flow),
// that construct's merge block and whether a loop encloses the block. Blocks are in structured order (a header
// before its construct, the construct before its merge block).
struct Nesting {
  std::vector<ir::BlockId> outerHeader, outerMerge;
  std::vector<uint8_t> inLoop;
};

Nesting FindNesting(const ir::Module& module) {
  const auto& blocks = module.function.blocks;
  Nesting n;
  n.outerHeader.assign(blocks.size(), ir::kNone);
  n.outerMerge.assign(blocks.size(), ir::kNone);
  n.inLoop.assign(blocks.size(), 0);
  struct Open {
    ir::BlockId header, merge;
    bool loop;
  };
  std::vector<Open> open;
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    while (!open.empty() && open.back().merge == b) open.pop_back();
    if (!open.empty()) {
      n.outerHeader[b] = open.front().header;
      n.outerMerge[b] = open.front().merge;
      for (const Open& o : open) n.inLoop[b] |= o.loop;
    }
    if (blocks[b].mergeKind != ir::MergeKind::None && blocks[b].mergeBlock != ir::kNone)
      open.push_back({b, blocks[b].mergeBlock, blocks[b].mergeKind == ir::MergeKind::Loop});
  }
  return n;
}

}  // namespace

ExpansionTemporaries FindExpansionTemporaries(const ir::Module& module, const analysis::Uniformity& uniformity) {
  ExpansionTemporaries t;
  const auto& blocks = module.function.blocks;
  Nesting nesting;
  auto start = [&] {
    if (t.any) return;
    t.any = true;
    t.atDefinition.assign(module.values.size(), 0);
    t.beforeDefinition.assign(module.values.size(), 0);
    t.throughBlock.assign(blocks.size(), 0);
    t.atBlockEnd.assign(blocks.size(), 0);
    nesting = FindNesting(module);
  };
  // A reduction's linear temporaries (see the header).
  auto reduction = [&](ir::BlockId b, ir::ValueId result, uint32_t components) {
    start();
    t.most = std::max(t.most, components);
    t.atDefinition[result] = std::max(t.atDefinition[result], components);
    const ir::BlockId header = nesting.outerHeader[b];
    if (header == ir::kNone) return;
    t.atBlockEnd[header] = std::max(t.atBlockEnd[header], components);
    const bool loop = nesting.inLoop[b] != 0;
    const ir::BlockId end = loop ? std::min<ir::BlockId>(nesting.outerMerge[b], blocks.size()) : b;
    for (ir::BlockId k = header + 1; k < end; ++k) t.throughBlock[k] = std::max(t.throughBlock[k], components);
    if (!loop) t.beforeDefinition[result] = std::max(t.beforeDefinition[result], components);
  };
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    for (const ir::Instruction& inst : blocks[b].instructions) {
      if (inst.result == ir::kNone) continue;
      auto operands = module.Operands(inst);
      if (IsArithmeticReduction(inst.op) && inst.valueCount >= 2) {
        const ir::ValueId value = operands[1];
        if (uniformity.IsUniform(value)) continue;  // NIR folds a uniform operand's reduction
        const uint32_t size = analysis::RegisterComponents(module, module.values[value].type);
        reduction(b, inst.result, CrossesRows(module, inst) ? 2 * size : size);
      } else if (IsReducibleAtomic(inst.op) && inst.valueCount >= 4) {
        const ir::ValueId pointer = operands[0], value = operands[3];
        if (!uniformity.IsUniform(pointer) || uniformity.IsUniform(value)) continue;
        reduction(b, inst.result, 2 * analysis::RegisterComponents(module, module.values[value].type));
      } else if ((inst.op == spv::OpUDiv || inst.op == spv::OpUMod || inst.op == spv::OpSDiv ||
                  inst.op == spv::OpSRem || inst.op == spv::OpSMod) &&
                 inst.valueCount >= 2) {
        if (uniformity.IsUniform(inst.result)) continue;
        const ir::Value& divisor = module.values[operands[1]];
        if (divisor.kind == ir::ValueKind::Constant) continue;  // multiplied by a magic number instead
        const ir::Type& type = module.types[inst.type];
        const ir::Type& scalar = type.kind == ir::TypeKind::Vector ? module.types[type.element] : type;
        if (scalar.width != 32) continue;  // 64-bit division is a different sequence
        start();
        t.atDefinition[inst.result] = inst.op == spv::OpUDiv || inst.op == spv::OpUMod ? 3 : 4;
        t.most = std::max(t.most, t.atDefinition[inst.result]);
      }
    }
  return t;
}

}  // namespace crashtest::statistics
