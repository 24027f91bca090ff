// log2(sqrt(m)) for the level of detail (16.6.7: λ_base = log2(ρ), ρ the square root of the larger squared
// gradient length), without the square root and the libm call that made it an eighth of a textured draw's time.
// Computed as ½ log2(m) with the exponent taken from the bits and an odd series for the mantissa, within about
// 1e-6 of libm's log2(sqrt(m)). The spec leaves λ's computation approximate, and a device resolves levels to only
// mipmapPrecisionBits (4 or 8 bits) of a level anyway. Every sampling path calls the same function, so a quad
// sampled on the fast path and a lane sampled on the general one still choose the same levels.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace crashtest::sampling {

// Whether HalfLog2 keeps libm's answer for `m`: zero, subnormals, infinities, NaN and negative values (none come
// from squared lengths but a NaN).
inline bool HalfLog2Edge(float m) { return std::bit_cast<uint32_t>(m) - 0x00800000u >= 0x7f000000u; }

// HalfLog2 of a normal positive `m`, without branches (loops over many values vectorise).
inline float HalfLog2Normal(float m) {
  const auto bits = std::bit_cast<uint32_t>(m);
  const float mantissa = std::bit_cast<float>((bits & 0x007fffffu) | 0x3f800000u);  // [1, 2)
  const bool halve = mantissa > 1.41421356f;  // to [√½, √2), where the series converges fast
  const float f = halve ? mantissa * 0.5f : mantissa;
  const float exponent = static_cast<float>(static_cast<int32_t>(bits >> 23) - (halve ? 126 : 127));
  // ln f = 2 atanh(t) = 2 (t + t³/3 + t⁵/5 + t⁷/7 + t⁹/9 + …), t = (f - 1) / (f + 1), |t| ≤ 0.1716.
  const float t = (f - 1.0f) / (f + 1.0f), s = t * t;
  const float series = t * (2.0f + s * (2.0f / 3.0f + s * (2.0f / 5.0f + s * (2.0f / 7.0f + s * (2.0f / 9.0f)))));
  return 0.5f * (exponent + series * 1.44269504f);
}

// HalfLog2Normal of four values (GCC/Clang vector extension), the same operations per element.
using HalfLog2Float4 = float __attribute__((vector_size(16)));
inline HalfLog2Float4 HalfLog2Normal4(HalfLog2Float4 m) {
  using Int4 = int32_t __attribute__((vector_size(16)));
  const auto bits = std::bit_cast<Int4>(m);
  const auto mantissa = std::bit_cast<HalfLog2Float4>((bits & 0x007fffff) | 0x3f800000);
  const Int4 halve = mantissa > 1.41421356f;
  const HalfLog2Float4 f = halve ? mantissa * 0.5f : mantissa;
  const HalfLog2Float4 exponent = __builtin_convertvector((bits >> 23) - (halve ? Int4{} + 126 : Int4{} + 127),
                                                          HalfLog2Float4);
  const HalfLog2Float4 t = (f - 1.0f) / (f + 1.0f), s = t * t;
  const HalfLog2Float4 series =
      t * (2.0f + s * (2.0f / 3.0f + s * (2.0f / 5.0f + s * (2.0f / 7.0f + s * (2.0f / 9.0f)))));
  return 0.5f * (exponent + series * 1.44269504f);
}

inline float HalfLog2(float m) { return HalfLog2Edge(m) ? std::log2(std::sqrt(m)) : HalfLog2Normal(m); }

}  // namespace crashtest::sampling
