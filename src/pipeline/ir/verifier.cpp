#include "pipeline/ir/verifier.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "pipeline/analysis/dominators.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::ir {

namespace {

bool IsTerminator(uint16_t op) {
  switch (op) {
    case spv::OpBranch: case spv::OpBranchConditional: case spv::OpSwitch: case spv::OpReturn:
    case spv::OpReturnValue: case spv::OpKill: case spv::OpTerminateInvocation: case spv::OpUnreachable:
    case spv::OpIgnoreIntersectionKHR: case spv::OpTerminateRayKHR: case spv::OpEmitMeshTasksEXT:
      return true;
    default: return false;
  }
}

class Verifier {
 public:
  Verifier(const Module& module, std::string* message)
      : m_(module), message_(message), dom_(analysis::DominatorTree::Build(module.function)) {}

  bool Run();

 private:
  bool Fail(BlockId block, uint32_t index, const char* format, ...) __attribute__((format(printf, 4, 5)));
  bool CheckBlock(BlockId b);
  bool CheckOperandsDominate(BlockId b, uint32_t index, const Instruction& inst);
  bool CheckTypes(BlockId b, uint32_t index, const Instruction& inst);
  const Type* ValueType(ValueId v) const {
    TypeId t = m_.values[v].type;
    return t < m_.types.size() ? &m_.types[t] : nullptr;
  }
  // Component type of a scalar or vector (the type itself for a scalar).
  const Type& Scalar(const Type& type) const {
    return type.kind == TypeKind::Vector ? m_.types[type.element] : type;
  }
  bool SameShape(const Type& a, const Type& b) const {
    if (&a == &b) return true;
    uint32_t countA = a.kind == TypeKind::Vector ? a.count : 1, countB = b.kind == TypeKind::Vector ? b.count : 1;
    const Type& sa = Scalar(a);
    const Type& sb = Scalar(b);
    return countA == countB && sa.kind == sb.kind && sa.width == sb.width;
  }

  const Module& m_;
  std::string* message_;
  analysis::DominatorTree dom_;
};

bool Verifier::Fail(BlockId block, uint32_t index, const char* format, ...) {
  char detail[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(detail, sizeof detail, format, args);
  va_end(args);
  char text[400];
  if (index != kNone) {
    const Instruction& inst = m_.function.blocks[block].instructions[index];
    std::snprintf(text, sizeof text, "IR verifier: block %u (label %%%u), instruction %u (%s): %s", block,
                  m_.function.blocks[block].spirvId, index, spirv::OpcodeName(inst.op), detail);
  } else {
    std::snprintf(text, sizeof text, "IR verifier: block %u: %s", block, detail);
  }
  *message_ = text;
  return false;
}

bool Verifier::Run() {
  if (m_.function.blocks.empty()) {
    *message_ = "IR verifier: the entry point has no blocks";
    return false;
  }
  for (BlockId b = 0; b < m_.function.blocks.size(); ++b)
    if (!CheckBlock(b)) return false;
  return true;
}

bool Verifier::CheckBlock(BlockId b) {
  const Block& block = m_.function.blocks[b];
  size_t blockCount = m_.function.blocks.size();
  if (block.instructions.empty() || !IsTerminator(block.instructions.back().op))
    return Fail(b, kNone, "does not end with a terminator");
  for (BlockId s : block.successors)
    if (s >= blockCount) return Fail(b, kNone, "successor %u does not exist", s);
  if (block.mergeBlock != kNone && block.mergeBlock >= blockCount) return Fail(b, kNone, "merge block out of range");
  if (block.continueTarget != kNone && block.continueTarget >= blockCount)
    return Fail(b, kNone, "continue target out of range");
  bool phisDone = false;
  for (uint32_t i = 0; i < block.instructions.size(); ++i) {
    const Instruction& inst = block.instructions[i];
    if (i + 1 < block.instructions.size() && IsTerminator(inst.op)) return Fail(b, i, "terminator before the end");
    if (inst.op == spv::OpPhi && phisDone) return Fail(b, i, "phi after a non-phi instruction");
    if (inst.op != spv::OpPhi) phisDone = true;
    if (uint64_t{inst.firstOperand} + inst.operandCount > m_.function.operands.size())
      return Fail(b, i, "operands outside the operand pool");
    if (inst.result != kNone) {
      if (inst.result >= m_.values.size()) return Fail(b, i, "result %u out of range", inst.result);
      const Value& value = m_.values[inst.result];
      if (value.kind != ValueKind::Instruction || value.owner != b || value.index != i)
        return Fail(b, i, "value %u does not point back at its definition", inst.result);
      if (inst.type == kNone || inst.type >= m_.types.size() || value.type != inst.type)
        return Fail(b, i, "result type missing or inconsistent");
    }
    auto operands = m_.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k)
      if (operands[k] >= m_.values.size() || m_.values[operands[k]].type >= m_.types.size())
        return Fail(b, i, "operand %u names value %u, which does not exist or has no type", k, operands[k]);
    if (!CheckOperandsDominate(b, i, inst) || !CheckTypes(b, i, inst)) return false;
  }
  return true;
}

// "Each use of an SSA value must be dominated by its definition; a phi's operand by the end of the matching
// parent block" (SPIR-V 1.6, 2.16.1 Universal Validation Rules, "Validation Rules for Shader Capabilities").
bool Verifier::CheckOperandsDominate(BlockId b, uint32_t index, const Instruction& inst) {
  if (!dom_.IsReachable(b)) return true;  // unreachable blocks may use anything SPIR-V allows
  auto operands = m_.Operands(inst);
  const Block& block = m_.function.blocks[b];
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    const Value& value = m_.values[operands[k]];
    if (value.kind != ValueKind::Instruction) continue;
    if (value.owner == kNone) return Fail(b, index, "uses value %u, which has no definition", operands[k]);
    BlockId useBlock = b;
    if (inst.op == spv::OpPhi) {
      if (inst.valueCount * 2u != inst.operandCount) return Fail(b, index, "phi operands are not (value, block) pairs");
      useBlock = operands[inst.valueCount + k];
      if (std::find(block.predecessors.begin(), block.predecessors.end(), useBlock) == block.predecessors.end())
        return Fail(b, index, "phi names block %u, which is not a predecessor", useBlock);
      if (!dom_.IsReachable(useBlock)) continue;
      if (!dom_.Dominates(value.owner, useBlock))
        return Fail(b, index, "phi operand %%%u does not dominate the end of predecessor %u", value.spirvId, useBlock);
      continue;
    }
    if (value.owner == b ? value.index >= index : !dom_.Dominates(value.owner, useBlock))
      return Fail(b, index, "operand %%%u is not dominated by its definition", value.spirvId);
  }
  return true;
}

bool Verifier::CheckTypes(BlockId b, uint32_t index, const Instruction& inst) {
  auto operands = m_.Operands(inst);
  const Type* result = inst.type != kNone ? &m_.types[inst.type] : nullptr;
  auto operandType = [&](uint32_t k) -> const Type& { return *ValueType(operands[k]); };
  auto expectPointer = [&](uint32_t k) -> const Type* {
    if (k >= inst.valueCount || operandType(k).kind != TypeKind::Pointer) return nullptr;
    return &operandType(k);
  };
  switch (inst.op) {
    case spv::OpPhi:
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (m_.values[operands[k]].type != inst.type) return Fail(b, index, "phi operand %u has another type", k);
      return true;
    case spv::OpLoad: {
      const Type* pointer = expectPointer(0);
      if (pointer == nullptr) return Fail(b, index, "loads from a non-pointer");
      if (pointer->element != inst.type) return Fail(b, index, "result type is not the pointee type");
      return true;
    }
    case spv::OpStore: {
      const Type* pointer = expectPointer(0);
      if (pointer == nullptr || inst.valueCount < 2) return Fail(b, index, "stores through a non-pointer");
      if (pointer->element != m_.values[operands[1]].type) return Fail(b, index, "stored value is not the pointee type");
      return true;
    }
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: case spv::OpPtrAccessChain: {
      const Type* base = expectPointer(0);
      if (base == nullptr || result == nullptr || result->kind != TypeKind::Pointer)
        return Fail(b, index, "access chain needs a pointer base and result");
      if (base->storageClass != result->storageClass)
        return Fail(b, index, "access chain changes the storage class");
      return true;
    }
    case spv::OpBranchConditional:
      if (inst.valueCount < 1 || operandType(0).kind != TypeKind::Bool)
        return Fail(b, index, "condition is not a boolean");
      return true;
    case spv::OpSelect:
      if (inst.valueCount != 3 || Scalar(operandType(0)).kind != TypeKind::Bool)
        return Fail(b, index, "condition is not a boolean");
      if (m_.values[operands[1]].type != inst.type || m_.values[operands[2]].type != inst.type)
        return Fail(b, index, "selected values differ from the result type");
      return true;
    case spv::OpFAdd: case spv::OpFSub: case spv::OpFMul: case spv::OpFDiv: case spv::OpFRem: case spv::OpFMod:
    case spv::OpFNegate:
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (!SameShape(operandType(k), *result) || Scalar(*result).kind != TypeKind::Float)
          return Fail(b, index, "operand %u is not a float of the result's shape", k);
      return true;
    case spv::OpIAdd: case spv::OpISub: case spv::OpIMul: case spv::OpSDiv: case spv::OpUDiv: case spv::OpSRem:
    case spv::OpSMod: case spv::OpUMod: case spv::OpBitwiseAnd: case spv::OpBitwiseOr: case spv::OpBitwiseXor:
    case spv::OpSNegate: case spv::OpNot:
      // Signedness may differ between operands and result ("the signedness of the operands may differ").
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (!SameShape(operandType(k), *result) || Scalar(*result).kind != TypeKind::Int)
          return Fail(b, index, "operand %u is not an integer of the result's shape", k);
      return true;
    case spv::OpIEqual: case spv::OpINotEqual: case spv::OpSLessThan: case spv::OpULessThan:
    case spv::OpSLessThanEqual: case spv::OpULessThanEqual: case spv::OpSGreaterThan: case spv::OpUGreaterThan:
    case spv::OpSGreaterThanEqual: case spv::OpUGreaterThanEqual: case spv::OpFOrdLessThan:
    case spv::OpFOrdGreaterThan: case spv::OpFOrdEqual: case spv::OpFOrdNotEqual: case spv::OpFOrdLessThanEqual:
    case spv::OpFOrdGreaterThanEqual: case spv::OpFUnordLessThan: case spv::OpFUnordGreaterThan: {
      if (Scalar(*result).kind != TypeKind::Bool || inst.valueCount != 2)
        return Fail(b, index, "comparison does not produce booleans");
      uint32_t count = result->kind == TypeKind::Vector ? result->count : 1;
      for (uint32_t k = 0; k < 2; ++k) {
        const Type& t = operandType(k);
        if ((t.kind == TypeKind::Vector ? t.count : 1) != count || !SameShape(t, operandType(0)))
          return Fail(b, index, "compared operands differ in shape from each other or the result");
      }
      return true;
    }
    default: return true;
  }
}

}  // namespace

bool Verify(const Module& module, std::string* message) {
  Verifier verifier(module, message);
  return verifier.Run();
}

}  // namespace crashtest::ir
