// Extended instructions (GLSL.std.450), atomics and subgroup operations.
#include "execution/executable_builder_internal.h"

#include <spirv/unified1/spirv.hpp>

#include "execution/lane_wise_ops.h"
#include "execution/ops/ops.h"

namespace crashtest::execution::builder {

bool Builder::EmitExtInst(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  const uint32_t ext = operands[inst.valueCount];
  if (ext == 59 || ext == 65) {  // PackDouble2x32, UnpackDouble2x32: the same two words either way
    Emit(&ops::Copy, slot_[inst.result], slot_[values[0]], 0, 0, 2, 0);
    return true;
  }
  if (ext == 76 || ext == 77 || ext == 78) return EmitInterpolateAt(inst, values, ext);
  Scalar kind = Scalar::F32;
  if (!values.empty()) layout_.ScalarOf(m_.values[values[0]].type, &kind);
  OpHandler fn = ops::Glsl(ext, kind, static_cast<uint32_t>(values.size()));
  if (fn == nullptr) return Fail(inst, "an unsupported GLSL.std.450 instruction or operand type in");
  const uint32_t dst = slot_[inst.result];
  auto slot = [&](size_t k) { return k < values.size() ? slot_[values[k]] : 0; };
  const uint32_t argumentComponents = values.empty() ? 1 : layout_.Components(m_.values[values[0]].type);
  if (IsComponentwiseGlsl(ext)) {
    Emit(fn, dst, slot(0), slot(1), slot(2), layout_.Components(inst.type), 0);
    return true;
  }
  switch (ext) {
    case 66: case 67: case 68: case 69: case 70: case 71: case 72:  // Length .. Refract
      Emit(fn, dst, slot(0), slot(1), slot(2), ext, argumentComponents);
      return true;
    case 33: case 34: {  // Determinant, MatrixInverse
      const ir::Type& matrix = TypeOf(values[0]);
      if (matrix.count > 4) return Fail(inst, "a matrix larger than 4x4 in");
      Emit(fn, dst, slot(0), 0, 0, ext, matrix.count);
      return true;
    }
    case 36: case 52:  // ModfStruct, FrexpStruct
      Emit(fn, dst, slot(0), 0, 0, argumentComponents, ext);
      return true;
    case 54: case 55: case 56: case 57: case 58: case 60: case 61: case 62: case 63: case 64:  // pack, unpack
      Emit(fn, dst, slot(0), 0, 0, 1, ext);
      return true;
    case 35: case 51: {  // Modf, Frexp: the second result goes through a pointer to private memory
      if (!IsPrivateMemory(StorageClassOf(values[1])) || StorageClassOf(values[1]) == spv::StorageClassInput)
        return Fail(inst, "Modf/Frexp writing outside private memory in");
      Emit(fn, dst, slot(0), slot(1), 0, argumentComponents, ext);
      return true;
    }
    default:
      return Fail(inst, "an unsupported GLSL.std.450 instruction in");
  }
}

bool Builder::EmitAtomic(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  const ir::ValueId pointer = values[0];
  const uint32_t storageClass = StorageClassOf(pointer);
  Scalar kind = Scalar::U32;
  layout_.ScalarOf(TypeOf(pointer).element, &kind);
  // The operation decides signedness, not the pointee's type.
  auto signedness = [&](bool isSigned) {
    switch (kind) {
      case Scalar::U32: case Scalar::S32: kind = isSigned ? Scalar::S32 : Scalar::U32; break;
      case Scalar::U64: case Scalar::S64: kind = isSigned ? Scalar::S64 : Scalar::U64; break;
      default: break;
    }
  };
  if (inst.op == spv::OpAtomicSMin || inst.op == spv::OpAtomicSMax) signedness(true);
  if (inst.op == spv::OpAtomicUMin || inst.op == spv::OpAtomicUMax) signedness(false);
  OpHandler fn = ops::Atomic(inst.op, storageClass, kind);
  if (fn == nullptr) return Fail(inst, "an atomic on this storage class or type:");
  uint32_t value = 0, comparator = 0;
  switch (inst.op) {
    case spv::OpAtomicLoad: case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement: break;
    case spv::OpAtomicStore: value = slot_[values[3]]; break;
    case spv::OpAtomicCompareExchange: value = slot_[values[4]]; comparator = slot_[values[5]]; break;
    default: value = slot_[values[3]]; break;
  }
  const uint32_t dst = inst.result != kNone ? slot_[inst.result] : zeroSlot_;
  Emit(fn, dst, slot_[pointer], value, comparator, 1, 0);
  return true;
}

bool Builder::EmitSubgroup(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  auto literals = operands.subspan(inst.valueCount);
  const ir::Value& scope = m_.values[values[0]];
  if (scope.kind != ir::ValueKind::Constant || m_.constants[scope.owner].bits != spv::ScopeSubgroup)
    return Fail(inst, "a non-uniform group operation whose scope is not Subgroup:");
  x_.usesSubgroupOps = true;
  const uint32_t groupOperation = literals.empty() ? 0 : literals[0];
  Scalar kind = Scalar::U32;
  if (values.size() > 1) layout_.ScalarOf(m_.values[values[1]].type, &kind);
  OpHandler fn = ops::Subgroup(inst.op, groupOperation, kind);
  if (fn == nullptr) return Fail(inst, "an unsupported operand type for");
  const uint32_t dst = slot_[inst.result];
  auto slot = [&](size_t k) { return k < values.size() ? slot_[values[k]] : 0; };
  const uint32_t slots = values.size() > 1 ? layout_.Slots(m_.values[values[1]].type) : 0;
  switch (inst.op) {
    case spv::OpGroupNonUniformElect:
      Emit(fn, dst, 0, 0, 0, 0, 0);
      return true;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny:
      Emit(fn, dst, slot(1), 0, 0, 1, inst.op == spv::OpGroupNonUniformAll ? 1 : 0);
      return true;
    case spv::OpGroupNonUniformBallotFindLSB: case spv::OpGroupNonUniformBallotFindMSB:
      Emit(fn, dst, slot(1), 0, 0, 1, inst.op == spv::OpGroupNonUniformBallotFindMSB ? 1 : 0);
      return true;
    case spv::OpGroupNonUniformBallotBitCount:
      Emit(fn, dst, slot(1), 0, 0, 1, groupOperation);
      return true;
    case spv::OpGroupNonUniformIAdd: case spv::OpGroupNonUniformFAdd: case spv::OpGroupNonUniformIMul:
    case spv::OpGroupNonUniformFMul: case spv::OpGroupNonUniformSMin: case spv::OpGroupNonUniformUMin:
    case spv::OpGroupNonUniformFMin: case spv::OpGroupNonUniformSMax: case spv::OpGroupNonUniformUMax:
    case spv::OpGroupNonUniformFMax: case spv::OpGroupNonUniformBitwiseAnd: case spv::OpGroupNonUniformBitwiseOr:
    case spv::OpGroupNonUniformBitwiseXor: case spv::OpGroupNonUniformLogicalAnd:
    case spv::OpGroupNonUniformLogicalOr: case spv::OpGroupNonUniformLogicalXor: {
      uint32_t cluster = 0;
      if (groupOperation == spv::GroupOperationClusteredReduce) {
        const ir::Value& size = m_.values[values[2]];
        if (size.kind != ir::ValueKind::Constant) return Fail(inst, "a cluster size that is not a constant in");
        cluster = static_cast<uint32_t>(m_.constants[size.owner].bits);
      } else if (groupOperation > spv::GroupOperationExclusiveScan) {
        return Fail(inst, "a group operation other than reduce, scans and clustered reduce in");
      }
      Emit(fn, dst, slot(1), 0, cluster, layout_.Components(m_.values[values[1]].type), groupOperation);
      return true;
    }
    default:  // value (n slots), optional second operand
      Emit(fn, dst, slot(1), slot(2), 0, slots, 0);
      return true;
  }
}

// SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (VK_EXT_shader_subgroup_ballot / _vote): the same operations as
// the Subgroup-scoped non-uniform instructions, without the scope operand. OpSubgroupReadInvocationKHR's index "must
// be dynamically uniform"; it reads like a shuffle, which gives the same value when it is.
bool Builder::EmitSubgroupKhr(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  if (values.empty() || inst.result == kNone) return Fail(inst, "a malformed");
  uint32_t op = 0;
  switch (static_cast<spv::Op>(inst.op)) {
    case spv::OpSubgroupBallotKHR: op = spv::OpGroupNonUniformBallot; break;
    case spv::OpSubgroupFirstInvocationKHR: op = spv::OpGroupNonUniformBroadcastFirst; break;
    case spv::OpSubgroupReadInvocationKHR: op = spv::OpGroupNonUniformShuffle; break;
    case spv::OpSubgroupAllKHR: op = spv::OpGroupNonUniformAll; break;
    case spv::OpSubgroupAnyKHR: op = spv::OpGroupNonUniformAny; break;
    default: op = spv::OpGroupNonUniformAllEqual; break;
  }
  x_.usesSubgroupOps = true;
  Scalar kind = Scalar::U32;
  layout_.ScalarOf(m_.values[values[0]].type, &kind);
  OpHandler fn = ops::Subgroup(op, 0, kind);
  if (fn == nullptr) return Fail(inst, "an unsupported operand type for");
  const uint32_t dst = slot_[inst.result];
  const uint32_t value = slot_[values[0]];
  if (op == spv::OpGroupNonUniformAll || op == spv::OpGroupNonUniformAny) {
    Emit(fn, dst, value, 0, 0, 1, op == spv::OpGroupNonUniformAll ? 1 : 0);
    return true;
  }
  const uint32_t index = values.size() > 1 ? slot_[values[1]] : 0;
  Emit(fn, dst, value, index, 0, layout_.Slots(m_.values[values[0]].type), 0);
  return true;
}

}  // namespace crashtest::execution::builder
