#include "pipeline/frontend/spec_constant_freezer.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <unordered_map>

namespace crashtest::pipeline {

namespace {

constexpr size_t kHeaderWords = 5;

uint64_t Mask(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

int64_t SignExtend(uint64_t bits, uint32_t width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>(((bits & Mask(width)) ^ sign) - sign);
}

bool IsComparisonOrLogical(uint32_t opcode) {
  switch (opcode) {
    case spv::OpLogicalOr: case spv::OpLogicalAnd: case spv::OpLogicalNot: case spv::OpLogicalEqual:
    case spv::OpLogicalNotEqual: case spv::OpIEqual: case spv::OpINotEqual: case spv::OpULessThan:
    case spv::OpSLessThan: case spv::OpUGreaterThan: case spv::OpSGreaterThan: case spv::OpULessThanEqual:
    case spv::OpSLessThanEqual: case spv::OpUGreaterThanEqual: case spv::OpSGreaterThanEqual: return true;
    default: return false;
  }
}

// The signed division family: "Behavior is undefined if Operand 2 is 0. Behavior is undefined if Operand 2 is -1
// and Operand 1 is the minimum representable value for the operands' type, causing signed overflow."
bool SignedDivisionDefined(uint64_t a, uint64_t b, uint32_t width) {
  if ((b & Mask(width)) == 0) return false;
  bool minusOne = (b & Mask(width)) == Mask(width);
  bool minimum = (a & Mask(width)) == (uint64_t{1} << (width - 1));
  return !(minusOne && minimum);
}

// IEEE binary16 <-> binary32, round to nearest even (the host's default rounding, which FConvert uses).
uint32_t HalfToFloatBits(uint32_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return sign | 0x7f800000u | (mantissa << 13);  // inf, NaN
  if (exponent == 0) {
    if (mantissa == 0) return sign;
    int e = -1;  // subnormal: normalise
    do {
      mantissa <<= 1;
      ++e;
    } while ((mantissa & 0x400u) == 0);
    return sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (mantissa & 0x3ffu) << 13;
  }
  return sign | (exponent + 127 - 15) << 23 | mantissa << 13;
}

uint32_t FloatBitsToHalf(uint32_t f) {
  uint32_t sign = (f >> 16) & 0x8000u;
  int32_t exponent = static_cast<int32_t>((f >> 23) & 0xffu);
  uint32_t mantissa = f & 0x7fffffu;
  if (exponent == 0xff) return sign | 0x7c00u | (mantissa != 0 ? 0x200u | (mantissa >> 13) : 0);
  int32_t e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00u;  // overflow to infinity
  if (e <= 0) {
    if (e < -10) return sign;  // underflows to zero
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift, rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u) != 0)) ++half;
    return sign | half;
  }
  uint32_t half = sign | static_cast<uint32_t>(e) << 10 | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;  // may carry into the exponent: correct
  return half;
}

// FConvert of one scalar: "Convert value numerically from one floating-point width to another width."
std::optional<uint64_t> ConvertFloat(uint64_t bits, uint32_t from, uint32_t to) {
  double value;
  if (from == 16) {
    uint32_t f = HalfToFloatBits(static_cast<uint32_t>(bits));
    float single;
    std::memcpy(&single, &f, 4);
    value = single;
  } else if (from == 32) {
    auto f = static_cast<uint32_t>(bits);
    float single;
    std::memcpy(&single, &f, 4);
    value = single;
  } else if (from == 64) {
    std::memcpy(&value, &bits, 8);
  } else {
    return std::nullopt;
  }
  if (to == 64) {
    uint64_t out;
    std::memcpy(&out, &value, 8);
    return out;
  }
  auto single = static_cast<float>(value);
  uint32_t f;
  std::memcpy(&f, &single, 4);
  if (to == 32) return f;
  if (to == 16) return FloatBitsToHalf(f);
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> EvaluateScalarSpecOp(uint32_t opcode, uint32_t resultWidth,
                                             std::span<const ScalarConstant> operands) {
  if (operands.empty() || resultWidth == 0 || resultWidth > 64) return std::nullopt;
  const uint64_t mask = Mask(resultWidth);
  // Conversions change the width; every other operation works at the width of its (equally wide) operands.
  if (opcode == spv::OpSConvert || opcode == spv::OpUConvert) {
    if (operands.size() != 1 || resultWidth == 1 || operands[0].width == 1) return std::nullopt;
    const ScalarConstant& a = operands[0];
    // SConvert: "Sign-extend or truncate"; UConvert: "Zero-extend or truncate".
    if (opcode == spv::OpSConvert) return static_cast<uint64_t>(SignExtend(a.bits, a.width)) & mask;
    return a.bits & Mask(a.width) & mask;
  }
  if (opcode == spv::OpSelect) {
    if (operands.size() != 3 || operands[0].width != 1 || operands[1].width != resultWidth ||
        operands[2].width != resultWidth)
      return std::nullopt;
    return (operands[0].bits != 0 ? operands[1].bits : operands[2].bits) & mask;
  }
  const uint32_t width = operands[0].width;
  for (const ScalarConstant& operand : operands)
    if (operand.width != width && !(opcode == spv::OpShiftLeftLogical || opcode == spv::OpShiftRightLogical ||
                                    opcode == spv::OpShiftRightArithmetic))
      return std::nullopt;
  if (IsComparisonOrLogical(opcode) ? resultWidth != 1 : resultWidth != width) return std::nullopt;
  const uint64_t a = operands[0].bits & Mask(width);
  if (operands.size() == 1) {
    switch (opcode) {
      case spv::OpSNegate: return (uint64_t{0} - a) & mask;  // wraps: -INT_MIN is INT_MIN
      case spv::OpNot: return ~a & mask;
      case spv::OpLogicalNot: return a == 0 ? 1 : 0;
      default: return std::nullopt;
    }
  }
  if (operands.size() != 2) return std::nullopt;
  const uint64_t b = operands[1].bits & Mask(operands[1].width);
  const int64_t sa = SignExtend(a, width), sb = SignExtend(b, width);
  switch (opcode) {
    // Integer arithmetic wraps at the type's width ("the resulting value ... modulo 2^N" for IAdd/ISub/IMul).
    case spv::OpIAdd: return (a + b) & mask;
    case spv::OpISub: return (a - b) & mask;
    case spv::OpIMul: return (a * b) & mask;
    case spv::OpUDiv: if (b == 0) return std::nullopt; return a / b;
    case spv::OpUMod: if (b == 0) return std::nullopt; return a % b;
    case spv::OpSDiv:
      if (!SignedDivisionDefined(a, b, width)) return std::nullopt;
      return static_cast<uint64_t>(sa / sb) & mask;
    case spv::OpSRem:  // "the sign of a non-0 result comes from Operand 1" (C++ % truncates the same way)
      if (!SignedDivisionDefined(a, b, width)) return std::nullopt;
      return static_cast<uint64_t>(sa % sb) & mask;
    case spv::OpSMod: {  // "the sign of a non-0 result comes from Operand 2"
      if (!SignedDivisionDefined(a, b, width)) return std::nullopt;
      int64_t r = sa % sb;
      if (r != 0 && ((r < 0) != (sb < 0))) r += sb;
      return static_cast<uint64_t>(r) & mask;
    }
    // Shifts: "Shift is treated as unsigned. The resulting value is undefined if Shift is greater than or equal to
    // the bit width of the components of Base."
    case spv::OpShiftRightLogical: if (b >= width) return std::nullopt; return a >> b;
    case spv::OpShiftRightArithmetic: if (b >= width) return std::nullopt; return static_cast<uint64_t>(sa >> b) & mask;
    case spv::OpShiftLeftLogical: if (b >= width) return std::nullopt; return (a << b) & mask;
    case spv::OpBitwiseOr: return a | b;
    case spv::OpBitwiseXor: return a ^ b;
    case spv::OpBitwiseAnd: return a & b;
    case spv::OpLogicalOr: return (a != 0 || b != 0) ? 1 : 0;
    case spv::OpLogicalAnd: return (a != 0 && b != 0) ? 1 : 0;
    case spv::OpLogicalEqual: return (a != 0) == (b != 0) ? 1 : 0;
    case spv::OpLogicalNotEqual: return (a != 0) != (b != 0) ? 1 : 0;
    case spv::OpIEqual: return a == b ? 1 : 0;
    case spv::OpINotEqual: return a != b ? 1 : 0;
    case spv::OpULessThan: return a < b ? 1 : 0;
    case spv::OpSLessThan: return sa < sb ? 1 : 0;
    case spv::OpUGreaterThan: return a > b ? 1 : 0;
    case spv::OpSGreaterThan: return sa > sb ? 1 : 0;
    case spv::OpULessThanEqual: return a <= b ? 1 : 0;
    case spv::OpSLessThanEqual: return sa <= sb ? 1 : 0;
    case spv::OpUGreaterThanEqual: return a >= b ? 1 : 0;
    case spv::OpSGreaterThanEqual: return sa >= sb ? 1 : 0;
    default: return std::nullopt;
  }
}

namespace {

struct ScalarType {
  enum class Kind { Bool, Int, Float } kind;
  uint32_t width;  // 1 for Bool
  bool isSigned;
};

class Freezer {
 public:
  Freezer(const SpecializationValues& values, std::vector<uint32_t>* out) : values_(values), out_(*out) {}

  FreezeResult Run(std::span<const uint32_t> words) {
    if (words.size() < kHeaderWords) return FreezeResult::NotHandled;
    out_.assign(words.begin(), words.begin() + kHeaderWords);
    out_.reserve(words.size());
    size_t i = kHeaderWords;
    while (i < words.size()) {
      uint32_t wordCount = words[i] >> 16;
      if (wordCount == 0 || i + wordCount > words.size()) return FreezeResult::NotHandled;
      std::span<const uint32_t> inst = words.subspan(i, wordCount);
      if ((inst[0] & 0xffffu) == spv::OpFunction) {
        // Spec constants live before the first function; the bodies are copied as they are.
        out_.insert(out_.end(), words.begin() + static_cast<ptrdiff_t>(i), words.end());
        return FreezeResult::Frozen;
      }
      if (!Rewrite(inst)) return FreezeResult::NotHandled;
      i += wordCount;
    }
    return FreezeResult::Frozen;
  }

 private:
  void Emit(uint32_t opcode, std::span<const uint32_t> operands) {
    out_.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | opcode);
    out_.insert(out_.end(), operands.begin(), operands.end());
  }

  // Appends the scalar constant `bits` of type `type` (OpConstant, or OpConstantTrue/False) for `id`.
  void EmitScalar(uint32_t typeId, const ScalarType& type, uint32_t id, uint64_t bits) {
    if (type.kind == ScalarType::Kind::Bool) {
      uint32_t operands[] = {typeId, id};
      Emit(bits != 0 ? spv::OpConstantTrue : spv::OpConstantFalse, operands);
      constants_[id] = {1, bits != 0 ? 1u : 0u};
      Define(std::span<const uint32_t>(out_).last(3));
      return;
    }
    bits &= Mask(type.width);
    if (type.kind == ScalarType::Kind::Int) constants_[id] = {type.width, bits};
    // "Types 16 bits wide or less ... the high-order bits must be 0 for a floating-point type, or 0 for an integer
    // type with Signedness of 0, or sign extended when Signedness is 1."
    uint64_t literal = bits;
    if (type.kind == ScalarType::Kind::Int && type.isSigned && type.width < 32)
      literal = static_cast<uint64_t>(SignExtend(bits, type.width)) & 0xffffffffu;
    if (type.kind == ScalarType::Kind::Float) floats_[id] = {type.width, bits};
    uint32_t operands[] = {typeId, id, static_cast<uint32_t>(literal), static_cast<uint32_t>(literal >> 32)};
    Emit(spv::OpConstant, std::span<const uint32_t>(operands, type.width == 64 ? 4 : 3));
    Define(std::span<const uint32_t>(out_).last(type.width == 64 ? 5 : 4));
  }

  // The application's value for `id`'s SpecId, if it gave one: nullptr otherwise.
  const std::vector<uint32_t>* AppValue(uint32_t id) const {
    auto specId = specIds_.find(id);
    if (specId == specIds_.end()) return nullptr;
    auto value = values_.find(specId->second);
    return value == values_.end() ? nullptr : &value->second;
  }

  bool Rewrite(std::span<const uint32_t> inst) {
    uint32_t opcode = inst[0] & 0xffffu;
    switch (opcode) {
      case spv::OpDecorationGroup: return false;  // group decorations could carry a SpecId: not worth handling
      case spv::OpDecorate:
        if (inst.size() == 4 && inst[2] == spv::DecorationSpecId) {
          specIds_[inst[1]] = inst[3];
          return true;  // removed, as freeze-spec-constant-value does
        }
        break;
      case spv::OpTypeBool:
        if (inst.size() == 2) types_[inst[1]] = {ScalarType::Kind::Bool, 1, false};
        break;
      case spv::OpTypeInt:
        if (inst.size() == 4) types_[inst[1]] = {ScalarType::Kind::Int, inst[2], inst[3] != 0};
        break;
      case spv::OpTypeFloat:
        if (inst.size() >= 3) types_[inst[1]] = {ScalarType::Kind::Float, inst[2], false};
        break;
      case spv::OpTypeVector:
        if (inst.size() == 4) vectors_[inst[1]] = {inst[2], inst[3]};
        break;
      case spv::OpConstantTrue: case spv::OpConstantFalse:
        if (inst.size() == 3) constants_[inst[2]] = {1, opcode == spv::OpConstantTrue ? 1u : 0u};
        Define(inst);
        break;
      case spv::OpConstant: {
        auto type = types_.find(inst[1]);
        if (type != types_.end() && type->second.kind != ScalarType::Kind::Bool && inst.size() >= 4) {
          uint64_t bits = (inst[3] | (inst.size() >= 5 ? uint64_t{inst[4]} << 32 : 0)) & Mask(type->second.width);
          (type->second.kind == ScalarType::Kind::Int ? constants_ : floats_)[inst[2]] = {type->second.width, bits};
        }
        Define(inst);
        break;
      }
      case spv::OpConstantComposite: case spv::OpConstantNull:
        Define(inst);
        break;
      case spv::OpSpecConstantTrue: case spv::OpSpecConstantFalse: return FreezeBool(inst);
      case spv::OpSpecConstant: return FreezeScalar(inst);
      case spv::OpSpecConstantComposite:
        Emit(spv::OpConstantComposite, inst.subspan(1));
        Define(std::span<const uint32_t>(out_).last(inst.size()));
        return true;
      case spv::OpSpecConstantOp: return Fold(inst);
      default: break;
    }
    out_.insert(out_.end(), inst.begin(), inst.end());
    return true;
  }

  // Remembers a constant's defining instruction (as emitted), so that Select and FConvert can reuse it.
  void Define(std::span<const uint32_t> inst) {
    if (inst.size() >= 3) definitions_[inst[2]].assign(inst.begin(), inst.end());
  }

  bool FreezeBool(std::span<const uint32_t> inst) {
    if (inst.size() != 3) return false;
    auto type = types_.find(inst[1]);
    if (type == types_.end() || type->second.kind != ScalarType::Kind::Bool) return false;
    bool value = (inst[0] & 0xffffu) == spv::OpSpecConstantTrue;
    if (const std::vector<uint32_t>* app = AppValue(inst[2])) {
      if (app->size() != 1) return false;  // a VkBool32 is one word; anything else is SPIRV-Tools' to judge
      value = (*app)[0] != 0;
    }
    EmitScalar(inst[1], type->second, inst[2], value ? 1 : 0);
    return true;
  }

  bool FreezeScalar(std::span<const uint32_t> inst) {
    auto type = types_.find(inst[1]);
    if (type == types_.end() || type->second.kind == ScalarType::Kind::Bool) return false;
    const ScalarType& scalar = type->second;
    size_t valueWords = scalar.width == 64 ? 2 : 1;  // 8- and 16-bit types use one word
    if (scalar.width > 64 || inst.size() != 3 + valueWords) return false;
    std::span<const uint32_t> value = inst.subspan(3);
    if (const std::vector<uint32_t>* app = AppValue(inst[2])) {
      if (app->size() != valueWords) return false;
      value = *app;
    }
    uint64_t bits = value[0] | (valueWords == 2 ? uint64_t{value[1]} << 32 : 0);
    EmitScalar(inst[1], scalar, inst[2], bits);
    return true;
  }

  bool Fold(std::span<const uint32_t> inst) {
    if (inst.size() < 5) return false;
    // Select and FConvert, of any type: SPIRV-Tools' fold-spec-constant-op-and-composite leaves them (a float
    // `FLAG ? 1.0 : 0.0` would reach lowering as an OpSpecConstantOp).
    if (inst[3] == spv::OpSelect) return FoldSelect(inst);
    if (inst[3] == spv::OpFConvert) return FoldFConvert(inst);
    if (vectors_.count(inst[1]) != 0) return FoldVector(inst);
    auto type = types_.find(inst[1]);
    if (type == types_.end() || type->second.kind == ScalarType::Kind::Float) return false;  // scalar int/bool only
    std::vector<ScalarConstant> operands;
    for (uint32_t id : inst.subspan(4)) {
      auto constant = constants_.find(id);
      if (constant == constants_.end()) return false;  // not a known scalar constant (a vector, a float, OpUndef)
      operands.push_back(constant->second);
    }
    std::optional<uint64_t> result = EvaluateScalarSpecOp(inst[3], type->second.width, operands);
    if (!result) return false;
    EmitScalar(inst[1], type->second, inst[2], *result);
    return true;
  }

  // An integer or boolean vector operation, component by component ("... component-wise" for every opcode
  // OpSpecConstantOp allows on vectors). Each result component gets a new id (the bound grows). SPIRV-Tools folds
  // most of these itself but not UConvert (2023.1), so the pass after it needs this too.
  bool FoldVector(std::span<const uint32_t> inst) {
    const VectorType& vector = vectors_.at(inst[1]);
    auto component = types_.find(vector.component);
    if (component == types_.end() || component->second.kind == ScalarType::Kind::Float) return false;
    std::vector<std::span<const uint32_t>> operands;
    for (uint32_t id : inst.subspan(4)) {
      const auto constituents = Constituents(id);
      if (!constituents || constituents->size() != vector.count) return false;
      operands.push_back(*constituents);
    }
    std::vector<uint64_t> results;
    for (uint32_t c = 0; c < vector.count; ++c) {
      std::vector<ScalarConstant> scalars;
      for (std::span<const uint32_t> operand : operands) {
        auto constant = constants_.find(operand[c]);
        if (constant == constants_.end()) return false;
        scalars.push_back(constant->second);
      }
      std::optional<uint64_t> result = EvaluateScalarSpecOp(inst[3], component->second.width, scalars);
      if (!result) return false;
      results.push_back(*result);
    }
    std::vector<uint32_t> composite = {inst[1], inst[2]};
    for (uint64_t bits : results) {
      const uint32_t fresh = out_[3]++;
      EmitScalar(vector.component, component->second, fresh, bits);
      composite.push_back(fresh);
    }
    Emit(spv::OpConstantComposite, composite);
    Define(std::span<const uint32_t>(out_).last(composite.size() + 1));
    return true;
  }

  // OpSelect: "Select between two objects ... Condition must be a scalar or vector of Boolean type" of the same
  // component count as the result; a scalar condition picks a whole object. The result is a copy of the chosen
  // constant (or, for a vector condition, a composite of the chosen components).
  bool FoldSelect(std::span<const uint32_t> inst) {
    if (inst.size() != 7) return false;
    const uint32_t typeId = inst[1], id = inst[2], condition = inst[4], accept = inst[5], reject = inst[6];
    if (auto scalar = constants_.find(condition); scalar != constants_.end() && scalar->second.width == 1)
      return Copy(scalar->second.bits != 0 ? accept : reject, typeId, id);
    // A vector condition: each component picks the component of the same index.
    const auto conditions = Constituents(condition), accepts = Constituents(accept), rejects = Constituents(reject);
    if (!conditions || !accepts || !rejects || conditions->size() != accepts->size() ||
        accepts->size() != rejects->size())
      return false;
    std::vector<uint32_t> operands = {typeId, id};
    for (size_t i = 0; i < conditions->size(); ++i) {
      auto pick = constants_.find((*conditions)[i]);
      if (pick == constants_.end() || pick->second.width != 1) return false;
      operands.push_back(pick->second.bits != 0 ? (*accepts)[i] : (*rejects)[i]);
    }
    Emit(spv::OpConstantComposite, operands);
    Define(std::span<const uint32_t>(out_).last(operands.size() + 1));
    return true;
  }

  // OpFConvert of a float scalar or vector. A vector's converted components get new ids (the bound grows).
  bool FoldFConvert(std::span<const uint32_t> inst) {
    if (inst.size() != 5) return false;
    const uint32_t typeId = inst[1], id = inst[2], value = inst[4];
    if (auto vector = vectors_.find(typeId); vector != vectors_.end()) {
      auto component = types_.find(vector->second.component);
      const auto values = Constituents(value);
      if (component == types_.end() || component->second.kind != ScalarType::Kind::Float || !values ||
          values->size() != vector->second.count)
        return false;
      std::vector<uint32_t> operands = {typeId, id};
      for (uint32_t v : *values) {
        auto source = floats_.find(v);
        if (source == floats_.end()) return false;
        std::optional<uint64_t> bits = ConvertFloat(source->second.bits, source->second.width, component->second.width);
        if (!bits) return false;
        const uint32_t fresh = out_[3]++;  // a new id: the module's bound is out_[3]
        EmitScalar(vector->second.component, component->second, fresh, *bits);
        operands.push_back(fresh);
      }
      Emit(spv::OpConstantComposite, operands);
      Define(std::span<const uint32_t>(out_).last(operands.size() + 1));
      return true;
    }
    auto type = types_.find(typeId);
    auto source = floats_.find(value);
    if (type == types_.end() || type->second.kind != ScalarType::Kind::Float || source == floats_.end()) return false;
    std::optional<uint64_t> bits = ConvertFloat(source->second.bits, source->second.width, type->second.width);
    if (!bits) return false;
    EmitScalar(typeId, type->second, id, *bits);
    return true;
  }

  // Emits `from`'s definition again as `id` of type `typeId` (the same type: OpSelect's objects have the result
  // type), with what is known of its value.
  bool Copy(uint32_t from, uint32_t typeId, uint32_t id) {
    auto definition = definitions_.find(from);
    if (definition == definitions_.end() || definition->second.size() < 3 || definition->second[1] != typeId)
      return false;
    std::vector<uint32_t> copy = definition->second;
    copy[2] = id;
    out_.insert(out_.end(), copy.begin(), copy.end());
    definitions_[id] = std::move(copy);
    if (auto c = constants_.find(from); c != constants_.end()) constants_[id] = c->second;
    if (auto f = floats_.find(from); f != floats_.end()) floats_[id] = f->second;
    return true;
  }

  // The constituents of a composite constant, or nullopt. (definitions_ is node-based: the span stays valid while
  // other constants are defined.)
  std::optional<std::span<const uint32_t>> Constituents(uint32_t id) const {
    auto definition = definitions_.find(id);
    if (definition == definitions_.end() || (definition->second[0] & 0xffffu) != spv::OpConstantComposite)
      return std::nullopt;
    return std::span<const uint32_t>(definition->second).subspan(3);
  }

  struct VectorType {
    uint32_t component;
    uint32_t count;
  };

  const SpecializationValues& values_;
  std::vector<uint32_t>& out_;
  std::unordered_map<uint32_t, uint32_t> specIds_;  // result id → SpecId
  std::unordered_map<uint32_t, ScalarType> types_;
  std::unordered_map<uint32_t, ScalarConstant> constants_;  // integer and boolean scalar constants
  std::unordered_map<uint32_t, ScalarConstant> floats_;     // floating-point scalar constants (width, bits)
  std::unordered_map<uint32_t, VectorType> vectors_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> definitions_;  // constant id → its instruction as emitted
};

}  // namespace

FreezeResult FreezeSpecConstants(std::span<const uint32_t> words, const SpecializationValues& values,
                                 std::vector<uint32_t>* out) {
  return Freezer(values, out).Run(words);
}

}  // namespace crashtest::pipeline
