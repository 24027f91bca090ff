#include "statistics/instruction_class.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "pipeline/analysis/liveness.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::statistics {
namespace {

using spirv::OpClass;

// GLSL.std.450 functions that a GPU evaluates with its transcendental (special function) unit.
bool IsTranscendental(uint32_t glslInstruction) {
  switch (glslInstruction) {
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin: case GLSLstd450Acos:
    case GLSLstd450Atan: case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: case GLSLstd450Asinh:
    case GLSLstd450Acosh: case GLSLstd450Atanh: case GLSLstd450Atan2: case GLSLstd450Pow: case GLSLstd450Exp:
    case GLSLstd450Log: case GLSLstd450Exp2: case GLSLstd450Log2: case GLSLstd450Sqrt:
    case GLSLstd450InverseSqrt: case GLSLstd450Length: case GLSLstd450Distance: case GLSLstd450Normalize:
    case GLSLstd450Refract: case GLSLstd450MatrixInverse: case GLSLstd450Determinant:
      return true;
    default:
      return false;
  }
}

// kNoStorageClass when the operand is not a pointer.
constexpr uint32_t kNoStorageClass = ir::kNone;

uint32_t PointerStorageClass(const ir::Module& module, ir::ValueId pointer) {
  const ir::Type& type = module.TypeOf(pointer);
  return type.kind == ir::TypeKind::Pointer ? type.storageClass : kNoStorageClass;
}

// Where a load or store goes decides its price: workgroup memory is on-chip, varyings and push constants are
// already in registers, everything else goes through the memory hierarchy.
LatencyKind MemoryLatency(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassWorkgroup: return LatencyKind::Shared;
    case spv::StorageClassInput: case spv::StorageClassOutput: case spv::StorageClassPushConstant:
      return LatencyKind::Alu;
    default: return LatencyKind::Memory;
  }
}

uint32_t Components(const ir::Module& module, ir::TypeId type) {
  return std::max<uint32_t>(1, analysis::RegisterComponents(module, type));
}

InstructionCost Alu(uint32_t issues, LatencyKind latency = LatencyKind::Alu) {
  return {InstructionClass::Alu, latency, std::max<uint32_t>(1, issues)};
}

InstructionCost ControlFlow(const ir::Instruction& inst) {
  switch (inst.op) {
    case spv::OpPhi: return Alu(1, LatencyKind::Free);  // becomes register copies on the incoming edges
    case spv::OpBranchConditional: case spv::OpSwitch: case spv::OpKill: case spv::OpTerminateInvocation:
    case spv::OpDemoteToHelperInvocation:
      return {InstructionClass::ControlFlow, LatencyKind::Branch, 1};
    default:  // OpBranch (a fall-through after block layout), OpReturn, OpUnreachable
      return {InstructionClass::ControlFlow, LatencyKind::Free, 1};
  }
}

InstructionCost Memory(const ir::Module& module, const ir::Instruction& inst) {
  auto operands = module.Operands(inst);
  switch (inst.op) {
    case spv::OpLoad: case spv::OpStore: case spv::OpCopyMemory:
      return {InstructionClass::Memory, MemoryLatency(PointerStorageClass(module, operands[0])), 1};
    case spv::OpVariable: return {InstructionClass::Memory, LatencyKind::Free, 1};
    case spv::OpCopyObject: return Alu(1, LatencyKind::Free);
    default:  // access chains, array length, texel pointers: address arithmetic
      return Alu(1);
  }
}

InstructionCost Arithmetic(const ir::Module& module, const ir::Instruction& inst) {
  auto operands = module.Operands(inst);
  switch (inst.op) {
    case spv::OpFDiv: case spv::OpFRem: case spv::OpFMod:  // reciprocal on the special function unit
      return Alu(Components(module, inst.type), LatencyKind::Transcendental);
    case spv::OpDot: return Alu(Components(module, module.values[operands[0]].type));
    case spv::OpMatrixTimesVector: case spv::OpVectorTimesMatrix: case spv::OpMatrixTimesMatrix:
    case spv::OpOuterProduct: {
      // One multiply-add per result component and inner-dimension element.
      uint32_t inner = inst.op == spv::OpOuterProduct ? 1 : module.TypeOf(operands[0]).count;
      return Alu(Components(module, inst.type) * std::max<uint32_t>(1, inner));
    }
    default: return Alu(Components(module, inst.type));
  }
}

InstructionCost Image(const ir::Instruction& inst) {
  switch (inst.op) {
    case spv::OpSampledImage: case spv::OpImage:  // descriptor bookkeeping
      return Alu(1, LatencyKind::Free);
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize: case spv::OpImageQueryLod:
    case spv::OpImageQueryLevels: case spv::OpImageQuerySamples: case spv::OpImageQueryFormat:
    case spv::OpImageQueryOrder:
      return {InstructionClass::Texture, LatencyKind::Alu, 1};
    default: return {InstructionClass::Texture, LatencyKind::Texture, 1};
  }
}

}  // namespace

InstructionCost ClassifyInstruction(const ir::Module& module, const ir::Instruction& inst) {
  auto operands = module.Operands(inst);
  switch (spirv::OpcodeClass(inst.op)) {
    case OpClass::Arithmetic: return Arithmetic(module, inst);
    case OpClass::Conversion: return Alu(Components(module, inst.type));
    case OpClass::Composite: return Alu(1, LatencyKind::Free);  // register renaming after selection
    case OpClass::Memory: return Memory(module, inst);
    case OpClass::Image: return Image(inst);
    case OpClass::Atomic: {
      uint32_t storage = inst.valueCount > 0 ? PointerStorageClass(module, operands[0]) : kNoStorageClass;
      return {InstructionClass::BarrierAtomic,
              storage == spv::StorageClassWorkgroup ? LatencyKind::Shared : LatencyKind::Atomic, 1};
    }
    case OpClass::Barrier: return {InstructionClass::BarrierAtomic, LatencyKind::Barrier, 1};
    case OpClass::ControlFlow: return ControlFlow(inst);
    case OpClass::Derivative: case OpClass::Subgroup: return Alu(Components(module, inst.type));
    case OpClass::Primitive: return {InstructionClass::Memory, LatencyKind::Memory, 1};  // vertex export
    case OpClass::ExtInst: {
      bool special = inst.operandCount > inst.valueCount && IsTranscendental(operands[inst.valueCount]);
      return Alu(Components(module, inst.type), special ? LatencyKind::Transcendental : LatencyKind::Alu);
    }
    case OpClass::Other: break;
  }
  if (inst.op == spv::OpSelect) return Alu(Components(module, inst.type));
  return Alu(1);
}

uint32_t LatencyOf(const LatencyTable& table, LatencyKind kind) {
  switch (kind) {
    case LatencyKind::Free: return 0;
    case LatencyKind::Alu: return table.alu;
    case LatencyKind::Transcendental: return table.transcendental;
    case LatencyKind::Memory: return table.memory;
    case LatencyKind::Shared: return table.shared;
    case LatencyKind::Texture: return table.texture;
    case LatencyKind::Branch: return table.branch;
    case LatencyKind::Barrier: return table.barrier;
    case LatencyKind::Atomic: return table.atomic;
  }
  return 0;
}

const char* InstructionClassName(InstructionClass cls) {
  switch (cls) {
    case InstructionClass::Alu: return "ALU";
    case InstructionClass::Memory: return "memory";
    case InstructionClass::Texture: return "texture";
    case InstructionClass::ControlFlow: return "control flow";
    case InstructionClass::BarrierAtomic: return "barrier/atomic";
  }
  return "?";
}

}  // namespace crashtest::statistics
