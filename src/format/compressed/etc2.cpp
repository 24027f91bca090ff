// ETC2 colour blocks: RGB ETC2 (individual, differential, T, H and planar modes), RGB ETC2 with punch-through alpha,
// and RGBA ETC2 (an EAC alpha block, eac.cpp, then a colour block). Khronos Data Format Specification, "ETC2
// Compressed Texture Image Formats": "Format RGB ETC2", "Format RGBA ETC2", "Format RGB ETC2 with punchthrough
// alpha". Every mode yields 8-bit values, "divided by 255 for the final floating point representation".
#include <algorithm>
#include <cstdint>

#include "format/compressed/block_decoder.h"
#include "format/compressed/etc_block.h"

namespace crashtest::format {
namespace {

// "ETC2 intensity modifier sets for 'individual' and 'differential' modes": the small and large values a, b.
constexpr int32_t kModifiers[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// "Distance table for ETC2 'T' and 'H' modes".
constexpr int32_t kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};

struct Rgba8 {
  int32_t c[4];
};

uint32_t Bits(uint64_t word, int high, int low) {
  return static_cast<uint32_t>((word >> low) & ((uint64_t{1} << (high - low + 1)) - 1));
}

// Bit replication to 8 bits: "extend_4to8bits", "extend_5to8bits", and the 6- and 7-bit planar channels.
int32_t Extend(uint32_t value, int bits) {
  const uint32_t v = value << (8 - bits);
  return static_cast<int32_t>(v | (v >> bits));
}

int32_t SignExtend3(uint32_t v) { return (v & 4u) != 0 ? static_cast<int32_t>(v) - 8 : static_cast<int32_t>(v); }

int32_t Clamp255(int32_t v) { return std::clamp(v, 0, 255); }

// "the pixel index for pixel d ... in bits 19 (MSB) and 3 (LSB)": pixel k = x * 4 + y (a-d run down column 0).
uint32_t PixelIndex(uint64_t word, int x, int y) {
  const int k = x * 4 + y;
  return static_cast<uint32_t>(((word >> (16 + k)) & 1u) << 1 | ((word >> k) & 1u));
}

// Punch-through: "if (opaque == 0 && MSB == 1 && LSB == 0)" the texel is transparent black.
constexpr uint32_t kTransparentIndex = 2;

void Store(const Rgba8& colour, float out[4]) {
  for (int c = 0; c < 4; ++c) out[c] = static_cast<float>(colour.c[c]) / 255.0f;
}

// Individual and differential modes: two subblocks, each with a base colour and a modifier table.
void DecodeSubblocks(uint64_t word, bool individual, bool opaque, float texels[16][4]) {
  Rgba8 base[2];
  if (individual) {
    for (int c = 0; c < 3; ++c) {
      base[0].c[c] = Extend(Bits(word, 63 - 8 * c, 60 - 8 * c), 4);
      base[1].c[c] = Extend(Bits(word, 59 - 8 * c, 56 - 8 * c), 4);
    }
  } else {
    for (int c = 0; c < 3; ++c) {
      const uint32_t first = Bits(word, 63 - 8 * c, 59 - 8 * c);
      const int32_t delta = SignExtend3(Bits(word, 58 - 8 * c, 56 - 8 * c));
      base[0].c[c] = Extend(first, 5);
      // "these additions will not under- or overflow, or one of the alternative decompression modes would have
      // been chosen"
      base[1].c[c] = Extend(static_cast<uint32_t>(static_cast<int32_t>(first) + delta) & 31u, 5);
    }
  }
  const uint32_t tables[2] = {Bits(word, 39, 37), Bits(word, 36, 34)};
  const bool flip = ((word >> 32) & 1u) != 0;  // "controlled by bit 32, which we dub the 'flip bit'"
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int sub = flip ? (y >= 2) : (x >= 2);
      const uint32_t index = PixelIndex(word, x, y);
      Rgba8 colour{{0, 0, 0, 255}};
      if (!opaque && index == kTransparentIndex) {
        colour.c[3] = 0;
      } else {
        // "Mapping from pixel index values to modifier values": 00 -> a, 01 -> b, 10 -> -a, 11 -> -b; without
        // the opaque bit the small values a and -a are 0.
        const int32_t magnitude = kModifiers[tables[sub]][index & 1u];
        int32_t modifier = (index & 2u) != 0 ? -magnitude : magnitude;
        if (!opaque && (index & 1u) == 0) modifier = 0;
        for (int c = 0; c < 3; ++c) colour.c[c] = Clamp255(base[sub].c[c] + modifier);
      }
      Store(colour, texels[y * 4 + x]);
    }
}

// T and H modes: four paint colours from two 4-bit base colours and a distance, picked by each pixel's index.
void DecodeTH(uint64_t word, bool tMode, bool opaque, float texels[16][4]) {
  int32_t b1[3], b2[3];
  uint32_t distanceIndex;
  if (tMode) {
    b1[0] = Extend(Bits(word, 60, 59) << 2 | Bits(word, 57, 56), 4);
    b1[1] = Extend(Bits(word, 55, 52), 4);
    b1[2] = Extend(Bits(word, 51, 48), 4);
    b2[0] = Extend(Bits(word, 47, 44), 4);
    b2[1] = Extend(Bits(word, 43, 40), 4);
    b2[2] = Extend(Bits(word, 39, 36), 4);
    distanceIndex = Bits(word, 35, 34) << 1 | Bits(word, 32, 32);
  } else {
    b1[0] = Extend(Bits(word, 62, 59), 4);
    b1[1] = Extend(Bits(word, 58, 56) << 1 | Bits(word, 52, 52), 4);
    b1[2] = Extend(Bits(word, 51, 51) << 3 | Bits(word, 49, 47), 4);
    b2[0] = Extend(Bits(word, 46, 43), 4);
    b2[1] = Extend(Bits(word, 42, 39), 4);
    b2[2] = Extend(Bits(word, 38, 35), 4);
    // "the least significant bit is computed as (base col 1 value >= base col 2 value), the 'value' of a color
    // ... being equal to (R << 16) + (G << 8) + B"
    const int32_t v1 = (b1[0] << 16) + (b1[1] << 8) + b1[2], v2 = (b2[0] << 16) + (b2[1] << 8) + b2[2];
    distanceIndex = Bits(word, 34, 34) << 2 | Bits(word, 32, 32) << 1 | (v1 >= v2 ? 1u : 0u);
  }
  const int32_t d = kDistances[distanceIndex];
  Rgba8 paint[4];
  for (int c = 0; c < 3; ++c) {
    if (tMode) {
      paint[0].c[c] = b1[c], paint[1].c[c] = Clamp255(b2[c] + d);
      paint[2].c[c] = b2[c], paint[3].c[c] = Clamp255(b2[c] - d);
    } else {
      paint[0].c[c] = Clamp255(b1[c] + d), paint[1].c[c] = Clamp255(b1[c] - d);
      paint[2].c[c] = Clamp255(b2[c] + d), paint[3].c[c] = Clamp255(b2[c] - d);
    }
  }
  for (Rgba8& p : paint) p.c[3] = 255;
  if (!opaque) paint[kTransparentIndex] = Rgba8{{0, 0, 0, 0}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) Store(paint[PixelIndex(word, x, y)], texels[y * 4 + x]);
}

// Planar mode: three RGB 676 colours O, H and V span a plane; always opaque ("should the 'opaque'-bit anyway be 0
// the decoder should treat it as if it were 1").
void DecodePlanar(uint64_t word, float texels[16][4]) {
  const int32_t o[3] = {Extend(Bits(word, 62, 57), 6), Extend(Bits(word, 56, 56) << 6 | Bits(word, 54, 49), 7),
                        Extend(Bits(word, 48, 48) << 5 | Bits(word, 44, 43) << 3 | Bits(word, 41, 39), 6)};
  const int32_t h[3] = {Extend(Bits(word, 38, 34) << 1 | Bits(word, 32, 32), 6), Extend(Bits(word, 31, 25), 7),
                        Extend(Bits(word, 24, 19), 6)};
  const int32_t v[3] = {Extend(Bits(word, 18, 13), 6), Extend(Bits(word, 12, 6), 7), Extend(Bits(word, 5, 0), 6)};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      Rgba8 colour{{0, 0, 0, 255}};
      // "clamp255((x x (RH - RO) + y x (RV - RO) + 4 x RO + 2) >> 2)"
      for (int c = 0; c < 3; ++c)
        colour.c[c] = Clamp255((x * (h[c] - o[c]) + y * (v[c] - o[c]) + 4 * o[c] + 2) >> 2);
      Store(colour, texels[y * 4 + x]);
    }
}

}  // namespace

void DecodeEtc2Rgb(const std::byte* block, bool punchThrough, float texels[16][4]) {
  const uint64_t word = ReadEtcWord(block);
  // Bit 33: 'D' (differential) for RGB ETC2, 'Op' (opaque) with punch-through alpha, which has no individual mode.
  const bool bit33 = ((word >> 33) & 1u) != 0;
  const bool opaque = !punchThrough || bit33;
  if (!punchThrough && !bit33) return DecodeSubblocks(word, true, true, texels);
  // "R and dR are added, and if the sum is not within the interval [0,31], the 'T' mode is selected. Otherwise, if
  // the sum of G and dG is outside ..., the 'H' mode ... Otherwise, if the sum of B and dB is outside ..., the
  // 'planar' mode".
  auto outside = [&](int high) {
    const int32_t sum = static_cast<int32_t>(Bits(word, high, high - 4)) + SignExtend3(Bits(word, high - 5, high - 7));
    return sum < 0 || sum > 31;
  };
  if (outside(63)) return DecodeTH(word, true, opaque, texels);
  if (outside(55)) return DecodeTH(word, false, opaque, texels);
  if (outside(47)) return DecodePlanar(word, texels);
  DecodeSubblocks(word, false, opaque, texels);
}

void DecodeEtc2Rgba(const std::byte* block, float texels[16][4]) {
  // "int64bitAlpha" is the first 8 bytes, "int64bitColor" the last 8.
  float alpha[16];
  DecodeEtc2Alpha(block, alpha);
  DecodeEtc2Rgb(block + 8, false, texels);
  for (int i = 0; i < 16; ++i) texels[i][3] = alpha[i];
}

}  // namespace crashtest::format
