// S3TC: BC1 (colour, optional punch-through alpha), BC2 (colour + explicit 4-bit alpha), BC3 (colour + RGTC alpha).
// Khronos Data Format Specification, "S3TC Compressed Texture Image Formats".
#include <cstring>

#include "format/compressed/block_decoder.h"

namespace crashtest::format {
namespace {

uint16_t Load16(const std::byte* at) {
  uint16_t v;
  std::memcpy(&v, at, sizeof v);  // little-endian host, as the blocks are defined
  return v;
}

uint32_t Load32(const std::byte* at) {
  uint32_t v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

// The colour half of a block: two RGB565 endpoints and 2-bit indices. "If color0 > color1" (as 16-bit numbers) the
// two interpolated colours are at 1/3 and 2/3; otherwise (BC1 only) the third is the midpoint and the fourth is
// black, transparent for BC1 with alpha. BC2 and BC3 always use the four-colour mode.
void DecodeColor(const std::byte* block, bool alwaysFourColors, bool punchThrough, float texels[16][4]) {
  const uint16_t c0 = Load16(block), c1 = Load16(block + 2);
  const uint32_t indices = Load32(block + 4);
  float palette[4][4];
  for (int e = 0; e < 2; ++e) {
    const uint16_t c = e == 0 ? c0 : c1;
    palette[e][0] = static_cast<float>(c >> 11) / 31.0f;
    palette[e][1] = static_cast<float>((c >> 5) & 63u) / 63.0f;
    palette[e][2] = static_cast<float>(c & 31u) / 31.0f;
    palette[e][3] = 1.0f;
  }
  if (alwaysFourColors || c0 > c1) {
    for (int k = 0; k < 3; ++k) {
      palette[2][k] = (2.0f * palette[0][k] + palette[1][k]) / 3.0f;
      palette[3][k] = (palette[0][k] + 2.0f * palette[1][k]) / 3.0f;
    }
    palette[2][3] = palette[3][3] = 1.0f;
  } else {
    for (int k = 0; k < 3; ++k) palette[2][k] = (palette[0][k] + palette[1][k]) / 2.0f;
    palette[2][3] = 1.0f;
    palette[3][0] = palette[3][1] = palette[3][2] = 0.0f;
    palette[3][3] = punchThrough ? 0.0f : 1.0f;
  }
  for (int i = 0; i < 16; ++i) std::memcpy(texels[i], palette[(indices >> (2 * i)) & 3u], sizeof texels[i]);
}

}  // namespace

void DecodeBc1(const std::byte* block, bool alpha, float texels[16][4]) { DecodeColor(block, false, alpha, texels); }

void DecodeBc2(const std::byte* block, float texels[16][4]) {
  DecodeColor(block + 8, true, false, texels);
  uint64_t alpha;
  std::memcpy(&alpha, block, sizeof alpha);
  for (int i = 0; i < 16; ++i) texels[i][3] = static_cast<float>((alpha >> (4 * i)) & 15u) / 15.0f;
}

void DecodeBc3(const std::byte* block, float texels[16][4]) {
  DecodeColor(block + 8, true, false, texels);
  float alpha[16];
  DecodeRgtcChannel(block, false, alpha);
  for (int i = 0; i < 16; ++i) texels[i][3] = alpha[i];
}

}  // namespace crashtest::format
