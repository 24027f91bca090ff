// ASTC LDR blocks of every 2D footprint (4x4 to 12x12), linear and sRGB. Khronos Data Format Specification, "ASTC
// Compressed Texture Image Formats": block mode, partitions, colour endpoint modes, weights and their infill, dual
// planes, void-extent blocks, the LDR profile's error colour. The integer sequences are read by astc_ise.cpp.
// Vulkan reads UNORM ASTC without VK_EXT_astc_decode_mode as the specification's FP16 results ("C is divided by
// 65536 and the infinite-precision result of the division is converted to FP16 with round-to-zero semantics").
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "format/compressed/astc_ise.h"
#include "format/compressed/block_decoder.h"
#include "format/texel_codec.h"

namespace crashtest::format {
namespace {

using astc::BitStream;
using astc::Range;

struct Endpoints {
  int32_t e0[4], e1[4];
  bool hdr = false;  // an HDR endpoint mode: "Decoding from a HDR endpoint results in the error color"
};

struct BlockMode {
  uint32_t gridWidth = 0, gridHeight = 0;
  bool dualPlane = false;
  Range range;
  bool valid = false;
};

uint32_t Bit(uint32_t v, int i) { return (v >> i) & 1u; }

// "ASTC 2D block mode layout" and "ASTC weight range encodings".
BlockMode DecodeBlockMode(uint32_t m) {
  BlockMode mode;
  uint32_t r;
  const uint32_t a = (m >> 5) & 3u, b = (m >> 7) & 3u;
  bool precision = Bit(m, 9) != 0;
  mode.dualPlane = Bit(m, 10) != 0;
  if ((m & 3u) != 0) {
    r = Bit(m, 4) | Bit(m, 0) << 1 | Bit(m, 1) << 2;
    switch ((m >> 2) & 3u) {
      case 0: mode.gridWidth = b + 4, mode.gridHeight = a + 2; break;
      case 1: mode.gridWidth = b + 8, mode.gridHeight = a + 2; break;
      case 2: mode.gridWidth = a + 2, mode.gridHeight = b + 8; break;
      default:
        if (Bit(m, 8) == 0) mode.gridWidth = a + 2, mode.gridHeight = Bit(m, 7) + 6;
        else mode.gridWidth = Bit(m, 7) + 2, mode.gridHeight = a + 2;
        break;
    }
  } else {
    r = Bit(m, 4) | Bit(m, 2) << 1 | Bit(m, 3) << 2;
    if ((m & 0xfu) == 0) return mode;  // "Reserved"
    switch (b) {
      case 0: mode.gridWidth = 12, mode.gridHeight = a + 2; break;
      case 1: mode.gridWidth = a + 2, mode.gridHeight = 12; break;
      case 2:
        // "A+6, B+6" with B in bits 10:9: no dual plane, low precision.
        mode.gridWidth = a + 6, mode.gridHeight = ((m >> 9) & 3u) + 6;
        mode.dualPlane = false, precision = false;
        break;
      default:
        if (a == 0) mode.gridWidth = 6, mode.gridHeight = 10;
        else if (a == 1) mode.gridWidth = 10, mode.gridHeight = 6;
        else return mode;  // reserved (the void-extent pattern is tested before)
        break;
    }
  }
  if (r < 2) return mode;  // "Invalid"
  // R = 2..7 at low precision: 0..1, 0..2, 0..3, 0..4, 0..5, 0..7; at high precision: 0..9, 0..11, 0..15, 0..19,
  // 0..23, 0..31 — the first twelve ISE ranges in order.
  mode.range = astc::RangeAt(static_cast<int>(r - 2 + (precision ? 6 : 0)));
  mode.valid = true;
  return mode;
}

// "Partition Pattern Generation": hash52 and select_partition.
uint32_t Hash52(uint32_t p) {
  p ^= p >> 15, p -= p << 17, p += p << 7, p += p << 4;
  p ^= p >> 5, p += p << 16, p ^= p >> 7, p ^= p >> 3;
  p ^= p << 6, p ^= p >> 17;
  return p;
}

uint32_t SelectPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t count, bool smallBlock) {
  if (smallBlock) x <<= 1, y <<= 1, z <<= 1;
  seed += (count - 1) * 1024;
  const uint32_t rnum = Hash52(seed);
  uint32_t s[12];
  for (int i = 0; i < 8; ++i) s[i] = (rnum >> (4 * i)) & 0xfu;
  s[8] = (rnum >> 18) & 0xfu, s[9] = (rnum >> 22) & 0xfu, s[10] = (rnum >> 26) & 0xfu;
  s[11] = ((rnum >> 30) | (rnum << 2)) & 0xfu;
  for (uint32_t& v : s) v *= v;
  uint32_t sh1, sh2;
  if ((seed & 1u) != 0) sh1 = (seed & 2u) != 0 ? 4 : 5, sh2 = count == 3 ? 6 : 5;
  else sh1 = count == 3 ? 6 : 5, sh2 = (seed & 2u) != 0 ? 4 : 5;
  const uint32_t sh3 = (seed & 0x10u) != 0 ? sh1 : sh2;
  for (int i = 0; i < 8; ++i) s[i] >>= (i % 2 == 0 ? sh1 : sh2);
  for (int i = 8; i < 12; ++i) s[i] >>= sh3;
  uint32_t a = s[0] * x + s[1] * y + s[10] * z + (rnum >> 14);
  uint32_t b = s[2] * x + s[3] * y + s[11] * z + (rnum >> 10);
  uint32_t c = s[4] * x + s[5] * y + s[8] * z + (rnum >> 6);
  uint32_t d = s[6] * x + s[7] * y + s[9] * z + (rnum >> 2);
  a &= 0x3fu, b &= 0x3fu, c &= 0x3fu, d &= 0x3fu;
  if (count < 4) d = 0;
  if (count < 3) c = 0;
  if (a >= b && a >= c && a >= d) return 0;
  if (b >= c && b >= d) return 1;
  if (c >= d) return 2;
  return 3;
}

void BitTransferSigned(int32_t& a, int32_t& b) {
  b >>= 1;
  b |= a & 0x80;
  a >>= 1;
  a &= 0x3f;
  if ((a & 0x20) != 0) a -= 0x40;
}

void Set(int32_t e[4], int32_t r, int32_t g, int32_t b, int32_t a) { e[0] = r, e[1] = g, e[2] = b, e[3] = a; }

// "blue_contract": more precision for colours near grey.
void BlueContract(int32_t e[4], int32_t r, int32_t g, int32_t b, int32_t a) {
  Set(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

void ClampUnorm8(int32_t e[4]) {
  for (int c = 0; c < 4; ++c) e[c] = std::clamp(e[c], 0, 255);
}

// "LDR Endpoint Decoding": the n unquantised values v of one partition to two RGBA endpoints.
Endpoints DecodeEndpoints(uint32_t cem, const uint8_t* values) {
  Endpoints out;
  int32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = values[i];
  switch (cem) {
    case 0:
      Set(out.e0, v[0], v[0], v[0], 0xff), Set(out.e1, v[1], v[1], v[1], 0xff);
      break;
    case 1: {
      const int32_t l0 = (v[0] >> 2) | (v[1] & 0xc0);
      const int32_t l1 = std::min(l0 + (v[1] & 0x3f), 0xff);
      Set(out.e0, l0, l0, l0, 0xff), Set(out.e1, l1, l1, l1, 0xff);
      break;
    }
    case 4:
      Set(out.e0, v[0], v[0], v[0], v[2]), Set(out.e1, v[1], v[1], v[1], v[3]);
      break;
    case 5:
      BitTransferSigned(v[1], v[0]), BitTransferSigned(v[3], v[2]);
      Set(out.e0, v[0], v[0], v[0], v[2]);
      Set(out.e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
      ClampUnorm8(out.e0), ClampUnorm8(out.e1);
      break;
    case 6:
      Set(out.e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, 0xff);
      Set(out.e1, v[0], v[1], v[2], 0xff);
      break;
    case 8: case 12: {
      const int32_t a0 = cem == 12 ? v[6] : 0xff, a1 = cem == 12 ? v[7] : 0xff;
      if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
        Set(out.e0, v[0], v[2], v[4], a0), Set(out.e1, v[1], v[3], v[5], a1);
      } else {
        BlueContract(out.e0, v[1], v[3], v[5], a1), BlueContract(out.e1, v[0], v[2], v[4], a0);
      }
      break;
    }
    case 9: case 13: {
      BitTransferSigned(v[1], v[0]), BitTransferSigned(v[3], v[2]), BitTransferSigned(v[5], v[4]);
      if (cem == 13) BitTransferSigned(v[7], v[6]);
      const int32_t a0 = cem == 13 ? v[6] : 0xff, a1 = cem == 13 ? v[6] + v[7] : 0xff;
      if (v[1] + v[3] + v[5] >= 0) {
        Set(out.e0, v[0], v[2], v[4], a0), Set(out.e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
      } else {
        BlueContract(out.e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
        BlueContract(out.e1, v[0], v[2], v[4], a0);
      }
      ClampUnorm8(out.e0), ClampUnorm8(out.e1);
      break;
    }
    case 10:
      Set(out.e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8, v[4]);
      Set(out.e1, v[0], v[1], v[2], v[5]);
      break;
    default:
      out.hdr = true;  // modes 2, 3, 7, 11, 14, 15
      break;
  }
  return out;
}

// A UNORM16 interpolation result as Vulkan's default FP16 decoding gives it: "if C = 65535, then the final result
// is 1.0 (0x3C00) otherwise C is divided by 65536 and ... converted to FP16 with round-to-zero semantics". FP16
// keeps 11 significant bits; below 2^-14 its subnormal steps (2^-24) are finer than C's, so C/65536 is exact there.
float Unorm16ToFloat(uint32_t c) {
  if (c >= 65535) return 1.0f;
  if (c != 0) {
    const int top = std::bit_width(c) - 1;
    if (top > 10) c &= ~((1u << (top - 10)) - 1);
  }
  return static_cast<float>(c) / 65536.0f;
}

// One colour component from a UNORM16 value: its top 8 bits through the sRGB curve for the sRGB formats (alpha
// stays linear), else the FP16 result.
float Output(uint32_t c16, bool srgb, int component) {
  if (!srgb) return Unorm16ToFloat(c16);
  const float v = static_cast<float>(c16 >> 8) / 255.0f;
  return component == 3 ? v : SrgbToLinear(v);
}

// "The error color is opaque fully-saturated magenta", also for linear formats (where a vector of NaNs is allowed).
void ErrorColour(float out[4]) { out[0] = 1.0f, out[1] = 0.0f, out[2] = 1.0f, out[3] = 1.0f; }

void FillError(uint32_t texels, float out[][4]) {
  for (uint32_t i = 0; i < texels; ++i) ErrorColour(out[i]);
}

// A void-extent block: one UNORM16 colour for the whole block (an HDR one is the error colour in LDR).
void DecodeVoidExtent(const uint64_t words[2], uint32_t texels, bool srgb, float out[][4]) {
  const uint64_t lo = words[0], hi = words[1];
  // "ASTC 2D void-extent block layout": bit 9 is the dynamic range flag, bits 11 and 10 are fixed ones (astcenc, the
  // reference decoder, rejects blocks where they are not).
  if (((lo >> 9) & 1u) != 0 || ((lo >> 10) & 3u) != 3u) return FillError(texels, out);
  const uint32_t minS = (lo >> 12) & 0x1fffu, maxS = (lo >> 25) & 0x1fffu;
  const uint32_t minT = (lo >> 38) & 0x1fffu, maxT = (lo >> 51) & 0x1fffu;
  const bool allOnes = minS == 0x1fffu && maxS == 0x1fffu && minT == 0x1fffu && maxT == 0x1fffu;
  // "Void-Extent blocks where the low coordinate for some texture axis is greater than or equal to the high
  // coordinate" are illegal (unless all are all-ones: a plain constant-colour block).
  if (!allOnes && (minS >= maxS || minT >= maxT)) return FillError(texels, out);
  float colour[4];
  for (int c = 0; c < 4; ++c) colour[c] = Output(static_cast<uint32_t>((hi >> (16 * c)) & 0xffffu), srgb, c);
  for (uint32_t i = 0; i < texels; ++i) std::memcpy(out[i], colour, sizeof colour);
}

// Bit i of the weight stream is "bit 127-i in the block".
BitStream Reversed(const uint64_t words[2]) {
  auto reverse = [](uint64_t v) {
    uint64_t r = 0;
    for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1u) << (63 - i);
    return r;
  };
  return BitStream{{reverse(words[1]), reverse(words[0])}, 128};
}

}  // namespace

void DecodeAstc(const std::byte* block, uint32_t blockWidth, uint32_t blockHeight, bool srgb, float texels[][4]) {
  uint64_t words[2];
  std::memcpy(words, block, sizeof words);  // little-endian host: "the byte at the lowest address contains bits 0..7"
  const BitStream stream{{words[0], words[1]}, 128};
  const uint32_t count = blockWidth * blockHeight;
  const auto lo = static_cast<uint32_t>(words[0]);
  // "if bits [8:0] of the block are 111111100, then the block is a void-extent block"
  if ((lo & 0x1ffu) == 0x1fcu) return DecodeVoidExtent(words, count, srgb, texels);

  const BlockMode mode = DecodeBlockMode(lo & 0x7ffu);
  const uint32_t partitions = ((lo >> 11) & 3u) + 1;
  if (!mode.valid || (mode.dualPlane && partitions == 4) || mode.gridWidth > blockWidth ||
      mode.gridHeight > blockHeight)
    return FillError(count, texels);
  const uint32_t planes = mode.dualPlane ? 2 : 1;
  const uint32_t weightCount = mode.gridWidth * mode.gridHeight * planes;
  const uint32_t weightBits = astc::SequenceBits(mode.range, weightCount);
  // "more than 64 weights", "more than 96 bits" or "fewer than 24 bits" for the weights are illegal.
  if (weightCount > 64 || weightBits > 96 || weightBits < 24) return FillError(count, texels);

  // Colour endpoint modes: one for all partitions, or a class selector and per-partition bits, the high ones
  // "immediately below the texel weight data".
  uint32_t cems[4] = {};
  uint32_t configBits = 17, extraCemBits = 0, partitionSeed = 0;
  if (partitions == 1) {
    cems[0] = (lo >> 13) & 0xfu;
  } else {
    partitionSeed = (lo >> 13) & 0x3ffu;
    const uint32_t field = (lo >> 23) & 0x3fu, selector = field & 3u;
    if (selector == 0) {
      for (uint32_t p = 0; p < partitions; ++p) cems[p] = field >> 2;
      configBits = 29;
    } else {
      extraCemBits = 3 * partitions - 4;
      const uint32_t bits = field | stream.Bits(128 - weightBits - extraCemBits, extraCemBits) << 6;
      for (uint32_t p = 0; p < partitions; ++p) {
        const uint32_t classBit = (bits >> (2 + p)) & 1u, low = (bits >> (2 + partitions + 2 * p)) & 3u;
        cems[p] = (selector - 1 + classBit) << 2 | low;
      }
      configBits = 25 + 3 * partitions;
    }
  }
  uint32_t ccs = 4;  // no component uses the second plane
  if (mode.dualPlane) {
    configBits += 2;
    ccs = stream.Bits(128 - weightBits - extraCemBits - 2, 2);
  }

  // "Data Size Determination": the largest colour range whose values fit the remaining bits.
  uint32_t colourValues = 0;
  for (uint32_t p = 0; p < partitions; ++p) colourValues += ((cems[p] >> 2) + 1) * 2;
  const int32_t remaining = 128 - static_cast<int32_t>(configBits) - static_cast<int32_t>(weightBits);
  if (colourValues > 18 || remaining < static_cast<int32_t>((13 * colourValues + 4) / 5))
    return FillError(count, texels);
  int rangeIndex = astc::kRangeCount - 1;
  while (rangeIndex > 0 &&
         astc::SequenceBits(astc::RangeAt(rangeIndex), colourValues) > static_cast<uint32_t>(remaining))
    --rangeIndex;
  const Range colourRange = astc::RangeAt(rangeIndex);
  // Up to 18 values; DecodeEndpoints reads eight from each partition's first, so the tail stays zero and in range.
  uint8_t colour[18 + 8] = {};
  astc::DecodeSequence(stream, partitions == 1 ? 17 : 29, colourRange, colourValues, colour);
  for (uint32_t i = 0; i < colourValues; ++i) colour[i] = astc::UnquantiseColour(colourRange, colour[i]);
  Endpoints endpoints[4];
  for (uint32_t p = 0, at = 0; p < partitions; ++p) {
    endpoints[p] = DecodeEndpoints(cems[p], colour + at);
    at += ((cems[p] >> 2) + 1) * 2;
  }

  uint8_t weights[64] = {};
  astc::DecodeSequence(Reversed(words), 0, mode.range, weightCount, weights);
  for (uint32_t i = 0; i < weightCount; ++i) weights[i] = astc::UnquantiseWeight(mode.range, weights[i]);
  const uint32_t gridCount = mode.gridWidth * mode.gridHeight;
  auto weightAt = [&](uint32_t index, uint32_t plane) -> uint32_t {
    return index < gridCount ? weights[index * planes + plane] : 0u;
  };

  // "Weight Infill": the texel's position scaled into the grid in 4:4 fixed point, then bilinear weights.
  const uint32_t ds = (1024 + blockWidth / 2) / (blockWidth - 1);
  const uint32_t dt = (1024 + blockHeight / 2) / (blockHeight - 1);
  const bool smallBlock = count < 31;
  for (uint32_t y = 0; y < blockHeight; ++y) {
    for (uint32_t x = 0; x < blockWidth; ++x) {
      float* out = texels[y * blockWidth + x];
      const uint32_t p = partitions == 1 ? 0 : SelectPartition(partitionSeed, x, y, 0, partitions, smallBlock);
      const Endpoints& e = endpoints[p];
      if (e.hdr) {
        ErrorColour(out);
        continue;
      }
      const uint32_t gs = (ds * x * (mode.gridWidth - 1) + 32) >> 6, gt = (dt * y * (mode.gridHeight - 1) + 32) >> 6;
      const uint32_t js = gs >> 4, fs = gs & 0xfu, jt = gt >> 4, ft = gt & 0xfu;
      const uint32_t w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
      const uint32_t v0 = js + jt * mode.gridWidth;
      uint32_t weight[2];
      for (uint32_t plane = 0; plane < planes; ++plane)
        weight[plane] = (weightAt(v0, plane) * w00 + weightAt(v0 + 1, plane) * w01 +
                         weightAt(v0 + mode.gridWidth, plane) * w10 + weightAt(v0 + mode.gridWidth + 1, plane) * w11 +
                         8) >> 4;
      for (int c = 0; c < 4; ++c) {
        const uint32_t i = weight[static_cast<uint32_t>(c) == ccs ? 1 : 0];
        // "Weight Application": endpoints to 16 bits (low byte 0x80 for sRGB), interpolated to a UNORM16 value.
        const auto c0 = static_cast<uint32_t>(e.e0[c]), c1 = static_cast<uint32_t>(e.e1[c]);
        const uint32_t x0 = c0 << 8 | (srgb ? 0x80u : c0), x1 = c1 << 8 | (srgb ? 0x80u : c1);
        out[c] = Output((x0 * (64 - i) + x1 * i + 32) / 64, srgb, c);
      }
    }
  }
}

}  // namespace crashtest::format
