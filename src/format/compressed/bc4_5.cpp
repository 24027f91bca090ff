// RGTC: BC4 (one channel) and BC5 (two channels), unsigned and signed; the channel block is also BC3's alpha.
// Khronos Data Format Specification, "RGTC Compressed Texture Image Formats".
#include <algorithm>
#include <cstring>

#include "format/compressed/block_decoder.h"

namespace crashtest::format {

void DecodeRgtcChannel(const std::byte* block, bool isSigned, float values[16]) {
  uint64_t bits;
  std::memcpy(&bits, block, sizeof bits);  // little-endian host
  // Endpoints as stored: 0..255, or -128..127 for the signed formats.
  int32_t e0, e1;
  if (isSigned) {
    e0 = static_cast<int8_t>(bits & 0xffu);
    e1 = static_cast<int8_t>((bits >> 8) & 0xffu);
  } else {
    e0 = static_cast<int32_t>(bits & 0xffu);
    e1 = static_cast<int32_t>((bits >> 8) & 0xffu);
  }
  // "RED_0 = red_0 / 127.0 when red_0 > -128, -1.0 when red_0 = -128" (255.0 unsigned).
  const float scale = isSigned ? 127.0f : 255.0f;
  const float r0 = std::max(static_cast<float>(e0) / scale, -1.0f);
  const float r1 = std::max(static_cast<float>(e1) / scale, -1.0f);
  // "red_0 > red_1" on the stored values: six interpolated values at k/7; otherwise four at k/5, then the range's
  // minimum and maximum.
  float palette[8] = {r0, r1};
  if (e0 > e1) {
    for (int k = 1; k <= 6; ++k) palette[k + 1] = (static_cast<float>(7 - k) * r0 + static_cast<float>(k) * r1) / 7.0f;
  } else {
    for (int k = 1; k <= 4; ++k) palette[k + 1] = (static_cast<float>(5 - k) * r0 + static_cast<float>(k) * r1) / 5.0f;
    palette[6] = isSigned ? -1.0f : 0.0f;
    palette[7] = 1.0f;
  }
  for (int i = 0; i < 16; ++i) values[i] = palette[(bits >> (16 + 3 * i)) & 7u];
}

void DecodeBc4(const std::byte* block, bool isSigned, float texels[16][4]) {
  float red[16];
  DecodeRgtcChannel(block, isSigned, red);
  for (int i = 0; i < 16; ++i) texels[i][0] = red[i], texels[i][1] = texels[i][2] = 0.0f, texels[i][3] = 1.0f;
}

void DecodeBc5(const std::byte* block, bool isSigned, float texels[16][4]) {
  float red[16], green[16];
  DecodeRgtcChannel(block, isSigned, red);
  DecodeRgtcChannel(block + 8, isSigned, green);
  for (int i = 0; i < 16; ++i) texels[i][0] = red[i], texels[i][1] = green[i], texels[i][2] = 0.0f, texels[i][3] = 1.0f;
}

}  // namespace crashtest::format
