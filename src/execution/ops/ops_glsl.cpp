// GLSL.std.450 extended instructions. Results are computed in the component's own precision with the C++ library
// (correctly rounded or within an ulp or two), well inside Vulkan's precision rules for each instruction.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "execution/ops/ops.h"

namespace crashtest::execution {
namespace {

enum Glsl : uint32_t {
  Round = 1, RoundEven, Trunc, FAbs, SAbs, FSign, SSign, Floor, Ceil, Fract, Radians, Degrees, Sin, Cos, Tan, Asin,
  Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Atan2, Pow, Exp, Log, Exp2, Log2, Sqrt, InverseSqrt,
  Determinant, MatrixInverse, Modf, ModfStruct, FMin, UMin, SMin, FMax, UMax, SMax, FClamp, UClamp, SClamp, FMix,
  IMix, Step, SmoothStep, Fma, Frexp, FrexpStruct, Ldexp, PackSnorm4x8, PackUnorm4x8, PackSnorm2x16,
  PackUnorm2x16, PackHalf2x16, PackDouble2x32, UnpackSnorm2x16, UnpackUnorm2x16, UnpackHalf2x16, UnpackSnorm4x8,
  UnpackUnorm4x8, UnpackDouble2x32, Length, Distance, Cross, Normalize, FaceForward, Reflect, Refract, FindILsb,
  FindSMsb, FindUMsb, InterpolateAtCentroid, InterpolateAtSample, InterpolateAtOffset, NMin, NMax, NClamp,
};

struct GRound { template <typename T> static T Apply(T a) { return std::round(a); } };
struct GRoundEven { template <typename T> static T Apply(T a) { return std::nearbyint(a); } };
struct GTrunc { template <typename T> static T Apply(T a) { return std::trunc(a); } };
struct GFAbs { template <typename T> static T Apply(T a) { return std::fabs(a); } };
struct GFSign { template <typename T> static T Apply(T a) { return a > T(0) ? T(1) : a < T(0) ? T(-1) : a; } };
struct GFloor { template <typename T> static T Apply(T a) { return std::floor(a); } };
struct GCeil { template <typename T> static T Apply(T a) { return std::ceil(a); } };
struct GFract { template <typename T> static T Apply(T a) { return a - std::floor(a); } };
struct GRadians { template <typename T> static T Apply(T a) { return a * T(0.017453292519943295); } };
struct GDegrees { template <typename T> static T Apply(T a) { return a * T(57.29577951308232); } };
struct GSin { template <typename T> static T Apply(T a) { return std::sin(a); } };
struct GCos { template <typename T> static T Apply(T a) { return std::cos(a); } };
struct GTan { template <typename T> static T Apply(T a) { return std::tan(a); } };
struct GAsin { template <typename T> static T Apply(T a) { return std::asin(a); } };
struct GAcos { template <typename T> static T Apply(T a) { return std::acos(a); } };
struct GAtan { template <typename T> static T Apply(T a) { return std::atan(a); } };
struct GSinh { template <typename T> static T Apply(T a) { return std::sinh(a); } };
struct GCosh { template <typename T> static T Apply(T a) { return std::cosh(a); } };
struct GTanh { template <typename T> static T Apply(T a) { return std::tanh(a); } };
struct GAsinh { template <typename T> static T Apply(T a) { return std::asinh(a); } };
struct GAcosh { template <typename T> static T Apply(T a) { return std::acosh(a); } };
struct GAtanh { template <typename T> static T Apply(T a) { return std::atanh(a); } };
struct GExp { template <typename T> static T Apply(T a) { return std::exp(a); } };
struct GLog { template <typename T> static T Apply(T a) { return std::log(a); } };
struct GExp2 { template <typename T> static T Apply(T a) { return std::exp2(a); } };
struct GLog2 { template <typename T> static T Apply(T a) { return std::log2(a); } };
struct GSqrt { template <typename T> static T Apply(T a) { return std::sqrt(a); } };
struct GInverseSqrt { template <typename T> static T Apply(T a) { return T(1) / std::sqrt(a); } };
struct GAtan2 { template <typename T> static T Apply(T y, T x) { return std::atan2(y, x); } };
struct GPow { template <typename T> static T Apply(T x, T y) { return std::pow(x, y); } };
// FMin/FMax: "which operand is the result is undefined if one of the operands is a NaN"; fmin returns the other.
struct GFMin { template <typename T> static T Apply(T a, T b) { return std::fmin(a, b); } };
struct GFMax { template <typename T> static T Apply(T a, T b) { return std::fmax(a, b); } };
struct GIMin { template <typename T> static T Apply(T a, T b) { return std::min(a, b); } };
struct GIMax { template <typename T> static T Apply(T a, T b) { return std::max(a, b); } };
struct GStep { template <typename T> static T Apply(T edge, T x) { return x < edge ? T(0) : T(1); } };
struct GFClamp {
  template <typename T> static T Apply(T x, T lo, T hi) { return std::fmin(std::fmax(x, lo), hi); }
};
struct GIClamp {
  template <typename T> static T Apply(T x, T lo, T hi) { return std::min(std::max(x, lo), hi); }
};
struct GFMix { template <typename T> static T Apply(T x, T y, T a) { return x * (T(1) - a) + y * a; } };
struct GSmoothStep {
  template <typename T> static T Apply(T e0, T e1, T x) {
    T t = std::fmin(std::fmax((x - e0) / (e1 - e0), T(0)), T(1));
    return t * t * (T(3) - T(2) * t);
  }
};
struct GFma { template <typename T> static T Apply(T a, T b, T c) { return std::fma(a, b, c); } };

// Fma on 32-bit floats, the common case (saxpy-like kernels): std::fma is a libm call per lane on the baseline
// x86-64 target, so where the CPU has FMA the lanes run through a loop compiled for it (one vfmadd per four or
// eight lanes), chosen once at load. Both give the correctly rounded fused result.
using FmaLanes = void (*)(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, uint32_t n);
void FmaLanesPortable(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    d[i] = std::bit_cast<uint32_t>(std::fma(std::bit_cast<float>(a[i]), std::bit_cast<float>(b[i]),
                                            std::bit_cast<float>(c[i])));
}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("avx2,fma"))) void FmaLanesHardware(const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                                          uint32_t* d, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    d[i] = std::bit_cast<uint32_t>(__builtin_fmaf(std::bit_cast<float>(a[i]), std::bit_cast<float>(b[i]),
                                                  std::bit_cast<float>(c[i])));
}
FmaLanes ChooseFmaLanes() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? &FmaLanesHardware : &FmaLanesPortable;
}
#else
FmaLanes ChooseFmaLanes() { return &FmaLanesPortable; }
#endif
const FmaLanes kFmaLanes = ChooseFmaLanes();

void FmaF32(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  for (uint32_t c = 0; c < op.n; ++c) {
    const uint32_t* a = s.Slot(op.a) + c * w;
    const uint32_t* b = s.Slot(op.b) + c * w;
    const uint32_t* e = s.Slot(op.c) + c * w;
    uint32_t* d = s.Slot(op.dst) + c * w;
    if (s.full) {
      kFmaLanes(a, b, e, d, w);
      continue;
    }
    uint32_t result[kMaxSubgroupWidth];
    kFmaLanes(a, b, e, result, w);
    for (uint32_t l = 0; l < w; ++l) d[l] = Blend(s.laneMask[l], result[l], d[l]);
  }
}
struct GSAbs {
  template <typename T> static T Apply(T a) {
    using U = std::make_unsigned_t<T>;
    return a < 0 ? static_cast<T>(U(0) - static_cast<U>(a)) : a;
  }
};
struct GSSign { template <typename T> static T Apply(T a) { return static_cast<T>(a > 0 ? 1 : a < 0 ? -1 : 0); } };
struct GFindILsb {
  template <typename T> static T Apply(T a) {
    using U = std::make_unsigned_t<T>;
    return a == 0 ? static_cast<T>(-1) : static_cast<T>(std::countr_zero(static_cast<U>(a)));
  }
};
struct GFindUMsb {
  template <typename T> static T Apply(T a) {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(a);
    return u == 0 ? static_cast<T>(-1) : static_cast<T>(sizeof(U) * 8 - 1 - std::countl_zero(u));
  }
};
struct GFindSMsb {
  template <typename T> static T Apply(T a) {
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(a < 0 ? ~a : a);
    return u == 0 ? static_cast<T>(-1) : static_cast<T>(sizeof(U) * 8 - 1 - std::countl_zero(u));
  }
};

// Ldexp(x, exp): exp is a 32-bit integer vector with the same component count.
template <Scalar K, bool Full>
void LdexpLoop(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l) {
      int e = std::clamp(static_cast<int32_t>(Get<Scalar::U32>(b, w, c, l)), -2048, 2048);
      Put<K, Full>(d, w, c, l, std::ldexp(Get<K>(a, w, c, l), e), s.laneMask[l]);
    }
}
template <Scalar K>
void LdexpOp(const Op& op, SubgroupState& s) {
  if (s.full) LdexpLoop<K, true>(op, s);
  else LdexpLoop<K, false>(op, s);
}

// The geometric functions: a and b are vectors of op.aux components; results as documented per function.
template <Scalar K>
void GeometricOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, n = op.aux;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  const uint32_t* e = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  auto dot = [&](const uint32_t* x, const uint32_t* y, uint32_t l) {
    T sum = 0;
    for (uint32_t c = 0; c < n; ++c) sum += Get<K>(x, w, c, l) * Get<K>(y, w, c, l);
    return sum;
  };
  if constexpr (K == Scalar::F32) {
    if (op.n == Length || op.n == Normalize) {
      // Every lane at once, inactive ones blended away afterwards: loops the compiler vectorises (square roots
      // included), where a lane-by-lane switch was most of a lit fragment shader's time. Same operations, same
      // order, so the same bits.
      float scale[kMaxSubgroupWidth];
      for (uint32_t l = 0; l < w; ++l) scale[l] = 0.0f;
      for (uint32_t c = 0; c < n; ++c)
        for (uint32_t l = 0; l < w; ++l) {
          const float v = std::bit_cast<float>(a[c * w + l]);
          scale[l] += v * v;
        }
      if (op.n == Length) {
        for (uint32_t l = 0; l < w; ++l) d[l] = Blend(s.laneMask[l], std::bit_cast<uint32_t>(std::sqrt(scale[l])), d[l]);
        return;
      }
      for (uint32_t l = 0; l < w; ++l) scale[l] = 1.0f / std::sqrt(scale[l]);
      // The result's slots are not the operand's (each result has its own): restrict lets this loop vectorise.
      const uint32_t* __restrict mask = s.laneMask;
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t* __restrict from = a + c * w;
        uint32_t* __restrict to = d + c * w;
        for (uint32_t l = 0; l < w; ++l)
          to[l] = Blend(mask[l], std::bit_cast<uint32_t>(std::bit_cast<float>(from[l]) * scale[l]), to[l]);
      }
      return;
    }
  }
  ForEachLane(s.active, [&](uint32_t l) {
    switch (op.n) {
      case Length:
        Put<K, true>(d, w, 0, l, std::sqrt(dot(a, a, l)), ~0u);
        break;
      case Distance: {
        T sum = 0;
        for (uint32_t c = 0; c < n; ++c) {
          T v = Get<K>(a, w, c, l) - Get<K>(b, w, c, l);
          sum += v * v;
        }
        Put<K, true>(d, w, 0, l, std::sqrt(sum), ~0u);
        break;
      }
      case Cross: {
        T a0 = Get<K>(a, w, 0, l), a1 = Get<K>(a, w, 1, l), a2 = Get<K>(a, w, 2, l);
        T b0 = Get<K>(b, w, 0, l), b1 = Get<K>(b, w, 1, l), b2 = Get<K>(b, w, 2, l);
        Put<K, true>(d, w, 0, l, a1 * b2 - b1 * a2, ~0u);
        Put<K, true>(d, w, 1, l, a2 * b0 - b2 * a0, ~0u);
        Put<K, true>(d, w, 2, l, a0 * b1 - b0 * a1, ~0u);
        break;
      }
      case Normalize: {
        T inv = T(1) / std::sqrt(dot(a, a, l));
        for (uint32_t c = 0; c < n; ++c) Put<K, true>(d, w, c, l, Get<K>(a, w, c, l) * inv, ~0u);
        break;
      }
      case FaceForward: {  // (N, I, Nref): dot(Nref, I) < 0 ? N : -N
        bool keep = dot(e, b, l) < T(0);
        for (uint32_t c = 0; c < n; ++c) Put<K, true>(d, w, c, l, keep ? Get<K>(a, w, c, l) : -Get<K>(a, w, c, l), ~0u);
        break;
      }
      case Reflect: {  // (I, N): I - 2 dot(N, I) N
        T k = T(2) * dot(b, a, l);
        for (uint32_t c = 0; c < n; ++c) Put<K, true>(d, w, c, l, Get<K>(a, w, c, l) - k * Get<K>(b, w, c, l), ~0u);
        break;
      }
      case Refract: {  // (I, N, eta)
        T eta = Get<K>(e, w, 0, l);
        T ni = dot(b, a, l);
        T k = T(1) - eta * eta * (T(1) - ni * ni);
        for (uint32_t c = 0; c < n; ++c) {
          T v = k < T(0) ? T(0) : eta * Get<K>(a, w, c, l) - (eta * ni + std::sqrt(k)) * Get<K>(b, w, c, l);
          Put<K, true>(d, w, c, l, v, ~0u);
        }
        break;
      }
      default:
        break;
    }
  });
}

// ModfStruct / FrexpStruct: the result is {fraction vector, whole (or exponent) vector}, op.n components each.
template <Scalar K>
void SplitStructOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, n = op.n;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  uint32_t* second = s.Slot(op.dst + n * SlotsOf(K));
  ForEachLane(s.active, [&](uint32_t l) {
    for (uint32_t c = 0; c < n; ++c) {
      T x = Get<K>(a, w, c, l);
      if (op.aux == ModfStruct) {
        T whole;
        T fraction = std::modf(x, &whole);
        Put<K, true>(d, w, c, l, fraction, ~0u);
        Put<K, true>(second, w, c, l, whole, ~0u);
      } else {
        int exponent = 0;
        T mantissa = std::isfinite(x) ? std::frexp(x, &exponent) : x;
        Put<K, true>(d, w, c, l, mantissa, ~0u);
        Put<Scalar::U32, true>(second, w, c, l, static_cast<uint32_t>(exponent), ~0u);
      }
    }
  });
}

// Modf / Frexp: the fraction (mantissa) is the result; the whole part (exponent) is stored through the pointer
// op.b into private memory, op.n components.
template <Scalar K>
void SplitPointerOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, n = op.n, words = s.exe->privateWords;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* p = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t at = p[l];
    const bool inside = at <= words && n * SlotsOf(K) <= words - at;
    for (uint32_t c = 0; c < n; ++c) {
      T x = Get<K>(a, w, c, l);
      T first;
      uint64_t second;
      uint32_t secondSlots = SlotsOf(K);
      if (op.aux == Modf) {
        T whole;
        first = std::modf(x, &whole);
        second = Lane<K>::Encode(whole);
      } else {
        int exponent = 0;
        first = std::isfinite(x) ? std::frexp(x, &exponent) : x;
        second = static_cast<uint32_t>(exponent);
        secondSlots = 1;
      }
      Put<K, true>(d, w, c, l, first, ~0u);
      if (!inside) continue;
      uint32_t* out = s.priv + static_cast<size_t>(at + c * secondSlots) * w + l;
      out[0] = static_cast<uint32_t>(second);
      if (secondSlots == 2) out[w] = static_cast<uint32_t>(second >> 32);
    }
  });
}

uint32_t PackUnorm(float v, float scale) { return static_cast<uint32_t>(std::nearbyint(std::clamp(v, 0.0f, 1.0f) * scale)); }
uint32_t PackSnorm(float v, float scale, uint32_t mask) {
  return static_cast<uint32_t>(static_cast<int32_t>(std::nearbyint(std::clamp(v, -1.0f, 1.0f) * scale))) & mask;
}

// The pack and unpack functions, on 32-bit floats and words.
void PackOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    auto f = [&](uint32_t c) { return Get<Scalar::F32>(a, w, c, l); };
    uint32_t r = 0;
    switch (op.aux) {
      case PackSnorm4x8:
        for (uint32_t c = 0; c < 4; ++c) r |= PackSnorm(f(c), 127.0f, 0xff) << (8 * c);
        break;
      case PackUnorm4x8:
        for (uint32_t c = 0; c < 4; ++c) r |= PackUnorm(f(c), 255.0f) << (8 * c);
        break;
      case PackSnorm2x16:
        for (uint32_t c = 0; c < 2; ++c) r |= PackSnorm(f(c), 32767.0f, 0xffff) << (16 * c);
        break;
      case PackUnorm2x16:
        for (uint32_t c = 0; c < 2; ++c) r |= PackUnorm(f(c), 65535.0f) << (16 * c);
        break;
      case PackHalf2x16:
        r = FloatToHalf(f(0)) | (FloatToHalf(f(1)) << 16);
        break;
      default:
        break;
    }
    d[l] = r;
  });
}

void UnpackOp(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t v = a[l];
    auto put = [&](uint32_t c, float f) { d[c * w + l] = std::bit_cast<uint32_t>(f); };
    switch (op.aux) {
      case UnpackSnorm4x8:
        for (uint32_t c = 0; c < 4; ++c)
          put(c, std::clamp(static_cast<float>(static_cast<int8_t>(v >> (8 * c))) / 127.0f, -1.0f, 1.0f));
        break;
      case UnpackUnorm4x8:
        for (uint32_t c = 0; c < 4; ++c) put(c, static_cast<float>((v >> (8 * c)) & 0xff) / 255.0f);
        break;
      case UnpackSnorm2x16:
        for (uint32_t c = 0; c < 2; ++c)
          put(c, std::clamp(static_cast<float>(static_cast<int16_t>(v >> (16 * c))) / 32767.0f, -1.0f, 1.0f));
        break;
      case UnpackUnorm2x16:
        for (uint32_t c = 0; c < 2; ++c) put(c, static_cast<float>((v >> (16 * c)) & 0xffff) / 65535.0f);
        break;
      case UnpackHalf2x16:
        put(0, HalfToFloat(v & 0xffff));
        put(1, HalfToFloat(v >> 16));
        break;
      default:
        break;
    }
  });
}

// Determinant and MatrixInverse of 2x2, 3x3 and 4x4 matrices (op.aux columns of op.aux rows).
template <Scalar K>
void MatrixOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  const uint32_t w = s.width, n = op.aux;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    T m[4][4];
    for (uint32_t col = 0; col < n; ++col)
      for (uint32_t row = 0; row < n; ++row) m[col][row] = Get<K>(a, w, col * n + row, l);
    // Gauss-Jordan with partial pivoting on a copy: determinant and inverse at once.
    T work[4][8] = {};
    for (uint32_t r = 0; r < n; ++r)
      for (uint32_t c = 0; c < n; ++c) {
        work[r][c] = m[c][r];
        work[r][n + c] = r == c ? T(1) : T(0);
      }
    T det = 1;
    for (uint32_t c = 0; c < n; ++c) {
      uint32_t pivot = c;
      for (uint32_t r = c + 1; r < n; ++r)
        if (std::fabs(work[r][c]) > std::fabs(work[pivot][c])) pivot = r;
      if (pivot != c) {
        for (uint32_t k = 0; k < 2 * n; ++k) std::swap(work[c][k], work[pivot][k]);
        det = -det;
      }
      T p = work[c][c];
      det *= p;
      if (p == T(0)) continue;
      for (uint32_t k = 0; k < 2 * n; ++k) work[c][k] /= p;
      for (uint32_t r = 0; r < n; ++r) {
        if (r == c) continue;
        T f = work[r][c];
        for (uint32_t k = 0; k < 2 * n; ++k) work[r][k] -= f * work[c][k];
      }
    }
    if (op.n == Determinant) {
      Put<K, true>(d, w, 0, l, det, ~0u);
    } else {
      for (uint32_t col = 0; col < n; ++col)
        for (uint32_t row = 0; row < n; ++row) Put<K, true>(d, w, col * n + row, l, work[row][n + col], ~0u);
    }
  });
}

template <typename F>
OpHandler Float1(Scalar k) {
  switch (k) {
    case Scalar::F16: return &Map1<Scalar::F16, Scalar::F16, F>;
    case Scalar::F32: return &Map1<Scalar::F32, Scalar::F32, F>;
    case Scalar::F64: return &Map1<Scalar::F64, Scalar::F64, F>;
    default: return nullptr;
  }
}
template <typename F>
OpHandler Float2(Scalar k) {
  switch (k) {
    case Scalar::F16: return &Map2<Scalar::F16, Scalar::F16, Scalar::F16, F>;
    case Scalar::F32: return &Map2<Scalar::F32, Scalar::F32, Scalar::F32, F>;
    case Scalar::F64: return &Map2<Scalar::F64, Scalar::F64, Scalar::F64, F>;
    default: return nullptr;
  }
}
template <typename F>
OpHandler Float3(Scalar k) {
  switch (k) {
    case Scalar::F16: return &Map3<Scalar::F16, F>;
    case Scalar::F32: return &Map3<Scalar::F32, F>;
    case Scalar::F64: return &Map3<Scalar::F64, F>;
    default: return nullptr;
  }
}
template <typename F, bool Signed>
OpHandler Int1(Scalar k) {
  if constexpr (Signed) {
    switch (k) {
      case Scalar::S8: return &Map1<Scalar::S8, Scalar::S8, F>;
      case Scalar::S16: return &Map1<Scalar::S16, Scalar::S16, F>;
      case Scalar::S32: return &Map1<Scalar::S32, Scalar::S32, F>;
      case Scalar::S64: return &Map1<Scalar::S64, Scalar::S64, F>;
      default: return nullptr;
    }
  } else {
    switch (k) {
      case Scalar::U8: return &Map1<Scalar::U8, Scalar::U8, F>;
      case Scalar::U16: return &Map1<Scalar::U16, Scalar::U16, F>;
      case Scalar::U32: return &Map1<Scalar::U32, Scalar::U32, F>;
      case Scalar::U64: return &Map1<Scalar::U64, Scalar::U64, F>;
      default: return nullptr;
    }
  }
}
template <typename F, bool Signed>
OpHandler Int2(Scalar k) {
  if constexpr (Signed) {
    switch (k) {
      case Scalar::S8: return &Map2<Scalar::S8, Scalar::S8, Scalar::S8, F>;
      case Scalar::S16: return &Map2<Scalar::S16, Scalar::S16, Scalar::S16, F>;
      case Scalar::S32: return &Map2<Scalar::S32, Scalar::S32, Scalar::S32, F>;
      case Scalar::S64: return &Map2<Scalar::S64, Scalar::S64, Scalar::S64, F>;
      default: return nullptr;
    }
  } else {
    switch (k) {
      case Scalar::U8: return &Map2<Scalar::U8, Scalar::U8, Scalar::U8, F>;
      case Scalar::U16: return &Map2<Scalar::U16, Scalar::U16, Scalar::U16, F>;
      case Scalar::U32: return &Map2<Scalar::U32, Scalar::U32, Scalar::U32, F>;
      case Scalar::U64: return &Map2<Scalar::U64, Scalar::U64, Scalar::U64, F>;
      default: return nullptr;
    }
  }
}
template <typename F, bool Signed>
OpHandler Int3(Scalar k) {
  if constexpr (Signed) {
    switch (k) {
      case Scalar::S8: return &Map3<Scalar::S8, F>;
      case Scalar::S16: return &Map3<Scalar::S16, F>;
      case Scalar::S32: return &Map3<Scalar::S32, F>;
      case Scalar::S64: return &Map3<Scalar::S64, F>;
      default: return nullptr;
    }
  } else {
    switch (k) {
      case Scalar::U8: return &Map3<Scalar::U8, F>;
      case Scalar::U16: return &Map3<Scalar::U16, F>;
      case Scalar::U32: return &Map3<Scalar::U32, F>;
      case Scalar::U64: return &Map3<Scalar::U64, F>;
      default: return nullptr;
    }
  }
}

}  // namespace

namespace ops {

OpHandler Glsl(uint32_t ext, Scalar k, uint32_t argumentCount) {
  (void)argumentCount;
  switch (ext) {
    case Round: return Float1<GRound>(k);
    case RoundEven: return Float1<GRoundEven>(k);
    case Trunc: return Float1<GTrunc>(k);
    case FAbs: return Float1<GFAbs>(k);
    case SAbs: return Int1<GSAbs, true>(ToSigned(k));
    case FSign: return Float1<GFSign>(k);
    case SSign: return Int1<GSSign, true>(ToSigned(k));
    case Floor: return Float1<GFloor>(k);
    case Ceil: return Float1<GCeil>(k);
    case Fract: return Float1<GFract>(k);
    case Radians: return Float1<GRadians>(k);
    case Degrees: return Float1<GDegrees>(k);
    case Sin: return Float1<GSin>(k);
    case Cos: return Float1<GCos>(k);
    case Tan: return Float1<GTan>(k);
    case Asin: return Float1<GAsin>(k);
    case Acos: return Float1<GAcos>(k);
    case Atan: return Float1<GAtan>(k);
    case Sinh: return Float1<GSinh>(k);
    case Cosh: return Float1<GCosh>(k);
    case Tanh: return Float1<GTanh>(k);
    case Asinh: return Float1<GAsinh>(k);
    case Acosh: return Float1<GAcosh>(k);
    case Atanh: return Float1<GAtanh>(k);
    case Atan2: return Float2<GAtan2>(k);
    case Pow: return Float2<GPow>(k);
    case Exp: return Float1<GExp>(k);
    case Log: return Float1<GLog>(k);
    case Exp2: return Float1<GExp2>(k);
    case Log2: return Float1<GLog2>(k);
    case Sqrt: return Float1<GSqrt>(k);
    case InverseSqrt: return Float1<GInverseSqrt>(k);
    case FMin: case NMin: return Float2<GFMin>(k);
    case FMax: case NMax: return Float2<GFMax>(k);
    case UMin: return Int2<GIMin, false>(ToUnsigned(k));
    case SMin: return Int2<GIMin, true>(ToSigned(k));
    case UMax: return Int2<GIMax, false>(ToUnsigned(k));
    case SMax: return Int2<GIMax, true>(ToSigned(k));
    case FClamp: case NClamp: return Float3<GFClamp>(k);
    case UClamp: return Int3<GIClamp, false>(ToUnsigned(k));
    case SClamp: return Int3<GIClamp, true>(ToSigned(k));
    case FMix: return Float3<GFMix>(k);
    case Step: return Float2<GStep>(k);
    case SmoothStep: return Float3<GSmoothStep>(k);
    case Fma: return k == Scalar::F32 ? &FmaF32 : Float3<GFma>(k);
    case FindILsb: return Int1<GFindILsb, true>(ToSigned(k));
    case FindSMsb: return Int1<GFindSMsb, true>(ToSigned(k));
    case FindUMsb: return Int1<GFindUMsb, false>(ToUnsigned(k));
    case Ldexp:
      switch (k) {
        case Scalar::F16: return &LdexpOp<Scalar::F16>;
        case Scalar::F32: return &LdexpOp<Scalar::F32>;
        case Scalar::F64: return &LdexpOp<Scalar::F64>;
        default: return nullptr;
      }
    case Length: case Distance: case Cross: case Normalize: case FaceForward: case Reflect: case Refract:
      switch (k) {
        case Scalar::F32: return &GeometricOp<Scalar::F32>;
        case Scalar::F64: return &GeometricOp<Scalar::F64>;
        default: return nullptr;
      }
    case Modf: case Frexp:
      switch (k) {
        case Scalar::F32: return &SplitPointerOp<Scalar::F32>;
        case Scalar::F64: return &SplitPointerOp<Scalar::F64>;
        default: return nullptr;
      }
    case ModfStruct: case FrexpStruct:
      switch (k) {
        case Scalar::F32: return &SplitStructOp<Scalar::F32>;
        case Scalar::F64: return &SplitStructOp<Scalar::F64>;
        default: return nullptr;
      }
    case Determinant: case MatrixInverse:
      switch (k) {
        case Scalar::F32: return &MatrixOp<Scalar::F32>;
        case Scalar::F64: return &MatrixOp<Scalar::F64>;
        default: return nullptr;
      }
    case PackSnorm4x8: case PackUnorm4x8: case PackSnorm2x16: case PackUnorm2x16: case PackHalf2x16:
      return &PackOp;
    case UnpackSnorm4x8: case UnpackUnorm4x8: case UnpackSnorm2x16: case UnpackUnorm2x16: case UnpackHalf2x16:
      return &UnpackOp;
    default:
      return nullptr;
  }
}

}  // namespace ops
}  // namespace crashtest::execution
