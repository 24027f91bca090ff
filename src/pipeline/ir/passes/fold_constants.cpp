#include "pipeline/ir/passes/fold_constants.h"

#include <spirv/unified1/spirv.hpp>

#include <bit>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "pipeline/ir/passes/ir_editing.h"

namespace crashtest::ir {

namespace {

using Bits = std::optional<uint64_t>;

uint64_t Mask(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }
int64_t SignExtend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  uint32_t shift = 64 - width;
  return static_cast<int64_t>(bits << shift) >> shift;
}
int64_t MinSigned(uint32_t width) { return SignExtend(uint64_t{1} << (width - 1), width); }

// Host floats of a SPIR-V float's bits; only 32 and 64 bits are folded.
double ToDouble(uint64_t bits, uint32_t width) {
  if (width == 32) return std::bit_cast<float>(static_cast<uint32_t>(bits));
  return std::bit_cast<double>(bits);
}
uint64_t FromDouble(double value, uint32_t width) {
  if (width == 32) return std::bit_cast<uint32_t>(static_cast<float>(value));
  return std::bit_cast<uint64_t>(value);
}

// "Results are computed per component"; each lane is an integer binary operation at `width` bits.
Bits IntegerBinary(uint16_t op, uint64_t a, uint64_t b, uint32_t width) {
  uint64_t mask = Mask(width);
  int64_t sa = SignExtend(a, width), sb = SignExtend(b, width);
  switch (op) {
    case spv::OpIAdd: return (a + b) & mask;
    case spv::OpISub: return (a - b) & mask;
    case spv::OpIMul: return (a * b) & mask;
    // "Behavior is undefined if Operand 2 is 0" (and, signed, -1 with the minimum value: overflow).
    case spv::OpUDiv: if (b == 0) return {}; return (a / b) & mask;
    case spv::OpUMod: if (b == 0) return {}; return (a % b) & mask;
    case spv::OpSDiv: case spv::OpSRem: case spv::OpSMod: {
      if (sb == 0 || (sb == -1 && sa == MinSigned(width))) return {};
      if (op == spv::OpSDiv) return static_cast<uint64_t>(sa / sb) & mask;
      int64_t r = sa % sb;  // SRem: the sign of Operand 1, as C++
      if (op == spv::OpSMod && r != 0 && ((r < 0) != (sb < 0))) r += sb;  // SMod: the sign of Operand 2
      return static_cast<uint64_t>(r) & mask;
    }
    case spv::OpBitwiseAnd: return a & b;
    case spv::OpBitwiseOr: return a | b;
    case spv::OpBitwiseXor: return a ^ b;
    case spv::OpIEqual: return a == b;
    case spv::OpINotEqual: return a != b;
    case spv::OpULessThan: return a < b;
    case spv::OpULessThanEqual: return a <= b;
    case spv::OpUGreaterThan: return a > b;
    case spv::OpUGreaterThanEqual: return a >= b;
    case spv::OpSLessThan: return sa < sb;
    case spv::OpSLessThanEqual: return sa <= sb;
    case spv::OpSGreaterThan: return sa > sb;
    case spv::OpSGreaterThanEqual: return sa >= sb;
    case spv::OpLogicalAnd: return (a & b) & 1;
    case spv::OpLogicalOr: return (a | b) & 1;
    case spv::OpLogicalEqual: return a == b;
    case spv::OpLogicalNotEqual: return a != b;
    default: return {};
  }
}

// "The result is undefined if Shift is greater than or equal to the bit width of the components of Base."
Bits Shift(uint16_t op, uint64_t base, uint32_t width, uint64_t shift) {
  if (shift >= width) return {};
  switch (op) {
    case spv::OpShiftLeftLogical: return (base << shift) & Mask(width);
    case spv::OpShiftRightLogical: return (base & Mask(width)) >> shift;
    case spv::OpShiftRightArithmetic: return static_cast<uint64_t>(SignExtend(base, width) >> shift) & Mask(width);
    default: return {};
  }
}

Bits FloatBinary(uint16_t op, uint64_t a, uint64_t b, uint32_t width) {
  if (width != 32 && width != 64) return {};
  double x = ToDouble(a, width), y = ToDouble(b, width);
  bool unordered = std::isnan(x) || std::isnan(y);
  // Computed in the operand precision: float lanes in float, so rounding is binary32's.
  auto arithmetic = [&](auto xs, auto ys) -> Bits {
    using T = decltype(xs);
    T r;
    switch (op) {
      case spv::OpFAdd: r = xs + ys; break;
      case spv::OpFSub: r = xs - ys; break;
      case spv::OpFMul: r = xs * ys; break;
      case spv::OpFDiv:
        if (ys == 0) return {};  // division by zero: not folded (precision is undefined there in Vulkan)
        r = xs / ys;
        break;
      default: return {};
    }
    return FromDouble(static_cast<double>(r), width);
  };
  switch (op) {
    case spv::OpFAdd: case spv::OpFSub: case spv::OpFMul: case spv::OpFDiv:
      if (width == 32) return arithmetic(static_cast<float>(x), static_cast<float>(y));
      return arithmetic(x, y);
    case spv::OpFOrdEqual: return !unordered && x == y;
    case spv::OpFOrdNotEqual: return !unordered && x != y;
    case spv::OpFOrdLessThan: return !unordered && x < y;
    case spv::OpFOrdLessThanEqual: return !unordered && x <= y;
    case spv::OpFOrdGreaterThan: return !unordered && x > y;
    case spv::OpFOrdGreaterThanEqual: return !unordered && x >= y;
    case spv::OpFUnordEqual: return unordered || x == y;
    case spv::OpFUnordNotEqual: return unordered || x != y;
    case spv::OpFUnordLessThan: return unordered || x < y;
    case spv::OpFUnordLessThanEqual: return unordered || x <= y;
    case spv::OpFUnordGreaterThan: return unordered || x > y;
    case spv::OpFUnordGreaterThanEqual: return unordered || x >= y;
    default: return {};
  }
}

struct LaneTypes {
  const Type* in;   // component type of the first operand
  const Type* out;  // component type of the result
};

Bits Conversion(uint16_t op, uint64_t a, LaneTypes t) {
  uint32_t inWidth = t.in->width, outWidth = t.out->width;
  switch (op) {
    case spv::OpUConvert: return a & Mask(outWidth);
    case spv::OpSConvert: return static_cast<uint64_t>(SignExtend(a, inWidth)) & Mask(outWidth);
    case spv::OpConvertSToF: case spv::OpConvertUToF: {
      if (outWidth != 32 && outWidth != 64) return {};
      if (op == spv::OpConvertSToF) {
        int64_t v = SignExtend(a, inWidth);
        return outWidth == 32 ? std::bit_cast<uint32_t>(static_cast<float>(v)) : std::bit_cast<uint64_t>(static_cast<double>(v));
      }
      return outWidth == 32 ? std::bit_cast<uint32_t>(static_cast<float>(a)) : std::bit_cast<uint64_t>(static_cast<double>(a));
    }
    case spv::OpConvertFToU: case spv::OpConvertFToS: {
      if (inWidth != 32 && inWidth != 64) return {};
      double v = std::trunc(ToDouble(a, inWidth));
      // Out of range (or NaN): the result is undefined, so it is not folded.
      if (std::isnan(v)) return {};
      if (op == spv::OpConvertFToU) {
        if (v < 0 || v >= std::ldexp(1.0, static_cast<int>(outWidth))) return {};
        return static_cast<uint64_t>(v) & Mask(outWidth);
      }
      double limit = std::ldexp(1.0, static_cast<int>(outWidth) - 1);
      if (v < -limit || v >= limit) return {};
      return static_cast<uint64_t>(static_cast<int64_t>(v)) & Mask(outWidth);
    }
    case spv::OpFConvert:
      // Widening only: exact. Narrowing rounds in an implementation-defined way without FPRoundingMode.
      if (inWidth == 32 && outWidth == 64) return std::bit_cast<uint64_t>(static_cast<double>(ToDouble(a, 32)));
      return {};
    case spv::OpBitcast:
      if (inWidth != outWidth) return {};
      return a;
    default: return {};
  }
}

// Whether the entry point declares SignedZeroInfNanPreserve for floats of `width` bits (SPV_KHR_float_controls):
// then NaN, infinities and the sign of zero must be preserved, and no inexact identity holds.
bool PreservesSpecialValues(const Module& module, uint32_t width) {
  for (const std::vector<uint32_t>& mode : module.entryPoint.executionModes)
    if (mode.size() >= 2 && mode[0] == spv::ExecutionModeSignedZeroInfNanPreserve && mode[1] == width) return true;
  return false;
}

class Folder {
 public:
  Folder(Module& module, FoldOptions options) : m_(module), pool_(module), replacer_(module) {
    inexact_ = options.inexactFloatIdentities;
    if (inexact_)  // indexed by width / 32: 16-bit floats at 0 (their preservation is SignedZeroInfNanPreserve 16)
      for (uint32_t width : {16u, 32u, 64u}) preserves_[width / 32] = PreservesSpecialValues(module, width);
  }
  bool Run();

 private:
  // The value the instruction computes when it is known: a constant or an existing value; kNone otherwise.
  ValueId Fold(Instruction& inst);
  ValueId FoldLanes(const Instruction& inst);
  ValueId FoldIdentity(const Instruction& inst);
  ValueId FoldInexactIdentity(const Instruction& inst);
  ValueId FoldSelect(const Instruction& inst);
  ValueId FoldPhi(const Instruction& inst);
  ValueId FoldConstruct(const Instruction& inst);
  ValueId FoldReassembly(const Instruction& inst);
  bool Reassociate(Instruction& inst);
  ValueId FoldShuffle(const Instruction& inst);
  ValueId FoldExtract(Instruction& inst);
  ValueId FoldExtractDynamic(const Instruction& inst);

  const Instruction* Definition(ValueId v) const {
    const Value& value = m_.values[v];
    if (value.kind != ValueKind::Instruction || value.owner == kNone) return nullptr;
    return &m_.function.blocks[value.owner].instructions[value.index];
  }
  // Whether `v` is a constant whose every component has `bits`.
  bool IsSplat(ValueId v, uint64_t bits) const {
    uint32_t n = ComponentCount(m_, m_.values[v].type);
    for (uint32_t c = 0; c < n; ++c) {
      uint64_t lane;
      if (!ConstantBits(m_, v, c, &lane) || lane != bits) return false;
    }
    return true;
  }
  // Whether `v` is a constant whose every component has `bits` once the bits of `ignored` are cleared.
  bool IsSplatIgnoring(ValueId v, uint64_t bits, uint64_t ignored) const {
    uint32_t n = ComponentCount(m_, m_.values[v].type);
    for (uint32_t c = 0; c < n; ++c) {
      uint64_t lane;
      if (!ConstantBits(m_, v, c, &lane) || (lane & ~ignored) != bits) return false;
    }
    return true;
  }
  bool SameType(ValueId v, const Instruction& inst) const { return m_.values[v].type == inst.type; }
  const Type& ComponentOf(ValueId v) const { return m_.types[ComponentType(m_, m_.values[v].type)]; }
  ValueId AllOnes(TypeId type) {
    TypeId component = ComponentType(m_, type);
    const Type& laneType = m_.types[component];
    ValueId lane = pool_.Scalar(component, laneType.kind == TypeKind::Bool ? 1 : Mask(laneType.width));
    if (component == type) return lane;
    std::vector<ValueId> lanes(m_.types[type].count, lane);
    return pool_.Composite(type, lanes);
  }

  Module& m_;
  ConstantPool pool_;
  UseReplacer replacer_;
  std::vector<uint64_t> lanes_;
  bool changedInPlace_ = false;  // an extract now starts further along its path
  bool inexact_ = false;  // FoldOptions::inexactFloatIdentities
  bool preserves_[3] = {false, false, false};  // SignedZeroInfNanPreserve for 16, 32 and 64 bits
};

bool Folder::Run() {
  bool changed = false;
  for (Block& block : m_.function.blocks)
    for (Instruction& inst : block.instructions) {
      if (replacer_.ApplyTo(m_, inst)) changed = true;
      if (inst.result == kNone) continue;
      ValueId folded = Fold(inst);
      if (folded == kNone || folded == inst.result) continue;
      replacer_.Replace(inst.result, folded);
      MarkErased(m_, inst);
      changed = true;
    }
  if (!changed) return changedInPlace_;
  replacer_.ApplyToAll(m_);  // phi operands on back edges
  CompactInstructions(m_);
  return true;
}

ValueId Folder::Fold(Instruction& inst) {
  switch (inst.op) {
    case spv::OpPhi: return FoldPhi(inst);
    case spv::OpSelect: return FoldSelect(inst);
    case spv::OpCompositeConstruct: return FoldConstruct(inst);
    case spv::OpCompositeExtract: return FoldExtract(inst);
    case spv::OpVectorExtractDynamic: return FoldExtractDynamic(inst);
    case spv::OpVectorShuffle: return FoldShuffle(inst);
    case spv::OpCopyObject:
      return inst.valueCount == 1 && SameType(m_.Operands(inst)[0], inst) ? m_.Operands(inst)[0] : kNone;
    default: break;
  }
  ValueId folded = FoldLanes(inst);
  if (folded == kNone) folded = FoldIdentity(inst);
  if (folded == kNone && inexact_) folded = FoldInexactIdentity(inst);
  if (folded == kNone && Reassociate(inst)) changedInPlace_ = true;
  return folded;
}

// Integer chains with two constants become one instruction with one constant: (x + 16) - 1 is x + 15, (x * 4) * 2
// is x * 8. Exact: integer arithmetic wraps, so the order of additions (or multiplications) does not matter. The
// instruction is rewritten in place; the inner one stays for its other uses (DCE removes it otherwise).
bool Folder::Reassociate(Instruction& inst) {
  bool additive = inst.op == spv::OpIAdd || inst.op == spv::OpISub;
  if ((!additive && inst.op != spv::OpIMul) || inst.valueCount != 2 || inst.operandCount != 2) return false;
  if (m_.types[ComponentType(m_, inst.type)].kind != TypeKind::Int) return false;
  uint32_t* operands = m_.function.operands.data() + inst.firstOperand;
  bool constantRight = IsConstant(m_, operands[1]);
  if (constantRight == IsConstant(m_, operands[0])) return false;
  ValueId outerConstant = operands[constantRight ? 1 : 0];
  const Instruction* inner = Definition(operands[constantRight ? 0 : 1]);
  if (inner == nullptr || inner->valueCount != 2 || inner->operandCount != 2) return false;
  if (additive ? inner->op != spv::OpIAdd && inner->op != spv::OpISub : inner->op != spv::OpIMul) return false;
  auto innerOperands = m_.Operands(*inner);
  bool innerConstantRight = IsConstant(m_, innerOperands[1]);
  if (innerConstantRight == IsConstant(m_, innerOperands[0])) return false;
  ValueId x = innerOperands[innerConstantRight ? 0 : 1], innerConstant = innerOperands[innerConstantRight ? 1 : 0];
  if (ComponentCount(m_, m_.values[x].type) != ComponentCount(m_, inst.type)) return false;
  // inner = sign * x + k; the result is sign' * x + k'.
  bool innerNegatesX = inner->op == spv::OpISub && !innerConstantRight;                // k - x
  bool innerNegatesK = inner->op == spv::OpISub && innerConstantRight;                 // x - k
  bool outerNegatesInner = inst.op == spv::OpISub && !constantRight;                   // c - inner
  bool outerNegatesC = inst.op == spv::OpISub && constantRight;                        // inner - c
  uint32_t width = m_.types[ComponentType(m_, inst.type)].width;
  uint32_t lanes = ComponentCount(m_, inst.type);
  std::vector<ValueId> combined;
  TypeId laneType = ComponentType(m_, inst.type);
  for (uint32_t c = 0; c < lanes; ++c) {
    uint64_t k, outer;
    if (!ConstantBits(m_, innerConstant, c, &k) || !ConstantBits(m_, outerConstant, c, &outer)) return false;
    uint64_t lane;
    if (!additive) {
      lane = k * outer;
    } else {
      if (innerNegatesK) k = 0 - k;
      if (outerNegatesInner) k = 0 - k;
      lane = outerNegatesC ? k - outer : k + outer;
    }
    combined.push_back(pool_.Scalar(laneType, lane & Mask(width)));
  }
  ValueId constant = lanes == 1 && laneType == inst.type ? combined[0] : pool_.Composite(inst.type, combined);
  bool negativeX = additive && (innerNegatesX != outerNegatesInner);
  if (!additive) {
    inst.op = spv::OpIMul;
    operands[0] = x;
    operands[1] = constant;
  } else if (negativeX) {
    inst.op = spv::OpISub;  // k' - x
    operands[0] = constant;
    operands[1] = x;
  } else {
    inst.op = spv::OpIAdd;  // x + k'
    operands[0] = x;
    operands[1] = constant;
  }
  return true;
}

// Every lane of every operand is a constant: compute the result lane by lane.
ValueId Folder::FoldLanes(const Instruction& inst) {
  auto operands = m_.Operands(inst);
  uint32_t count = inst.valueCount;
  if (count == 0 || count > 2 || inst.operandCount != count) return kNone;
  for (uint32_t k = 0; k < count; ++k)
    if (!IsConstant(m_, operands[k])) return kNone;
  uint32_t lanes = ComponentCount(m_, inst.type);
  const Type& resultLane = m_.types[ComponentType(m_, inst.type)];
  const Type& firstLane = ComponentOf(operands[0]);
  if (ComponentCount(m_, m_.values[operands[0]].type) != lanes) return kNone;
  if (resultLane.kind != TypeKind::Bool && resultLane.kind != TypeKind::Int && resultLane.kind != TypeKind::Float)
    return kNone;
  lanes_.clear();
  for (uint32_t c = 0; c < lanes; ++c) {
    uint64_t a = 0, b = 0;
    if (!ConstantBits(m_, operands[0], c, &a)) return kNone;
    if (count == 2 && !ConstantBits(m_, operands[1], c, &b)) return kNone;
    Bits r;
    if (count == 2) {
      switch (inst.op) {
        case spv::OpShiftLeftLogical: case spv::OpShiftRightLogical: case spv::OpShiftRightArithmetic:
          r = Shift(inst.op, a, firstLane.width, b & Mask(ComponentOf(operands[1]).width));
          break;
        default:
          if (firstLane.kind == TypeKind::Float) r = FloatBinary(inst.op, a, b, firstLane.width);
          else if (firstLane.kind == TypeKind::Int || firstLane.kind == TypeKind::Bool)
            r = IntegerBinary(inst.op, a, b, firstLane.kind == TypeKind::Bool ? 1 : firstLane.width);
      }
    } else {
      switch (inst.op) {
        case spv::OpSNegate: r = (0 - a) & Mask(firstLane.width); break;
        case spv::OpNot: r = ~a & Mask(firstLane.width); break;
        case spv::OpLogicalNot: r = (a & 1) ^ 1; break;
        case spv::OpFNegate:  // exact for every width: the sign bit flips
          r = a ^ (uint64_t{1} << (firstLane.width - 1));
          break;
        default: r = Conversion(inst.op, a, {&firstLane, &resultLane});
      }
    }
    if (!r) return kNone;
    lanes_.push_back(*r);
  }
  TypeId laneType = ComponentType(m_, inst.type);
  if (lanes == 1 && laneType == inst.type) return pool_.Scalar(inst.type, lanes_[0]);
  std::vector<ValueId> constituents;
  constituents.reserve(lanes);
  for (uint64_t lane : lanes_) constituents.push_back(pool_.Scalar(laneType, lane));
  return pool_.Composite(inst.type, constituents);
}

// Identities that hold for every value of the other operand.
ValueId Folder::FoldIdentity(const Instruction& inst) {
  auto operands = m_.Operands(inst);
  if (inst.valueCount == 1 && inst.operandCount == 1) {
    // !!x, ~~x, -(-x) (exact for floats too: the sign bit flips twice)
    const Instruction* inner = Definition(operands[0]);
    bool involution = inst.op == spv::OpLogicalNot || inst.op == spv::OpNot || inst.op == spv::OpSNegate ||
                      inst.op == spv::OpFNegate;
    if (involution && inner != nullptr && inner->op == inst.op && inner->valueCount == 1) {
      ValueId x = m_.Operands(*inner)[0];
      if (SameType(x, inst)) return x;
    }
    return kNone;
  }
  if (inst.valueCount != 2 || inst.operandCount != 2) return kNone;
  ValueId a = operands[0], b = operands[1];
  const Type& lane = m_.types[ComponentType(m_, inst.type)];
  uint64_t ones = Mask(lane.width);
  auto keep = [&](ValueId x) { return SameType(x, inst) ? x : kNone; };
  switch (inst.op) {
    case spv::OpIAdd:
      if (IsSplat(b, 0)) return keep(a);
      if (IsSplat(a, 0)) return keep(b);
      return kNone;
    case spv::OpISub:
      return IsSplat(b, 0) ? keep(a) : kNone;
    case spv::OpIMul:
      if (IsSplat(b, 1)) return keep(a);
      if (IsSplat(a, 1)) return keep(b);
      if (IsSplat(a, 0) || IsSplat(b, 0)) return pool_.Zero(inst.type);
      return kNone;
    case spv::OpUDiv: case spv::OpSDiv:
      return IsSplat(b, 1) ? keep(a) : kNone;
    case spv::OpBitwiseAnd:
      if (IsSplat(a, 0) || IsSplat(b, 0)) return pool_.Zero(inst.type);
      if (IsSplat(b, ones)) return keep(a);
      if (IsSplat(a, ones)) return keep(b);
      if (a == b) return keep(a);
      return kNone;
    case spv::OpBitwiseOr:
      if (IsSplat(b, 0)) return keep(a);
      if (IsSplat(a, 0)) return keep(b);
      if (IsSplat(a, ones) || IsSplat(b, ones)) return AllOnes(inst.type);
      if (a == b) return keep(a);
      return kNone;
    case spv::OpBitwiseXor:
      if (IsSplat(b, 0)) return keep(a);
      if (IsSplat(a, 0)) return keep(b);
      return kNone;
    case spv::OpShiftLeftLogical: case spv::OpShiftRightLogical: case spv::OpShiftRightArithmetic:
      return IsSplat(b, 0) ? keep(a) : kNone;
    case spv::OpLogicalAnd:
      if (IsSplat(b, 1)) return keep(a);
      if (IsSplat(a, 1)) return keep(b);
      if (IsSplat(a, 0) || IsSplat(b, 0)) return pool_.Zero(inst.type);
      if (a == b) return keep(a);
      return kNone;
    case spv::OpLogicalOr:
      if (IsSplat(b, 0)) return keep(a);
      if (IsSplat(a, 0)) return keep(b);
      if (IsSplat(a, 1) || IsSplat(b, 1)) return AllOnes(inst.type);
      if (a == b) return keep(a);
      return kNone;
    case spv::OpFMul: case spv::OpFDiv: {
      if (lane.width != 32 && lane.width != 64) return kNone;
      uint64_t one = FromDouble(1.0, lane.width);
      if (IsSplat(b, one)) return keep(a);
      if (inst.op == spv::OpFMul && IsSplat(a, one)) return keep(b);
      return kNone;
    }
    case spv::OpFSub:  // x - (+0) == x for every x, -0 included
      return IsSplat(b, 0) ? keep(a) : kNone;
    case spv::OpFAdd: {  // x + (-0) == x for every x; x + (+0) is +0 for x = -0
      uint64_t negativeZero = uint64_t{1} << (lane.width - 1);
      if (IsSplat(b, negativeZero)) return keep(a);
      if (IsSplat(a, negativeZero)) return keep(b);
      return kNone;
    }
    default: return kNone;
  }
}

ValueId Folder::FoldInexactIdentity(const Instruction& inst) {
  if (inst.valueCount != 2 || inst.operandCount != 2) return kNone;
  if (inst.op != spv::OpFMul && inst.op != spv::OpFAdd && inst.op != spv::OpFSub) return kNone;
  const uint32_t width = m_.types[ComponentType(m_, inst.type)].width;
  if (width != 16 && width != 32 && width != 64) return kNone;
  if (preserves_[width / 32]) return kNone;
  const bool exact = m_.values[inst.result].exact;
  auto operands = m_.Operands(inst);
  const ValueId a = operands[0], b = operands[1];
  auto keep = [&](ValueId x) { return SameType(x, inst) ? x : kNone; };
  const uint64_t sign = uint64_t{1} << (width - 1);
  auto zero = [&](ValueId v) { return IsSplatIgnoring(v, 0, sign); };
  switch (inst.op) {
    case spv::OpFMul:  // `~fmul a 0.0 -> 0.0`, and for 16 and 32 bits even when exact
      return (!exact || width <= 32) && (zero(a) || zero(b)) ? pool_.Zero(inst.type) : kNone;
    case spv::OpFAdd:  // `~fadd a 0.0 -> a`
      if (exact) return kNone;
      if (zero(b)) return keep(a);
      return zero(a) ? keep(b) : kNone;
    default:  // `~fsub a 0.0 -> a`
      return !exact && zero(b) ? keep(a) : kNone;
  }
}

ValueId Folder::FoldSelect(const Instruction& inst) {
  if (inst.valueCount != 3) return kNone;
  auto operands = m_.Operands(inst);
  ValueId condition = operands[0], whenTrue = operands[1], whenFalse = operands[2];
  if (whenTrue == whenFalse) return whenTrue;
  if (IsSplat(condition, 1)) return whenTrue;
  if (IsSplat(condition, 0)) return whenFalse;
  // A vector condition with mixed constant lanes picks lanes of two constant vectors.
  uint32_t lanes = ComponentCount(m_, inst.type);
  if (lanes == 1 || ComponentCount(m_, m_.values[condition].type) != lanes || !IsConstant(m_, whenTrue) ||
      !IsConstant(m_, whenFalse))
    return kNone;
  std::vector<ValueId> picked;
  TypeId laneType = ComponentType(m_, inst.type);
  for (uint32_t c = 0; c < lanes; ++c) {
    uint64_t cond, lane;
    if (!ConstantBits(m_, condition, c, &cond) || !ConstantBits(m_, cond ? whenTrue : whenFalse, c, &lane))
      return kNone;
    picked.push_back(pool_.Scalar(laneType, lane));
  }
  return pool_.Composite(inst.type, picked);
}

// A phi whose incoming values are all one value (ignoring the phi itself, on back edges) is that value: the value
// then dominates every predecessor, hence the phi's block.
ValueId Folder::FoldPhi(const Instruction& inst) {
  auto operands = m_.Operands(inst);
  ValueId same = kNone;
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    ValueId v = replacer_.Resolve(operands[k]);
    if (v == inst.result || v == same) continue;
    if (same != kNone) return kNone;
    same = v;
  }
  return same;
}

// OpCompositeConstruct of the elements 0..n-1 of one composite of the same type, in order (what scalar
// replacement leaves when it rebuilds a whole value), is that composite.
ValueId Folder::FoldReassembly(const Instruction& inst) {
  auto operands = m_.Operands(inst);
  ValueId source = kNone;
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    const Instruction* def = Definition(operands[k]);
    if (def == nullptr || def->op != spv::OpCompositeExtract || def->operandCount != 2) return kNone;
    auto extract = m_.Operands(*def);
    if (extract[1] != k || (source != kNone && extract[0] != source)) return kNone;
    source = extract[0];
  }
  if (source == kNone || !SameType(source, inst)) return kNone;
  const Type& type = m_.types[inst.type];
  uint32_t elements = type.kind == TypeKind::Struct ? static_cast<uint32_t>(type.members.size()) : type.count;
  return elements == inst.valueCount ? source : kNone;
}

// A constant composite when every constituent is a constant; a vector's constituents may be vectors, whose lanes
// are spliced in ("for constructing a vector, the operands may also be vectors").
ValueId Folder::FoldConstruct(const Instruction& inst) {
  ValueId reassembled = FoldReassembly(inst);
  if (reassembled != kNone) return reassembled;
  auto operands = m_.Operands(inst);
  for (uint32_t k = 0; k < inst.valueCount; ++k)
    if (!IsConstant(m_, operands[k])) return kNone;
  const Type& type = m_.types[inst.type];
  if (type.kind != TypeKind::Vector) {
    std::vector<ValueId> constituents(operands.begin(), operands.begin() + inst.valueCount);
    return pool_.Composite(inst.type, constituents);
  }
  std::vector<ValueId> lanes;
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    ValueId v = operands[k];
    const Type& t = m_.TypeOf(v);
    if (t.kind != TypeKind::Vector) {
      lanes.push_back(v);
      continue;
    }
    for (uint32_t c = 0; c < t.count; ++c) {
      uint64_t bits;
      if (!ConstantBits(m_, v, c, &bits)) return kNone;
      lanes.push_back(pool_.Scalar(t.element, bits));
    }
  }
  if (lanes.size() != type.count) return kNone;
  return pool_.Composite(inst.type, lanes);
}

ValueId Folder::FoldShuffle(const Instruction& inst) {
  if (inst.valueCount != 2) return kNone;
  auto operands = m_.Operands(inst);
  uint32_t firstCount = ComponentCount(m_, m_.values[operands[0]].type);
  std::vector<ValueId> lanes;
  TypeId laneType = ComponentType(m_, inst.type);
  for (uint32_t k = 2; k < inst.operandCount; ++k) {
    uint32_t index = operands[k];
    if (index == 0xffffffffu) return kNone;  // "undefined" lane
    ValueId source = index < firstCount ? operands[0] : operands[1];
    uint64_t bits;
    if (!ConstantBits(m_, source, index < firstCount ? index : index - firstCount, &bits)) return kNone;
    lanes.push_back(pool_.Scalar(laneType, bits));
  }
  if (lanes.size() != ComponentCount(m_, inst.type)) return kNone;
  return lanes.size() == 1 ? lanes[0] : pool_.Composite(inst.type, lanes);
}

// Follows the extract's index path through constant composites, OpCompositeConstruct (one constituent per
// element) and OpCompositeInsert (an insert elsewhere is looked through; one at the path is its object). A path
// resolved only part of the way rewrites the extract to start from where it got to.
ValueId Folder::FoldExtract(Instruction& inst) {
  if (inst.valueCount != 1) return kNone;
  uint32_t* operands = m_.function.operands.data() + inst.firstOperand;
  ValueId current = operands[0];
  uint32_t* path = operands + 1;
  bool moved = false;
  uint32_t pathLength = inst.operandCount - 1u, k = 0;
  while (k < pathLength) {
    const Value& value = m_.values[current];
    if (value.kind == ValueKind::Constant) {
      if (!IsConstant(m_, current)) break;
      const Constant& constant = m_.constants[value.owner];
      if (constant.isNull) {
        current = pool_.Null(inst.type);  // every element of a null composite is null
        k = pathLength;
        break;
      }
      if (path[k] >= constant.constituents.size()) break;
      current = constant.constituents[path[k++]];
      continue;
    }
    const Instruction* def = Definition(current);
    if (def == nullptr) break;
    auto defOperands = m_.Operands(*def);
    if (def->op == spv::OpCompositeConstruct) {
      const Type& type = m_.types[def->type];
      uint32_t elements = type.kind == TypeKind::Vector ? type.count : def->valueCount;
      if (def->valueCount != elements || path[k] >= def->valueCount) break;  // vectors built from vectors
      current = defOperands[path[k++]];
      continue;
    }
    if (def->op == spv::OpCompositeInsert && def->valueCount == 2) {
      std::span<const uint32_t> insertPath = defOperands.subspan(2);
      size_t common = 0;
      while (common < insertPath.size() && k + common < pathLength && insertPath[common] == path[k + common]) ++common;
      if (common == insertPath.size()) {  // the extract reads (inside) the inserted object
        current = defOperands[0];
        k += static_cast<uint32_t>(common);
        continue;
      }
      if (k + common == pathLength) break;  // the extract reads a composite the insert changed part of
      current = defOperands[1];             // the insert changed another element
      continue;
    }
    if (def->op == spv::OpVectorShuffle && def->valueCount == 2 && path[k] + 2u < def->operandCount) {
      // Lane i of a shuffle is lane components[i] of the concatenation of its two vectors.
      uint32_t lane = defOperands[2 + path[k]];
      if (lane == 0xffffffffu) break;  // an undefined lane
      uint32_t firstCount = ComponentCount(m_, m_.values[defOperands[0]].type);
      current = lane < firstCount ? defOperands[0] : defOperands[1];
      path[k] = lane < firstCount ? lane : lane - firstCount;  // rewrites the extract's own index in place
      moved = true;
      continue;
    }
    if (def->op == spv::OpCopyObject && def->valueCount == 1) {
      current = defOperands[0];
      continue;
    }
    break;
  }
  if (k == pathLength) return SameType(current, inst) ? current : kNone;
  if (current == operands[0] && k == 0 && !moved) return kNone;
  // Partial progress: extract the rest of the path from where the walk stopped.
  operands[0] = current;
  for (uint32_t i = k; i < pathLength; ++i) operands[1 + i - k] = operands[1 + i];
  inst.operandCount = static_cast<uint16_t>(inst.operandCount - k);
  changedInPlace_ = true;
  return kNone;
}

ValueId Folder::FoldExtractDynamic(const Instruction& inst) {
  if (inst.valueCount != 2) return kNone;
  auto operands = m_.Operands(inst);
  uint64_t index;
  if (!ConstantBits(m_, operands[1], 0, &index)) return kNone;
  ValueId vector = operands[0];
  // "Behavior is undefined if Index's value is less than zero or greater than or equal to the number of
  // components in Vector."
  if (index >= ComponentCount(m_, m_.values[vector].type)) return kNone;
  uint64_t bits;
  if (ConstantBits(m_, vector, static_cast<uint32_t>(index), &bits)) return pool_.Scalar(inst.type, bits);
  const Instruction* def = Definition(vector);
  if (def != nullptr && def->op == spv::OpCompositeConstruct &&
      def->valueCount == ComponentCount(m_, def->type)) {
    ValueId lane = m_.Operands(*def)[index];
    return SameType(lane, inst) ? lane : kNone;
  }
  return kNone;
}

}  // namespace

bool FoldConstants(Module& module, FoldOptions options) {
  Folder folder(module, options);
  return folder.Run();
}

bool HasInexactFloatIdentities(const Module& module) {
  bool preserves[3] = {false, false, false};
  for (uint32_t width : {16u, 32u, 64u}) preserves[width / 32] = PreservesSpecialValues(module, width);
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) {
      if (inst.op != spv::OpFMul && inst.op != spv::OpFAdd && inst.op != spv::OpFSub) continue;
      if (inst.valueCount != 2) continue;
      const uint32_t width = module.types[ComponentType(module, inst.type)].width;
      if ((width != 16 && width != 32 && width != 64) || preserves[width / 32]) continue;
      if (module.values[inst.result].exact && (inst.op != spv::OpFMul || width == 64)) continue;
      const uint64_t magnitude = (uint64_t{1} << (width - 1)) - 1;
      auto operands = module.Operands(inst);
      for (uint32_t k = inst.op == spv::OpFSub ? 1 : 0; k < 2; ++k) {
        uint64_t bits;
        if (ConstantBits(module, operands[k], 0, &bits) && (bits & magnitude) == 0) return true;
      }
    }
  return false;
}

}  // namespace crashtest::ir
