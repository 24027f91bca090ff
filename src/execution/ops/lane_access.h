// Typed access to a value's components in the [slot][lane] register layout (executable.h), and the loops every
// componentwise operation shares. A component of a 64-bit type spans two slots (low word first); 8- and 16-bit
// components keep their zero-extended bit pattern in one slot; half floats compute as float.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "execution/lanes.h"

namespace crashtest::execution {

enum class Scalar : uint8_t { Bool, U8, S8, U16, S16, F16, U32, S32, F32, U64, S64, F64 };

inline constexpr uint32_t SlotsOf(Scalar k) { return k >= Scalar::U64 ? 2 : 1; }
inline constexpr bool IsFloat(Scalar k) { return k == Scalar::F16 || k == Scalar::F32 || k == Scalar::F64; }
inline constexpr bool IsSigned(Scalar k) { return k == Scalar::S8 || k == Scalar::S16 || k == Scalar::S32 || k == Scalar::S64; }
// The same width with the other signedness (floats and booleans unchanged).
inline constexpr Scalar ToUnsigned(Scalar k) {
  switch (k) {
    case Scalar::S8: return Scalar::U8;
    case Scalar::S16: return Scalar::U16;
    case Scalar::S32: return Scalar::U32;
    case Scalar::S64: return Scalar::U64;
    default: return k;
  }
}
inline constexpr Scalar ToSigned(Scalar k) {
  switch (k) {
    case Scalar::U8: return Scalar::S8;
    case Scalar::U16: return Scalar::S16;
    case Scalar::U32: return Scalar::S32;
    case Scalar::U64: return Scalar::S64;
    default: return k;
  }
}

inline constexpr uint32_t BitsOf(Scalar k) {
  switch (k) {
    case Scalar::Bool: return 1;
    case Scalar::U8: case Scalar::S8: return 8;
    case Scalar::U16: case Scalar::S16: case Scalar::F16: return 16;
    case Scalar::U32: case Scalar::S32: case Scalar::F32: return 32;
    default: return 64;
  }
}

// IEEE 754 binary16 <-> binary32, round to nearest even (the conversions of OpFConvert and OpQuantizeToF16).
float HalfToFloat(uint32_t half);
uint32_t FloatToHalf(float value);

template <Scalar K> struct Lane;
template <> struct Lane<Scalar::Bool> {
  using T = bool;
  static T Decode(uint32_t w) { return w != 0; }
  static uint32_t Encode(T v) { return v ? 1u : 0u; }
};
template <> struct Lane<Scalar::U8> {
  using T = uint8_t;
  static T Decode(uint32_t w) { return static_cast<T>(w); }
  static uint32_t Encode(T v) { return v; }
};
template <> struct Lane<Scalar::S8> {
  using T = int8_t;
  static T Decode(uint32_t w) { return static_cast<T>(static_cast<uint8_t>(w)); }
  static uint32_t Encode(T v) { return static_cast<uint8_t>(v); }
};
template <> struct Lane<Scalar::U16> {
  using T = uint16_t;
  static T Decode(uint32_t w) { return static_cast<T>(w); }
  static uint32_t Encode(T v) { return v; }
};
template <> struct Lane<Scalar::S16> {
  using T = int16_t;
  static T Decode(uint32_t w) { return static_cast<T>(static_cast<uint16_t>(w)); }
  static uint32_t Encode(T v) { return static_cast<uint16_t>(v); }
};
template <> struct Lane<Scalar::F16> {
  using T = float;
  static T Decode(uint32_t w) { return HalfToFloat(w); }
  static uint32_t Encode(T v) { return FloatToHalf(v); }
};
template <> struct Lane<Scalar::U32> {
  using T = uint32_t;
  static T Decode(uint32_t w) { return w; }
  static uint32_t Encode(T v) { return v; }
};
template <> struct Lane<Scalar::S32> {
  using T = int32_t;
  static T Decode(uint32_t w) { return static_cast<T>(w); }
  static uint32_t Encode(T v) { return static_cast<uint32_t>(v); }
};
template <> struct Lane<Scalar::F32> {
  using T = float;
  static T Decode(uint32_t w) { return std::bit_cast<float>(w); }
  static uint32_t Encode(T v) { return std::bit_cast<uint32_t>(v); }
};
template <> struct Lane<Scalar::U64> {
  using T = uint64_t;
  static T Decode(uint64_t w) { return w; }
  static uint64_t Encode(T v) { return v; }
};
template <> struct Lane<Scalar::S64> {
  using T = int64_t;
  static T Decode(uint64_t w) { return static_cast<T>(w); }
  static uint64_t Encode(T v) { return static_cast<uint64_t>(v); }
};
template <> struct Lane<Scalar::F64> {
  using T = double;
  static T Decode(uint64_t w) { return std::bit_cast<double>(w); }
  static uint64_t Encode(T v) { return std::bit_cast<uint64_t>(v); }
};

// Component c, lane l of the value whose first slot is `p` (a subgroup of `w` lanes).
template <Scalar K>
inline typename Lane<K>::T Get(const uint32_t* p, uint32_t w, uint32_t c, uint32_t l) {
  if constexpr (SlotsOf(K) == 2) {
    const uint32_t* lo = p + static_cast<size_t>(2 * c) * w;
    return Lane<K>::Decode(Join(lo[l], lo[w + l]));
  } else {
    return Lane<K>::Decode(p[static_cast<size_t>(c) * w + l]);
  }
}

template <Scalar K, bool Full>
inline void Put(uint32_t* p, uint32_t w, uint32_t c, uint32_t l, typename Lane<K>::T v, uint32_t mask) {
  if constexpr (SlotsOf(K) == 2) {
    uint64_t bits = Lane<K>::Encode(v);
    uint32_t* lo = p + static_cast<size_t>(2 * c) * w;
    if constexpr (Full) {
      lo[l] = static_cast<uint32_t>(bits);
      lo[w + l] = static_cast<uint32_t>(bits >> 32);
    } else {
      lo[l] = Blend(mask, static_cast<uint32_t>(bits), lo[l]);
      lo[w + l] = Blend(mask, static_cast<uint32_t>(bits >> 32), lo[w + l]);
    }
  } else {
    uint32_t* d = p + static_cast<size_t>(c) * w + l;
    if constexpr (Full) *d = Lane<K>::Encode(v);
    else *d = Blend(mask, Lane<K>::Encode(v), *d);
  }
}

// dst[c] = F(a[c]) for each of op.n components.
template <Scalar A, Scalar R, typename F, bool Full>
inline void Map1Loop(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l) Put<R, Full>(d, w, c, l, F::Apply(Get<A>(a, w, c, l)), s.laneMask[l]);
}
template <Scalar A, Scalar R, typename F>
void Map1(const Op& op, SubgroupState& s) {
  if (s.full) Map1Loop<A, R, F, true>(op, s);
  else Map1Loop<A, R, F, false>(op, s);
}

// dst[c] = F(a[c], b[c]).
template <Scalar A, Scalar B, Scalar R, typename F, bool Full>
inline void Map2Loop(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l)
      Put<R, Full>(d, w, c, l, F::Apply(Get<A>(a, w, c, l), Get<B>(b, w, c, l)), s.laneMask[l]);
}
template <Scalar A, Scalar B, Scalar R, typename F>
void Map2(const Op& op, SubgroupState& s) {
  if (s.full) Map2Loop<A, B, R, F, true>(op, s);
  else Map2Loop<A, B, R, F, false>(op, s);
}

// dst[c] = F(a[c], b[c], c[c]).
template <Scalar K, typename F, bool Full>
inline void Map3Loop(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  const uint32_t* e = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t c = 0; c < op.n; ++c)
    for (uint32_t l = 0; l < w; ++l)
      Put<K, Full>(d, w, c, l, F::Apply(Get<K>(a, w, c, l), Get<K>(b, w, c, l), Get<K>(e, w, c, l)),
                   s.laneMask[l]);
}
template <Scalar K, typename F>
void Map3(const Op& op, SubgroupState& s) {
  if (s.full) Map3Loop<K, F, true>(op, s);
  else Map3Loop<K, F, false>(op, s);
}

// Copies `n` slots from a to dst for the active lanes.
void CopySlots(const Op& op, SubgroupState& s);

}  // namespace crashtest::execution
