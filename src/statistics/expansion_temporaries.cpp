#include "statistics/expansion_temporaries.h"

#include <spirv/unified1/spirv.hpp>

#include "pipeline/analysis/liveness.h"

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

}  // namespace

std::vector<uint32_t> ExpansionTemporaries(const ir::Module& module, const analysis::Uniformity& uniformity) {
  std::vector<uint32_t> temporaries;
  auto set = [&](ir::ValueId result, uint32_t components) {
    if (temporaries.empty()) temporaries.assign(module.values.size(), 0);
    temporaries[result] = components;
  };
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.result == ir::kNone) continue;
      auto operands = module.Operands(inst);
      if (IsArithmeticReduction(inst.op) && inst.valueCount >= 2) {
        const ir::ValueId value = operands[1];
        if (uniformity.IsUniform(value)) continue;  // NIR folds a uniform operand's reduction
        const uint32_t size = analysis::RegisterComponents(module, module.values[value].type);
        set(inst.result, CrossesRows(module, inst) ? 2 * size : size);
      } else if (IsReducibleAtomic(inst.op) && inst.valueCount >= 4) {
        const ir::ValueId pointer = operands[0], value = operands[3];
        if (!uniformity.IsUniform(pointer) || uniformity.IsUniform(value)) continue;
        set(inst.result, 2 * analysis::RegisterComponents(module, module.values[value].type));
      } else if ((inst.op == spv::OpUDiv || inst.op == spv::OpUMod || inst.op == spv::OpSDiv ||
                  inst.op == spv::OpSRem || inst.op == spv::OpSMod) &&
                 inst.valueCount >= 2) {
        if (uniformity.IsUniform(inst.result)) continue;
        const ir::Value& divisor = module.values[operands[1]];
        if (divisor.kind == ir::ValueKind::Constant) continue;  // multiplied by a magic number instead
        const ir::Type& type = module.types[inst.type];
        const ir::Type& scalar = type.kind == ir::TypeKind::Vector ? module.types[type.element] : type;
        if (scalar.width != 32) continue;  // 64-bit division is a different sequence
        set(inst.result, inst.op == spv::OpUDiv || inst.op == spv::OpUMod ? 3 : 4);
      }
    }
  return temporaries;
}

}  // namespace crashtest::statistics
