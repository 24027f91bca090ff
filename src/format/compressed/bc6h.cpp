// BC6H (BPTC float): HDR RGB as 16-bit floats, unsigned (UFLOAT) and signed (SFLOAT). Fourteen modes of one or two
// regions, with endpoints given directly or as deltas from the first. Khronos Data Format Specification, "BPTC
// Compressed Texture Image Formats" (RGB float), which follows the Direct3D 11 BC6H description.
#include <cstdint>
#include <cstring>
#include <mutex>

#include "format/compressed/block_decoder.h"
#include "format/compressed/bptc_tables.h"
#include "format/texel_codec.h"

namespace crashtest::format {
namespace {

using bptc::BlockBits;

// The endpoint fields: W is region 0's first endpoint, X its second, Y and Z region 1's (two-region modes).
enum Field : uint8_t { kRw, kGw, kBw, kRx, kGx, kBx, kRy, kGy, kBy, kRz, kGz, kBz, kD, kFieldCount };

struct Bc6hMode {
  uint8_t value;      // the mode bits as a number (2 bits for modes 0x00/0x01, else 5)
  uint8_t regions;
  bool transformed;   // X, Y, Z are deltas from W
  uint8_t endpointBits;
  uint8_t deltaBits[3];  // R, G, B precision of X, Y, Z (equal to endpointBits when not transformed)
  // Where each header bit after the mode bits goes, as in the format's bit-layout table: "gy4" is bit 4 of G of
  // endpoint Y, "rw0-9" bits 0 to 9 of R of W in order, "rw15-10" bits 15 down to 10.
  const char* layout;
};

constexpr Bc6hMode kModes[14] = {
    {0x00, 2, true, 10, {5, 5, 5},
     "gy4 by4 bz4 rw0-9 gw0-9 bw0-9 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"},
    {0x01, 2, true, 7, {6, 6, 6},
     "gy5 gz4 gz5 rw0-6 bz0 bz1 by4 gw0-6 by5 bz2 gy4 bw0-6 bz3 bz5 bz4 rx0-5 gy0-3 gx0-5 gz0-3 bx0-5 by0-3 ry0-5 "
     "rz0-5 d0-4"},
    {0x02, 2, true, 11, {5, 4, 4},
     "rw0-9 gw0-9 bw0-9 rx0-4 rw10 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-3 bw10 bz1 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"},
    {0x06, 2, true, 11, {4, 5, 4},
     "rw0-9 gw0-9 bw0-9 rx0-3 rw10 gz4 gy0-3 gx0-4 gw10 gz0-3 bx0-3 bw10 bz1 by0-3 ry0-3 bz0 bz2 rz0-3 gy4 bz3 d0-4"},
    {0x0a, 2, true, 11, {4, 4, 5},
     "rw0-9 gw0-9 bw0-9 rx0-3 rw10 by4 gy0-3 gx0-3 gw10 bz0 gz0-3 bx0-4 bw10 by0-3 ry0-3 bz1 bz2 rz0-3 bz4 bz3 d0-4"},
    {0x0e, 2, true, 9, {5, 5, 5},
     "rw0-8 by4 gw0-8 gy4 bw0-8 bz4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"},
    {0x12, 2, true, 8, {6, 5, 5},
     "rw0-7 gz4 by4 gw0-7 bz2 gy4 bw0-7 bz3 bz4 rx0-5 gy0-3 gx0-4 bz0 gz0-3 bx0-4 bz1 by0-3 ry0-5 rz0-5 d0-4"},
    {0x16, 2, true, 8, {5, 6, 5},
     "rw0-7 bz0 by4 gw0-7 gy5 gy4 bw0-7 gz5 bz4 rx0-4 gz4 gy0-3 gx0-5 gz0-3 bx0-4 bz1 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"},
    {0x1a, 2, true, 8, {5, 5, 6},
     "rw0-7 bz1 by4 gw0-7 by5 gy4 bw0-7 bz5 bz4 rx0-4 gz4 gy0-3 gx0-4 bz0 gz0-3 bx0-5 by0-3 ry0-4 bz2 rz0-4 bz3 d0-4"},
    {0x1e, 2, false, 6, {6, 6, 6},
     "rw0-5 gz4 bz0 bz1 by4 gw0-5 gy5 by5 bz2 gy4 bw0-5 gz5 bz3 bz5 bz4 rx0-5 gy0-3 gx0-5 gz0-3 bx0-5 by0-3 ry0-5 "
     "rz0-5 d0-4"},
    {0x03, 1, false, 10, {10, 10, 10}, "rw0-9 gw0-9 bw0-9 rx0-9 gx0-9 bx0-9"},
    {0x07, 1, true, 11, {9, 9, 9}, "rw0-9 gw0-9 bw0-9 rx0-8 rw10 gx0-8 gw10 bx0-8 bw10"},
    {0x0b, 1, true, 12, {8, 8, 8}, "rw0-9 gw0-9 bw0-9 rx0-7 rw11 rw10 gx0-7 gw11 gw10 bx0-7 bw11 bw10"},
    {0x0f, 1, true, 16, {4, 4, 4}, "rw0-9 gw0-9 bw0-9 rx0-3 rw15-10 gx0-3 gw15-10 bx0-3 bw15-10"},
};

// A layout string compiled into one (field, bit) pair per header bit, once.
struct CompiledLayout {
  uint8_t count = 0;
  uint8_t field[82];
  uint8_t bit[82];
};

Field FieldOf(char component, char endpoint) {
  if (component == 'd') return kD;
  const int c = component == 'r' ? 0 : component == 'g' ? 1 : 2;
  const int e = endpoint == 'w' ? 0 : endpoint == 'x' ? 1 : endpoint == 'y' ? 2 : 3;
  return static_cast<Field>(e * 3 + c);
}

CompiledLayout Compile(const char* layout) {
  CompiledLayout out;
  const char* p = layout;
  while (*p != '\0') {
    while (*p == ' ') ++p;
    if (*p == '\0') break;
    const char component = *p++;
    const char endpoint = component == 'd' ? 'd' : *p++;
    int first = 0;
    while (*p >= '0' && *p <= '9') first = first * 10 + (*p++ - '0');
    int last = first;
    if (*p == '-') {
      ++p;
      last = 0;
      while (*p >= '0' && *p <= '9') last = last * 10 + (*p++ - '0');
    }
    const int step = last >= first ? 1 : -1;
    for (int b = first;; b += step) {
      out.field[out.count] = static_cast<uint8_t>(FieldOf(component, endpoint));
      out.bit[out.count] = static_cast<uint8_t>(b);
      ++out.count;
      if (b == last) break;
    }
  }
  return out;
}

const CompiledLayout& LayoutOf(uint32_t modeIndex) {
  static CompiledLayout layouts[14];
  static std::once_flag once;
  std::call_once(once, [] {
    for (uint32_t i = 0; i < 14; ++i) layouts[i] = Compile(kModes[i].layout);
  });
  return layouts[modeIndex];
}

int32_t SignExtend(int32_t value, uint32_t bits) {
  const int32_t shift = 32 - static_cast<int32_t>(bits);
  return static_cast<int32_t>(static_cast<uint32_t>(value) << shift) >> shift;
}

// "Unquantize" an endpoint component of `bits` bits to the 16-bit interpolation range.
int32_t Unquantize(int32_t value, uint32_t bits, bool isSigned) {
  if (!isSigned) {
    if (bits >= 15 || value == 0) return value;
    if (value == (1 << bits) - 1) return 0xffff;
    return ((value << 16) + 0x8000) >> bits;
  }
  if (bits >= 16) return value;
  const bool negative = value < 0;
  int32_t magnitude = negative ? -value : value;
  int32_t result;
  if (magnitude == 0) result = 0;
  else if (magnitude >= (1 << (bits - 1)) - 1) result = 0x7fff;
  else result = ((magnitude << 15) + 0x4000) >> (bits - 1);
  return negative ? -result : result;
}

// The interpolated value scaled to half-float bits ("finish unquantize": x 31/64, or x 31/32 signed).
uint16_t FinishUnquantize(int32_t value, bool isSigned) {
  if (!isSigned) return static_cast<uint16_t>((value * 31) >> 6);
  const bool negative = value < 0;
  const int32_t magnitude = ((negative ? -value : value) * 31) >> 5;
  return static_cast<uint16_t>((negative ? 0x8000 : 0) | magnitude);
}

}  // namespace

void DecodeBc6h(const std::byte* block, bool isSigned, float texels[16][4]) {
  BlockBits bits(block);
  uint32_t modeValue = bits.Read(2);
  if (modeValue > 1) modeValue |= bits.Read(3) << 2;
  int modeIndex = -1;
  for (int i = 0; i < 14; ++i)
    if (kModes[i].value == modeValue) modeIndex = i;
  if (modeIndex < 0) {
    // The reserved mode values (0x13, 0x17, 0x1b, 0x1f) decode to black: "undefined" in the format, zero here.
    for (int t = 0; t < 16; ++t) texels[t][0] = texels[t][1] = texels[t][2] = 0.0f, texels[t][3] = 1.0f;
    return;
  }
  const Bc6hMode& m = kModes[modeIndex];
  const CompiledLayout& layout = LayoutOf(static_cast<uint32_t>(modeIndex));
  int32_t field[kFieldCount] = {};
  for (uint32_t i = 0; i < layout.count; ++i)
    field[layout.field[i]] |= static_cast<int32_t>(bits.Read(1) << layout.bit[i]);

  // Endpoints [endpoint][component]: W, X (region 0), Y, Z (region 1).
  const uint32_t endpoints = 2u * m.regions;
  int32_t e[4][3];
  for (uint32_t i = 0; i < endpoints; ++i)
    for (uint32_t c = 0; c < 3; ++c) e[i][c] = field[i * 3 + c];
  const uint32_t epb = m.endpointBits;
  if (isSigned)
    for (uint32_t c = 0; c < 3; ++c) e[0][c] = SignExtend(e[0][c], epb);
  if (isSigned || m.transformed)
    for (uint32_t i = 1; i < endpoints; ++i)
      for (uint32_t c = 0; c < 3; ++c) e[i][c] = SignExtend(e[i][c], m.deltaBits[c]);
  if (m.transformed) {
    const int32_t mask = (1 << epb) - 1;
    for (uint32_t i = 1; i < endpoints; ++i)
      for (uint32_t c = 0; c < 3; ++c) {
        e[i][c] = (e[0][c] + e[i][c]) & mask;
        if (isSigned) e[i][c] = SignExtend(e[i][c], epb);
      }
  }
  for (uint32_t i = 0; i < endpoints; ++i)
    for (uint32_t c = 0; c < 3; ++c) e[i][c] = Unquantize(e[i][c], epb, isSigned);

  const uint32_t partition = static_cast<uint32_t>(field[kD]);
  const uint32_t indexBits = m.regions == 2 ? 3 : 4;
  const uint8_t* weights = m.regions == 2 ? bptc::kWeights3 : bptc::kWeights4;
  bits.Seek(m.regions == 2 ? 82 : 65);
  for (uint32_t t = 0; t < 16; ++t) {
    const bool anchor = t == 0 || (m.regions == 2 && t == bptc::kAnchor2[partition]);
    const uint32_t index = bits.Read(indexBits - (anchor ? 1u : 0u));
    const uint32_t region = m.regions == 2 ? static_cast<uint32_t>(bptc::kPartitions2[partition][t] - '0') : 0;
    const int32_t w = weights[index];
    for (uint32_t c = 0; c < 3; ++c) {
      const int32_t value = (e[2 * region][c] * (64 - w) + e[2 * region + 1][c] * w + 32) >> 6;
      texels[t][c] = HalfToFloat(FinishUnquantize(value, isSigned));
    }
    texels[t][3] = 1.0f;
  }
}

}  // namespace crashtest::format
