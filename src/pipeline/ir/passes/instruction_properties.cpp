#include "pipeline/ir/passes/instruction_properties.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "pipeline/spirv_tables.h"

namespace crashtest::ir {

namespace {

// GLSL.std.450 instructions that are not functions of their operand values alone: modf/frexp write through a
// pointer; the interpolation functions read an Input variable at another position.
bool IsPureGlsl(uint32_t instruction) {
  switch (instruction) {
    case GLSLstd450Modf: case GLSLstd450Frexp: case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample: case GLSLstd450InterpolateAtOffset:
      return false;
    default: return true;
  }
}

uint32_t ExtInstNumber(const Module& module, const Instruction& inst) {
  // OpExtInst keeps its value operands first, then the instruction number (the set id is dropped by lowering).
  return inst.operandCount > inst.valueCount ? module.function.operands[inst.firstOperand + inst.valueCount] : kNone;
}

}  // namespace

bool IsPureInstruction(const Module& module, const Instruction& inst) {
  if (inst.result == kNone) return false;
  switch (inst.op) {
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain: case spv::OpArrayLength: case spv::OpPtrEqual: case spv::OpPtrNotEqual:
    case spv::OpPtrDiff:
      return true;
    case spv::OpExtInst: return IsPureGlsl(ExtInstNumber(module, inst));
    default: break;
  }
  switch (spirv::OpcodeClass(inst.op)) {
    case spirv::OpClass::Arithmetic: case spirv::OpClass::Conversion: case spirv::OpClass::Composite: return true;
    default: return false;
  }
}

bool IsRemovableIfUnused(const Module& module, const Instruction& inst) {
  if (inst.result == kNone) return false;
  if (IsPureInstruction(module, inst)) return true;
  switch (inst.op) {
    case spv::OpLoad: {
      // Memory operands follow the pointer; "Volatile" accesses must stay.
      if (inst.operandCount > inst.valueCount) {
        uint32_t mask = module.function.operands[inst.firstOperand + inst.valueCount];
        if (mask & spv::MemoryAccessVolatileMask) return false;
      }
      return true;
    }
    case spv::OpVariable: case spv::OpPhi: case spv::OpImageTexelPointer: case spv::OpIsHelperInvocationEXT:
    case spv::OpReadClockKHR: case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR:
    case spv::OpSubgroupAllKHR: case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR:
    case spv::OpSubgroupReadInvocationKHR:
      return true;
    case spv::OpExtInst: {
      uint32_t number = ExtInstNumber(module, inst);
      return number != GLSLstd450Modf && number != GLSLstd450Frexp;
    }
    default: break;
  }
  switch (spirv::OpcodeClass(inst.op)) {
    case spirv::OpClass::Image: case spirv::OpClass::Subgroup: case spirv::OpClass::Derivative: return true;
    default: return false;
  }
}

bool WritesUniformMemory(const Module& module) {
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) {
      if (inst.op == spv::OpLoad || inst.op == spv::OpAccessChain || inst.op == spv::OpInBoundsAccessChain ||
          inst.op == spv::OpPtrAccessChain || inst.op == spv::OpInBoundsPtrAccessChain)
        continue;
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        const Type& type = module.TypeOf(operands[k]);
        if (type.kind == TypeKind::Pointer && type.storageClass == spv::StorageClassUniform) return true;
      }
    }
  return false;
}

bool IsReadOnlyLoad(const Module& module, const Instruction& inst, bool uniformReadOnly) {
  if (inst.op != spv::OpLoad || inst.valueCount != 1 || inst.result == kNone) return false;
  if (inst.operandCount > inst.valueCount &&
      (module.function.operands[inst.firstOperand + inst.valueCount] & spv::MemoryAccessVolatileMask))
    return false;
  ValueId pointer = module.Operands(inst)[0];
  const Type& type = module.TypeOf(pointer);
  if (type.kind != TypeKind::Pointer) return false;
  const Value& value = module.values[pointer];
  if (value.kind == ValueKind::Global && value.owner != kNone &&
      module.globals[value.owner].builtIn == spv::BuiltInHelperInvocation)
    return false;
  switch (type.storageClass) {
    case spv::StorageClassPushConstant: case spv::StorageClassInput: case spv::StorageClassUniformConstant:
      return true;
    case spv::StorageClassUniform: return uniformReadOnly;
    default: return false;
  }
}

}  // namespace crashtest::ir
