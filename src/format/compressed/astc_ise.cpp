#include "format/compressed/astc_ise.h"

namespace crashtest::format::astc {
namespace {

constexpr Range kRanges[kRangeCount] = {
    {0, 0, 1}, {1, 0, 0}, {0, 0, 2}, {0, 1, 0}, {1, 0, 1}, {0, 0, 3}, {0, 1, 1}, {1, 0, 2}, {0, 0, 4}, {0, 1, 2},
    {1, 0, 3}, {0, 0, 5}, {0, 1, 3}, {1, 0, 4}, {0, 0, 6}, {0, 1, 4}, {1, 0, 5}, {0, 0, 7}, {0, 1, 5}, {1, 0, 6},
    {0, 0, 8}};

uint32_t Bit(uint32_t v, int i) { return (v >> i) & 1u; }

// "The five trits t0 to t4 are obtained by bit manipulations of the 8 bits T[7:0]".
void Trits(uint32_t t, uint32_t out[5]) {
  uint32_t c;
  if (((t >> 2) & 7u) == 7u) {
    c = ((t >> 5) & 7u) << 2 | (t & 3u);
    out[4] = out[3] = 2;
  } else {
    c = t & 31u;
    if (((t >> 5) & 3u) == 3u) out[4] = 2, out[3] = Bit(t, 7);
    else out[4] = Bit(t, 7), out[3] = (t >> 5) & 3u;
  }
  if ((c & 3u) == 3u) {
    out[2] = 2, out[1] = Bit(c, 4), out[0] = Bit(c, 3) << 1 | (Bit(c, 2) & ~Bit(c, 3) & 1u);
  } else if (((c >> 2) & 3u) == 3u) {
    out[2] = 2, out[1] = 2, out[0] = c & 3u;
  } else {
    out[2] = Bit(c, 4), out[1] = (c >> 2) & 3u, out[0] = Bit(c, 1) << 1 | (Bit(c, 0) & ~Bit(c, 1) & 1u);
  }
}

// "The three quints q0 to q2 are obtained by bit manipulations of the 7 bits Q[6:0]" (the specification's
// "q2 = T[6:5]" reads Q[6:5]).
void Quints(uint32_t q, uint32_t out[3]) {
  const uint32_t q0 = Bit(q, 0);
  if (((q >> 1) & 3u) == 3u && ((q >> 5) & 3u) == 0u) {
    out[2] = q0 << 2 | (Bit(q, 4) & ~q0 & 1u) << 1 | (Bit(q, 3) & ~q0 & 1u);
    out[1] = out[0] = 4;
    return;
  }
  uint32_t c;
  if (((q >> 1) & 3u) == 3u) {
    out[2] = 4;
    c = ((q >> 3) & 3u) << 3 | (~(q >> 5) & 3u) << 1 | q0;
  } else {
    out[2] = (q >> 5) & 3u;
    c = q & 31u;
  }
  if ((c & 7u) == 5u) out[1] = 4, out[0] = (c >> 3) & 3u;
  else out[1] = (c >> 3) & 3u, out[0] = c & 7u;
}

// The B operand of the unquantisation tables, written as there: most significant bit first, a letter naming a bit
// of the value's low bits ('a' bit 0, 'b' bit 1, ...), '0' a zero.
uint32_t Pattern(const char* pattern, uint32_t m) {
  uint32_t out = 0;
  for (const char* p = pattern; *p != 0; ++p) out = out << 1 | (*p == '0' ? 0u : Bit(m, *p - 'a'));
  return out;
}

// Bit replication of an n-bit value to `width` bits, "from the most significant bit of the value".
uint32_t Replicate(uint32_t value, int n, int width) {
  uint32_t out = 0;
  int have = 0;
  while (have < width) {
    const int take = n < width - have ? n : width - have;
    out = out << take | value >> (n - take);
    have += take;
  }
  return out;
}

}  // namespace

Range RangeAt(int index) { return kRanges[index]; }

uint32_t SequenceBits(Range range, uint32_t count) {
  return (count * 8 * range.trits + 4) / 5 + (count * 7 * range.quints + 2) / 3 + count * range.bits;
}

uint32_t BitStream::Bits(uint32_t first, uint32_t count) const {
  uint32_t out = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t at = first + i;
    if (at >= end || at >= 128) break;
    out |= static_cast<uint32_t>((words[at / 64] >> (at % 64)) & 1u) << i;
  }
  return out;
}

void DecodeSequence(const BitStream& stream, uint32_t first, Range range, uint32_t count, uint8_t* values) {
  const uint32_t n = range.bits;
  uint32_t at = first;
  // The last group's unused bits read as 0, whatever the block holds after the sequence.
  BitStream bounded = stream;
  if (first + SequenceBits(range, count) < bounded.end) bounded.end = first + SequenceBits(range, count);
  auto take = [&](uint32_t bits) {
    const uint32_t v = bounded.Bits(at, bits);
    at += bits;
    return v;
  };
  if (range.trits != 0) {
    // "ASTC trit-based packing": m0, T[1:0], m1, T[3:2], m2, T[4], m3, T[6:5], m4, T[7].
    static constexpr uint32_t kTritBits[5] = {2, 2, 1, 2, 1};
    for (uint32_t group = 0; group * 5 < count; ++group) {
      uint32_t m[5], t = 0, shift = 0;
      for (int i = 0; i < 5; ++i) {
        m[i] = take(n);
        t |= take(kTritBits[i]) << shift;
        shift += kTritBits[i];
      }
      uint32_t trits[5];
      Trits(t, trits);
      for (uint32_t i = 0; i < 5 && group * 5 + i < count; ++i)
        values[group * 5 + i] = static_cast<uint8_t>(trits[i] << n | m[i]);
    }
  } else if (range.quints != 0) {
    // "ASTC quint-based packing": m0, Q[2:0], m1, Q[4:3], m2, Q[6:5].
    static constexpr uint32_t kQuintBits[3] = {3, 2, 2};
    for (uint32_t group = 0; group * 3 < count; ++group) {
      uint32_t m[3], q = 0, shift = 0;
      for (int i = 0; i < 3; ++i) {
        m[i] = take(n);
        q |= take(kQuintBits[i]) << shift;
        shift += kQuintBits[i];
      }
      uint32_t quints[3];
      Quints(q, quints);
      for (uint32_t i = 0; i < 3 && group * 3 + i < count; ++i)
        values[group * 3 + i] = static_cast<uint8_t>(quints[i] << n | m[i]);
    }
  } else {
    for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<uint8_t>(take(n));
  }
}

uint8_t UnquantiseColour(Range range, uint8_t value) {
  const int n = range.bits;
  if (range.trits == 0 && range.quints == 0) return static_cast<uint8_t>(Replicate(value, n, 8));
  // "ASTC color unquantization parameters": A, B, C and D (the trit or quint), then
  // "T = D * C + B; T = T ^ A; T = (A & 0x80) | (T >> 2)".
  static constexpr const char* kTritB[7] = {"", "000000000", "b000b0bb0", "cb000cbcb", "dcb000dcb", "edcb000ed",
                                            "fedcb000f"};
  static constexpr const char* kQuintB[6] = {"", "000000000", "b0000bb00", "cb0000cbc", "dcb0000dc", "edcb0000e"};
  static constexpr uint32_t kTritC[7] = {0, 204, 93, 44, 22, 11, 5};
  static constexpr uint32_t kQuintC[6] = {0, 113, 54, 26, 13, 6};
  const uint32_t m = value & ((1u << n) - 1), d = value >> n;
  const uint32_t a = (m & 1u) != 0 ? 0x1ffu : 0u;
  const uint32_t b = Pattern(range.trits != 0 ? kTritB[n] : kQuintB[n], m);
  const uint32_t c = range.trits != 0 ? kTritC[n] : kQuintC[n];
  uint32_t t = d * c + b;
  t ^= a;
  return static_cast<uint8_t>((a & 0x80u) | (t >> 2));
}

uint8_t UnquantiseWeight(Range range, uint8_t value) {
  const int n = range.bits;
  uint32_t t;
  if (range.trits == 0 && range.quints == 0) {
    t = Replicate(value, n, 6);
  } else if (n == 0) {
    // "ASTC weight unquantization values" for the ranges without bits.
    static constexpr uint8_t kTrit[3] = {0, 32, 63}, kQuint[5] = {0, 16, 32, 47, 63};
    t = range.trits != 0 ? kTrit[value] : kQuint[value];
  } else {
    static constexpr const char* kTritB[4] = {"", "0000000", "b000b0b", "cb000cb"};
    static constexpr const char* kQuintB[3] = {"", "0000000", "b0000b0"};
    static constexpr uint32_t kTritC[4] = {0, 50, 23, 11};
    static constexpr uint32_t kQuintC[3] = {0, 28, 13};
    const uint32_t m = value & ((1u << n) - 1), d = value >> n;
    const uint32_t a = (m & 1u) != 0 ? 0x7fu : 0u;
    const uint32_t b = Pattern(range.trits != 0 ? kTritB[n] : kQuintB[n], m);
    t = d * (range.trits != 0 ? kTritC[n] : kQuintC[n]) + b;
    t ^= a;
    t = (a & 0x20u) | (t >> 2);
  }
  // "the range is expanded from 0..63 up to 0..64": "if (T > 32) { T += 1; }"
  return static_cast<uint8_t>(t > 32 ? t + 1 : t);
}

}  // namespace crashtest::format::astc
