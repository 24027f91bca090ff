// EAC: the one-channel 64-bit block of R11/RG11 EAC (unsigned and signed) and the alpha block of RGBA ETC2.
// Khronos Data Format Specification, "ETC2 Compressed Texture Image Formats": "Format RGBA ETC2" (alpha),
// "Format Unsigned R11 EAC", "Format Signed R11 EAC", and the RG11 variants (two such blocks, red first).
#include <algorithm>
#include <cstdint>

#include "format/compressed/block_decoder.h"
#include "format/compressed/etc_block.h"

namespace crashtest::format {
namespace {

// "Intensity modifier sets for RGBA ETC2 alpha component", shared by R11/RG11 EAC.
constexpr int8_t kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

struct EacHeader {
  uint32_t base;        // bits 63-56
  int32_t multiplier;   // bits 55-52
  const int8_t* table;  // selected by bits 51-48
};

EacHeader Header(uint64_t bits) {
  return {static_cast<uint32_t>(bits >> 56), static_cast<int32_t>((bits >> 52) & 0xfu),
          kEacModifiers[(bits >> 48) & 0xfu]};
}

// The 3-bit index of pixel k (k = x * 4 + y: the pixels a-p run down the columns): "bits 47-0 ... a 3-bit index for
// each pixel", pixel a in bits 47-45, most significant bit first.
int32_t Modifier(uint64_t bits, const EacHeader& h, int k) {
  return h.table[(bits >> (45 - 3 * k)) & 7u];
}

}  // namespace

void DecodeEtc2Alpha(const std::byte* block, float values[16]) {
  const uint64_t bits = ReadEtcWord(block);
  const EacHeader h = Header(bits);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      // "clamp255(base_codeword + modifier x multiplier)", then divided by 255; a multiplier of 0 gives 0 here
      // (unlike R11, where it stands for 1/8).
      const int32_t v = static_cast<int32_t>(h.base) + Modifier(bits, h, x * 4 + y) * h.multiplier;
      values[y * 4 + x] = static_cast<float>(std::clamp(v, 0, 255)) / 255.0f;
    }
}

void DecodeEacChannel(const std::byte* block, bool isSigned, float values[16]) {
  const uint64_t bits = ReadEtcWord(block);
  const EacHeader h = Header(bits);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int32_t modifier = Modifier(bits, h, x * 4 + y);
      // "If the multiplier_value is zero ... we should set the multiplier to 1/8": the modifier is added unscaled.
      const int32_t term = h.multiplier == 0 ? modifier : modifier * h.multiplier * 8;
      float value;
      if (isSigned) {
        // "clamp2(base_codeword x 8 + modifier x multiplier x 8)" in [-1023, 1023], 1023 representing 1.0; "the
        // value -128 is not allowed; however, if it should occur anyway it must be treated as -127".
        const int32_t base = std::max<int32_t>(static_cast<int8_t>(h.base), -127);
        value = static_cast<float>(std::clamp(base * 8 + term, -1023, 1023)) / 1023.0f;
      } else {
        // "clamp2(base_codeword x 8 + 4 + modifier x multiplier x 8)" in [0, 2047], 2047 representing 1.0.
        value = static_cast<float>(std::clamp(static_cast<int32_t>(h.base) * 8 + 4 + term, 0, 2047)) / 2047.0f;
      }
      values[y * 4 + x] = value;
    }
}

void DecodeEacR11(const std::byte* block, bool isSigned, float texels[16][4]) {
  float red[16];
  DecodeEacChannel(block, isSigned, red);
  for (int i = 0; i < 16; ++i) texels[i][0] = red[i], texels[i][1] = texels[i][2] = 0.0f, texels[i][3] = 1.0f;
}

void DecodeEacRg11(const std::byte* block, bool isSigned, float texels[16][4]) {
  float red[16], green[16];
  DecodeEacChannel(block, isSigned, red);
  DecodeEacChannel(block + 8, isSigned, green);
  for (int i = 0; i < 16; ++i) texels[i][0] = red[i], texels[i][1] = green[i], texels[i][2] = 0.0f, texels[i][3] = 1.0f;
}

}  // namespace crashtest::format
