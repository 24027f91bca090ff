// Integer, floating-point, boolean and comparison operations and conversions.
//
// Where SPIR-V leaves a result undefined the kernels pick the value a GPU gives and never trap the host: integer
// division by zero gives all ones (quotient and remainder), INT_MIN / -1 wraps to INT_MIN, shift counts use their
// low bits (as NIR's shifts do), and out-of-range float-to-integer conversions saturate (NaN gives 0).
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "execution/ops/ops.h"

namespace crashtest::execution {

float HalfToFloat(uint32_t half) {
  const uint32_t sign = (half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400) == 0);
    bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mantissa & 0x3ff) << 13);
  }
  return std::bit_cast<float>(bits);
}

uint32_t FloatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) return sign | 0x7c00u | (mantissa != 0 ? 0x200u | (mantissa >> 13) : 0u);
  int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00u;  // overflow: infinity
  if (e <= 0) {
    if (e < -10) return sign;  // underflow to zero
    mantissa |= 0x800000;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return sign | half;
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: still right
  return sign | half;
}

namespace {

// Unsigned arithmetic at least 32 bits wide, so narrow types never promote to int and overflow.
template <typename T>
auto Wide(T v) {
  if constexpr (sizeof(T) < 8) return static_cast<uint32_t>(static_cast<std::make_unsigned_t<T>>(v));
  else return static_cast<uint64_t>(v);
}

template <typename T>
constexpr uint32_t kBits = sizeof(T) * 8;

struct IAdd { static auto Apply(auto a, auto b) { return Wide(a) + Wide(b); } };
struct ISub { static auto Apply(auto a, auto b) { return Wide(a) - Wide(b); } };
struct IMul { static auto Apply(auto a, auto b) { return Wide(a) * Wide(b); } };
struct UDiv {
  template <typename T> static T Apply(T a, T b) { return b == 0 ? static_cast<T>(~T{0}) : static_cast<T>(a / b); }
};
struct UMod {
  template <typename T> static T Apply(T a, T b) { return b == 0 ? static_cast<T>(~T{0}) : static_cast<T>(a % b); }
};
struct SDiv {
  template <typename T> static T Apply(T a, T b) {
    if (b == 0) return static_cast<T>(-1);
    if (b == -1) return static_cast<T>(0 - Wide(a));  // INT_MIN / -1 wraps
    return static_cast<T>(a / b);
  }
};
struct SRem {  // sign of the dividend
  template <typename T> static T Apply(T a, T b) {
    if (b == 0) return static_cast<T>(-1);
    if (b == -1) return 0;
    return static_cast<T>(a % b);
  }
};
struct SMod {  // sign of the divisor
  template <typename T> static T Apply(T a, T b) {
    if (b == 0) return static_cast<T>(-1);
    if (b == -1) return 0;
    T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  }
};
struct BitAnd { static auto Apply(auto a, auto b) { return a & b; } };
struct BitOr { static auto Apply(auto a, auto b) { return a | b; } };
struct BitXor { static auto Apply(auto a, auto b) { return a ^ b; } };
struct Shl {
  template <typename T, typename S> static T Apply(T a, S b) {
    return static_cast<T>(Wide(a) << (static_cast<uint32_t>(b) & (kBits<T> - 1)));
  }
};
struct Shr {
  template <typename T, typename S> static T Apply(T a, S b) {
    return static_cast<T>(a >> (static_cast<uint32_t>(b) & (kBits<T> - 1)));
  }
};
struct Sar {  // arithmetic: C++20 defines >> of negative values as arithmetic
  template <typename T, typename S> static T Apply(T a, S b) {
    return static_cast<T>(a >> (static_cast<uint32_t>(b) & (kBits<T> - 1)));
  }
};

struct FAdd { static auto Apply(auto a, auto b) { return a + b; } };
struct FSub { static auto Apply(auto a, auto b) { return a - b; } };
struct FMul { static auto Apply(auto a, auto b) { return a * b; } };
struct FDiv { static auto Apply(auto a, auto b) { return a / b; } };
struct FRem { static auto Apply(auto a, auto b) { return std::fmod(a, b); } };
struct FMod {
  template <typename T> static T Apply(T a, T b) { return a - b * std::floor(a / b); }
};

struct Eq { static bool Apply(auto a, auto b) { return a == b; } };
struct Ne { static bool Apply(auto a, auto b) { return a != b; } };
struct Lt { static bool Apply(auto a, auto b) { return a < b; } };
struct Le { static bool Apply(auto a, auto b) { return a <= b; } };
struct Gt { static bool Apply(auto a, auto b) { return a > b; } };
struct Ge { static bool Apply(auto a, auto b) { return a >= b; } };
// Unordered comparisons: true when either operand is NaN.
struct UEq { static bool Apply(auto a, auto b) { return !(a < b || a > b); } };
struct UNe { static bool Apply(auto a, auto b) { return a != b; } };
struct ULt { static bool Apply(auto a, auto b) { return !(a >= b); } };
struct ULe { static bool Apply(auto a, auto b) { return !(a > b); } };
struct UGt { static bool Apply(auto a, auto b) { return !(a <= b); } };
struct UGe { static bool Apply(auto a, auto b) { return !(a < b); } };
struct OrdEq { static bool Apply(auto a, auto b) { return a == b; } };
struct OrdNe { static bool Apply(auto a, auto b) { return a < b || a > b; } };
struct LAnd { static bool Apply(bool a, bool b) { return a && b; } };
struct LOr { static bool Apply(bool a, bool b) { return a || b; } };
struct LEq { static bool Apply(bool a, bool b) { return a == b; } };
struct LNe { static bool Apply(bool a, bool b) { return a != b; } };

struct Neg { static auto Apply(auto a) { return 0 - Wide(a); } };
struct FNeg { static auto Apply(auto a) { return -a; } };
struct BitNot { static auto Apply(auto a) { return ~Wide(a); } };
struct LNot { static bool Apply(bool a) { return !a; } };
struct PopCount { static uint32_t Apply(auto a) { return static_cast<uint32_t>(std::popcount(Wide(a))); } };
struct BitRev {
  template <typename T> static T Apply(T a) {
    auto v = Wide(a);
    decltype(v) r = 0;
    for (uint32_t i = 0; i < kBits<T>; ++i) r |= ((v >> i) & 1) << (kBits<T> - 1 - i);
    return static_cast<T>(r);
  }
};
struct IsNan { static bool Apply(auto a) { return std::isnan(a); } };
struct IsInf { static bool Apply(auto a) { return std::isinf(a); } };

// Conversions.
template <typename To>
struct FloatToInt {
  template <typename F> static To Apply(F f) {
    if (std::isnan(f)) return 0;
    constexpr F lo = static_cast<F>(std::numeric_limits<To>::min());
    constexpr F hi = static_cast<F>(std::numeric_limits<To>::max());
    if (f <= lo) return std::numeric_limits<To>::min();
    if (f >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(f);
  }
};
template <typename To>
struct Cast {
  template <typename F> static To Apply(F f) { return static_cast<To>(f); }
};

// Instantiation by component type. Each macro expands a case per Scalar the family supports.
#define CT_UINTS(X) X(U8) X(U16) X(U32) X(U64)
#define CT_SINTS(X) X(S8) X(S16) X(S32) X(S64)
#define CT_FLOATS(X) X(F16) X(F32) X(F64)

template <typename F>
OpHandler UIntBinary(Scalar k) {
  switch (k) {
#define CT_CASE(K) case Scalar::K: return &Map2<Scalar::K, Scalar::K, Scalar::K, F>;
    CT_UINTS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}
template <typename F>
OpHandler SIntBinary(Scalar k) {
  switch (k) {
#define CT_CASE(K) case Scalar::K: return &Map2<Scalar::K, Scalar::K, Scalar::K, F>;
    CT_SINTS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}
template <typename F>
OpHandler FloatBinary(Scalar k) {
  switch (k) {
#define CT_CASE(K) case Scalar::K: return &Map2<Scalar::K, Scalar::K, Scalar::K, F>;
    CT_FLOATS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}
template <typename F, Scalar Base>
OpHandler ShiftBy(Scalar shift) {
  switch (shift) {
#define CT_CASE(K) case Scalar::K: return &Map2<Base, Scalar::K, Base, F>;
    CT_UINTS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}
template <typename F>
OpHandler Shift(Scalar base, Scalar shift, bool arithmetic) {
  // The shift count is read unsigned: only its low bits count.
  switch (shift) {
    case Scalar::S8: shift = Scalar::U8; break;
    case Scalar::S16: shift = Scalar::U16; break;
    case Scalar::S32: shift = Scalar::U32; break;
    case Scalar::S64: shift = Scalar::U64; break;
    default: break;
  }
  if (arithmetic) {
    switch (base) {
#define CT_CASE(K) case Scalar::K: return ShiftBy<F, Scalar::K>(shift);
      CT_SINTS(CT_CASE)
#undef CT_CASE
      default: return nullptr;
    }
  }
  switch (base) {
#define CT_CASE(K) case Scalar::K: return ShiftBy<F, Scalar::K>(shift);
    CT_UINTS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}
template <typename F>
OpHandler Compare(Scalar k) {
  switch (k) {
#define CT_CASE(K) case Scalar::K: return &Map2<Scalar::K, Scalar::K, Scalar::Bool, F>;
    CT_UINTS(CT_CASE) CT_SINTS(CT_CASE) CT_FLOATS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}

template <typename F, Scalar A>
OpHandler ToResult(Scalar r) {
  switch (r) {
#define CT_CASE(K) case Scalar::K: return &Map1<A, Scalar::K, F>;
    CT_UINTS(CT_CASE) CT_SINTS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}

template <Scalar From, Scalar To>
OpHandler ConvertPair() {
  using T = typename Lane<To>::T;
  if constexpr (IsFloat(From) && !IsFloat(To)) return &Map1<From, To, FloatToInt<T>>;
  else return &Map1<From, To, Cast<T>>;
}
template <Scalar From>
OpHandler ConvertFrom(Scalar to) {
  switch (to) {
#define CT_CASE(K) case Scalar::K: return ConvertPair<From, Scalar::K>();
    CT_UINTS(CT_CASE) CT_SINTS(CT_CASE) CT_FLOATS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}

}  // namespace

namespace ops {

OpHandler Unary(uint32_t spvOp, Scalar operand, Scalar result) {
  switch (static_cast<spv::Op>(spvOp)) {
    case spv::OpSNegate:
      switch (ToUnsigned(operand)) {
#define CT_CASE(K) case Scalar::K: return &Map1<Scalar::K, Scalar::K, Neg>;
        CT_UINTS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpNot:
      switch (ToUnsigned(operand)) {
#define CT_CASE(K) case Scalar::K: return &Map1<Scalar::K, Scalar::K, BitNot>;
        CT_UINTS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpBitReverse:
      switch (ToUnsigned(operand)) {
#define CT_CASE(K) case Scalar::K: return &Map1<Scalar::K, Scalar::K, BitRev>;
        CT_UINTS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpBitCount:
      switch (ToUnsigned(operand)) {
#define CT_CASE(K) case Scalar::K: return ToResult<PopCount, Scalar::K>(result);
        CT_UINTS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpFNegate:
      switch (operand) {
#define CT_CASE(K) case Scalar::K: return &Map1<Scalar::K, Scalar::K, FNeg>;
        CT_FLOATS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpIsNan:
    case spv::OpIsInf:
      switch (operand) {
#define CT_CASE(K)   \
  case Scalar::K:    \
    return spvOp == spv::OpIsNan ? &Map1<Scalar::K, Scalar::Bool, IsNan> : &Map1<Scalar::K, Scalar::Bool, IsInf>;
        CT_FLOATS(CT_CASE)
#undef CT_CASE
        default: return nullptr;
      }
    case spv::OpLogicalNot: return &Map1<Scalar::Bool, Scalar::Bool, LNot>;
    default: return nullptr;
  }
}

OpHandler Binary(uint32_t spvOp, Scalar operand, Scalar second, Scalar result) {
  (void)result;
  const Scalar u = ToUnsigned(operand), s = ToSigned(operand);
  switch (static_cast<spv::Op>(spvOp)) {
    case spv::OpIAdd: return UIntBinary<IAdd>(u);
    case spv::OpISub: return UIntBinary<ISub>(u);
    case spv::OpIMul: return UIntBinary<IMul>(u);
    case spv::OpUDiv: return UIntBinary<UDiv>(u);
    case spv::OpUMod: return UIntBinary<UMod>(u);
    case spv::OpSDiv: return SIntBinary<SDiv>(s);
    case spv::OpSRem: return SIntBinary<SRem>(s);
    case spv::OpSMod: return SIntBinary<SMod>(s);
    case spv::OpBitwiseAnd: return UIntBinary<BitAnd>(u);
    case spv::OpBitwiseOr: return UIntBinary<BitOr>(u);
    case spv::OpBitwiseXor: return UIntBinary<BitXor>(u);
    case spv::OpShiftLeftLogical: return Shift<Shl>(u, second, false);
    case spv::OpShiftRightLogical: return Shift<Shr>(u, second, false);
    case spv::OpShiftRightArithmetic: return Shift<Sar>(s, second, true);
    case spv::OpFAdd: return FloatBinary<FAdd>(operand);
    case spv::OpFSub: return FloatBinary<FSub>(operand);
    case spv::OpFMul: return FloatBinary<FMul>(operand);
    case spv::OpFDiv: return FloatBinary<FDiv>(operand);
    case spv::OpFRem: return FloatBinary<FRem>(operand);
    case spv::OpFMod: return FloatBinary<FMod>(operand);
    case spv::OpIEqual: return Compare<Eq>(u);
    case spv::OpINotEqual: return Compare<Ne>(u);
    case spv::OpUGreaterThan: return Compare<Gt>(u);
    case spv::OpUGreaterThanEqual: return Compare<Ge>(u);
    case spv::OpULessThan: return Compare<Lt>(u);
    case spv::OpULessThanEqual: return Compare<Le>(u);
    case spv::OpSGreaterThan: return Compare<Gt>(s);
    case spv::OpSGreaterThanEqual: return Compare<Ge>(s);
    case spv::OpSLessThan: return Compare<Lt>(s);
    case spv::OpSLessThanEqual: return Compare<Le>(s);
    case spv::OpFOrdEqual: return Compare<OrdEq>(operand);
    case spv::OpFOrdNotEqual: return Compare<OrdNe>(operand);
    case spv::OpFOrdLessThan: return Compare<Lt>(operand);
    case spv::OpFOrdLessThanEqual: return Compare<Le>(operand);
    case spv::OpFOrdGreaterThan: return Compare<Gt>(operand);
    case spv::OpFOrdGreaterThanEqual: return Compare<Ge>(operand);
    case spv::OpFUnordEqual: return Compare<UEq>(operand);
    case spv::OpFUnordNotEqual: return Compare<UNe>(operand);
    case spv::OpFUnordLessThan: return Compare<ULt>(operand);
    case spv::OpFUnordLessThanEqual: return Compare<ULe>(operand);
    case spv::OpFUnordGreaterThan: return Compare<UGt>(operand);
    case spv::OpFUnordGreaterThanEqual: return Compare<UGe>(operand);
    case spv::OpLogicalAnd: return &Map2<Scalar::Bool, Scalar::Bool, Scalar::Bool, LAnd>;
    case spv::OpLogicalOr: return &Map2<Scalar::Bool, Scalar::Bool, Scalar::Bool, LOr>;
    case spv::OpLogicalEqual: return &Map2<Scalar::Bool, Scalar::Bool, Scalar::Bool, LEq>;
    case spv::OpLogicalNotEqual: return &Map2<Scalar::Bool, Scalar::Bool, Scalar::Bool, LNe>;
    default: return nullptr;
  }
}

OpHandler Convert(uint32_t spvOp, Scalar from, Scalar to) {
  switch (static_cast<spv::Op>(spvOp)) {
    case spv::OpConvertFToU: to = ToUnsigned(to); break;
    case spv::OpConvertFToS: to = ToSigned(to); break;
    case spv::OpConvertSToF: from = ToSigned(from); break;
    case spv::OpConvertUToF: from = ToUnsigned(from); break;
    case spv::OpUConvert: from = ToUnsigned(from), to = ToUnsigned(to); break;
    case spv::OpSConvert: from = ToSigned(from), to = ToSigned(to); break;
    case spv::OpFConvert: break;
    default: return nullptr;
  }
  switch (from) {
#define CT_CASE(K) case Scalar::K: return ConvertFrom<Scalar::K>(to);
    CT_UINTS(CT_CASE) CT_SINTS(CT_CASE) CT_FLOATS(CT_CASE)
#undef CT_CASE
    default: return nullptr;
  }
}

}  // namespace ops
}  // namespace crashtest::execution

namespace crashtest::execution {
namespace {

// OpBitFieldInsert / OpBitFieldSExtract / OpBitFieldUExtract. Offset and Count are scalars per lane; a field that
// does not fit the width is undefined: it is clipped to the width.
template <typename U>
U FieldMask(uint32_t offset, uint32_t count) {
  constexpr uint32_t bits = sizeof(U) * 8;
  if (offset >= bits || count == 0) return 0;
  count = std::min(count, bits - offset);
  const U ones = count >= bits ? static_cast<U>(~U{0}) : static_cast<U>((U{1} << count) - 1);
  return static_cast<U>(ones << offset);
}

template <Scalar K, uint32_t SpvOp>
void BitFieldOp(const Op& op, SubgroupState& s) {
  using U = std::conditional_t<SlotsOf(K) == 2, uint64_t, uint32_t>;
  constexpr uint32_t bits = BitsOf(K);
  const uint32_t w = s.width;
  const uint32_t* base = s.Slot(op.a);
  const uint32_t* second = s.Slot(op.b);
  const uint32_t* third = s.Slot(op.c);
  const uint32_t* fourth = s.Slot(op.aux);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l) {
      const U v = static_cast<U>(Get<K>(base, w, c, l));
      U r;
      if constexpr (SpvOp == spv::OpBitFieldInsert) {
        const uint32_t offset = third[l], count = fourth[l];
        const U mask = FieldMask<U>(offset, count);
        const U insert = static_cast<U>(Get<K>(second, w, c, l));
        r = static_cast<U>((v & ~mask) | ((offset < bits ? static_cast<U>(insert << offset) : U{0}) & mask));
      } else {
        const uint32_t offset = second[l], count = third[l];
        const U mask = FieldMask<U>(offset, count);
        const uint32_t width = offset < bits ? std::min(count, bits - offset) : 0;
        r = width == 0 ? U{0} : static_cast<U>((v & mask) >> offset);
        if constexpr (SpvOp == spv::OpBitFieldSExtract) {
          if (width != 0 && width < bits && ((r >> (width - 1)) & 1)) r = static_cast<U>(r | static_cast<U>(~U{0} << width));
        }
      }
      Put<K, false>(d, w, c, l, static_cast<typename Lane<K>::T>(r), s.laneMask[l]);
    }
}

}  // namespace

namespace ops {

OpHandler BitField(uint32_t spvOp, Scalar k) {
  switch (spvOp) {
#define CT_FIELD(Name)                                                    \
  case spv::Name:                                                         \
    switch (k) {                                                          \
      case Scalar::U32: case Scalar::S32: return &BitFieldOp<Scalar::U32, spv::Name>; \
      case Scalar::U64: case Scalar::S64: return &BitFieldOp<Scalar::U64, spv::Name>; \
      default: return nullptr;                                            \
    }
    CT_FIELD(OpBitFieldInsert) CT_FIELD(OpBitFieldSExtract) CT_FIELD(OpBitFieldUExtract)
#undef CT_FIELD
    default: return nullptr;
  }
}

}  // namespace ops
}  // namespace crashtest::execution

namespace crashtest::execution {
namespace {

// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended on 32-bit components: the result struct's two
// members are op.n components each, the second starting op.n slots after the first.
template <uint32_t SpvOp>
void WideArithmeticOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, n = op.n;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* lo = s.Slot(op.dst);
  uint32_t* hi = s.Slot(op.dst + n);
  for (uint32_t i = 0; i < n * w; ++i) {
    const uint32_t mask = s.laneMask[i % w];
    uint32_t first, second;
    if constexpr (SpvOp == spv::OpIAddCarry) {
      first = a[i] + b[i];
      second = first < a[i] ? 1 : 0;
    } else if constexpr (SpvOp == spv::OpISubBorrow) {
      first = a[i] - b[i];
      second = a[i] < b[i] ? 1 : 0;
    } else if constexpr (SpvOp == spv::OpUMulExtended) {
      const uint64_t p = uint64_t{a[i]} * b[i];
      first = static_cast<uint32_t>(p), second = static_cast<uint32_t>(p >> 32);
    } else {
      const int64_t p = int64_t{static_cast<int32_t>(a[i])} * static_cast<int32_t>(b[i]);
      first = static_cast<uint32_t>(p), second = static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
    }
    lo[i] = Blend(mask, first, lo[i]);
    hi[i] = Blend(mask, second, hi[i]);
  }
}

}  // namespace

namespace ops {

OpHandler WideArithmetic(uint32_t spvOp, Scalar k) {
  if (BitsOf(k) != 32) return nullptr;
  switch (spvOp) {
    case spv::OpIAddCarry: return &WideArithmeticOp<spv::OpIAddCarry>;
    case spv::OpISubBorrow: return &WideArithmeticOp<spv::OpISubBorrow>;
    case spv::OpUMulExtended: return &WideArithmeticOp<spv::OpUMulExtended>;
    case spv::OpSMulExtended: return &WideArithmeticOp<spv::OpSMulExtended>;
    default: return nullptr;
  }
}

}  // namespace ops
}  // namespace crashtest::execution

namespace crashtest::execution {
namespace {

// Integer dot products (SPV_KHR_integer_dot_product): OpSDot, OpUDot, OpSUDot and their AccSat forms.
// op.aux packs: bit 0 first operand signed, bit 1 second signed, bit 2 accumulate with saturation, bit 3 result
// signed, bits 8-15 component bits (8 with a packed 4x8 operand), bits 16-23 result bits; op.n components.
int64_t Component(const uint32_t* p, uint32_t w, uint32_t c, uint32_t l, uint32_t bits, bool isSigned, bool packed) {
  uint64_t raw;
  if (packed) raw = (p[l] >> (8 * c)) & 0xff;
  else if (bits == 64) raw = Join(p[static_cast<size_t>(2 * c) * w + l], p[static_cast<size_t>(2 * c + 1) * w + l]);
  else raw = p[static_cast<size_t>(c) * w + l];
  if (bits < 64) {
    raw &= (uint64_t{1} << bits) - 1;
    if (isSigned && ((raw >> (bits - 1)) & 1)) raw |= ~uint64_t{0} << bits;
  }
  return static_cast<int64_t>(raw);
}

void IntegerDotOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const bool aSigned = op.aux & 1, bSigned = op.aux & 2, accumulate = op.aux & 4, resultSigned = op.aux & 8;
  const uint32_t bits = (op.aux >> 8) & 0xff, resultBits = (op.aux >> 16) & 0xff;
  const bool packed = op.n == 0;
  const uint32_t count = packed ? 4 : op.n;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  const uint32_t* acc = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    // Products of at most 32-bit components fit in 64 bits; wider ones wrap, which only AccSat would notice.
    int64_t sum = 0;
    for (uint32_t c = 0; c < count; ++c)
      sum = static_cast<int64_t>(static_cast<uint64_t>(sum) +
                                 static_cast<uint64_t>(Component(a, w, c, l, bits, aSigned, packed) *
                                                       Component(b, w, c, l, bits, bSigned, packed)));
    uint64_t result = static_cast<uint64_t>(sum);
    if (accumulate) {
      const int64_t add = Component(acc, w, 0, l, resultBits, resultSigned, false);
      if (resultSigned) {
        const int64_t lo = resultBits == 64 ? INT64_MIN : -(int64_t{1} << (resultBits - 1));
        const int64_t hi = resultBits == 64 ? INT64_MAX : (int64_t{1} << (resultBits - 1)) - 1;
        int64_t total;
        if (__builtin_add_overflow(sum, add, &total)) total = add < 0 ? INT64_MIN : INT64_MAX;
        result = static_cast<uint64_t>(std::clamp(total, lo, hi));
      } else {
        const uint64_t hi = resultBits == 64 ? UINT64_MAX : (uint64_t{1} << resultBits) - 1;
        uint64_t total;
        if (__builtin_add_overflow(static_cast<uint64_t>(sum), static_cast<uint64_t>(add), &total)) total = UINT64_MAX;
        result = std::min(total, hi);
      }
    }
    if (resultBits == 64) {
      d[l] = static_cast<uint32_t>(result);
      d[w + l] = static_cast<uint32_t>(result >> 32);
    } else {
      d[l] = static_cast<uint32_t>(result & ((uint64_t{1} << resultBits) - 1));
    }
  });
}

}  // namespace

namespace ops {
OpHandler IntegerDot() { return &IntegerDotOp; }
}  // namespace ops
}  // namespace crashtest::execution
