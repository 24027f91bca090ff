// The block decoders on the worked examples of the Khronos Data Format Specification ("ETC2 Compressed Texture Image
// Formats", "ASTC Compressed Texture Image Formats") and on blocks whose result follows from the text directly. The
// differential tests against independent decoders are tests/execution/compressed_oracle_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "format/compressed/block_decoder.h"

namespace crashtest::format {
namespace {

// ETC2 and EAC blocks are big-endian 64-bit words.
void StoreBigEndian(uint64_t word, std::byte* out) {
  for (int i = 7; i >= 0; --i, word >>= 8) out[i] = static_cast<std::byte>(word & 0xffu);
}

uint64_t Field(uint64_t value, int low) { return value << low; }

// "assume a base_codeword of 103, a 'table index' of 13, a pixel index of 3 and a multiplier of 2": pixel b
// (x = 0, y = 1) has its index in bits 44-42; every other pixel has index 0 (modifier -1).
std::byte EacExample[8];
void MakeEacExample(uint32_t base, uint32_t multiplier) {
  StoreBigEndian(Field(base, 56) | Field(multiplier, 52) | Field(13, 48) | Field(3, 42), EacExample);
}

TEST(EacDecoder, SpecificationExamples) {
  float values[16];
  MakeEacExample(103, 2);
  DecodeEacChannel(EacExample, false, values);
  EXPECT_EQ(values[4], 668.0f / 2047.0f) << "103 x 8 + 4 - 10 x 2 x 8";
  EXPECT_EQ(values[0], (828.0f - 16.0f) / 2047.0f);
  MakeEacExample(103, 0);  // "the multiplier should now be 1/8"
  DecodeEacChannel(EacExample, false, values);
  EXPECT_EQ(values[4], 818.0f / 2047.0f);
  MakeEacExample(60, 2);  // signed: "480 - 160 = 320"
  DecodeEacChannel(EacExample, true, values);
  EXPECT_EQ(values[4], 320.0f / 1023.0f);
  MakeEacExample(0x80, 0);  // a base of -128 "must be treated as -127": -1016 - 10
  DecodeEacChannel(EacExample, true, values);
  EXPECT_EQ(values[4], -1023.0f / 1023.0f);
  MakeEacExample(103, 2);  // RGBA ETC2's alpha: "103 - 20 = 83"
  DecodeEtc2Alpha(EacExample, values);
  EXPECT_EQ(values[4], 83.0f / 255.0f);
}

// The differential-mode example: R = 28, dR = -4, G = 4, dG = 2, B = 3, dB = 0 give base colours (231, 33, 24) and
// (198, 49, 24); table 0 and pixel index 0 add 2. Without the flip bit, subblock 2 is the right half.
TEST(Etc2Decoder, DifferentialExample) {
  std::byte block[8];
  StoreBigEndian(Field(28, 59) | Field(4, 56) | Field(4, 51) | Field(2, 48) | Field(3, 43) | Field(1, 33), block);
  float texels[16][4];
  DecodeEtc2Rgb(block, false, texels);
  EXPECT_EQ(texels[0][0], 233.0f / 255.0f);
  EXPECT_EQ(texels[0][1], 35.0f / 255.0f);
  EXPECT_EQ(texels[0][2], 26.0f / 255.0f);
  EXPECT_EQ(texels[3][0], 200.0f / 255.0f);
  EXPECT_EQ(texels[3][1], 51.0f / 255.0f);
  EXPECT_EQ(texels[3][3], 1.0f);
  // Punch-through without the opaque bit: index 2 (MSB set, LSB clear) is transparent black, index 0 the base.
  StoreBigEndian(Field(28, 59) | Field(4, 56) | Field(4, 51) | Field(2, 48) | Field(3, 43) | Field(1, 16), block);
  DecodeEtc2Rgb(block, true, texels);
  EXPECT_EQ(texels[0][3], 0.0f) << "pixel a: index 2";
  EXPECT_EQ(texels[0][0], 0.0f);
  EXPECT_EQ(texels[4][0], 231.0f / 255.0f) << "pixel b: index 0, modifier 0";
  EXPECT_EQ(texels[4][3], 1.0f);
}

// A 2D void-extent block with all-ones extents: one UNORM16 colour, read as FP16 with round-to-zero ("if C = 65535,
// then the final result is 1.0").
TEST(AstcDecoder, VoidExtentAndErrorBlocks) {
  const uint64_t lo = 0x1fcu | 0xc00u | (uint64_t{0xfffffffffffffu} << 12);
  const uint64_t hi = 0xffffu | uint64_t{0x8000u} << 16 | uint64_t{0x1237u} << 32;
  std::byte block[16];
  std::memcpy(block, &lo, 8), std::memcpy(block + 8, &hi, 8);
  float texels[kMaxBlockTexels][4];
  DecodeAstc(block, 6, 5, false, texels);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(texels[i][0], 1.0f);
    EXPECT_EQ(texels[i][1], 0.5f);
    EXPECT_EQ(texels[i][2], static_cast<float>(0x1234) / 65536.0f) << "11 significant bits, rounded to zero";
    EXPECT_EQ(texels[i][3], 0.0f);
  }
  // Block mode bits 3..0 = 0000 are reserved: the error colour, opaque magenta.
  const std::byte zeros[16] = {};
  DecodeAstc(zeros, 12, 12, false, texels);
  EXPECT_EQ(texels[143][0], 1.0f);
  EXPECT_EQ(texels[143][1], 0.0f);
  EXPECT_EQ(texels[143][2], 1.0f);
  EXPECT_EQ(texels[143][3], 1.0f);
}

// Bad input never crashes the host: every decoder on random blocks (mostly illegal ASTC encodings, every ETC2 mode)
// gives finite values, in [-1, 1] for the normalised formats (BC6H's floats aside).
TEST(BlockDecoderFor, RandomBlocksDecodeToFiniteValues) {
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (int f = VK_FORMAT_BC1_RGB_UNORM_BLOCK; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f) {
    const BlockDecoder decoder = BlockDecoderFor(static_cast<VkFormat>(f));
    ASSERT_NE(decoder.decode, nullptr) << f;
    const bool floats = f == VK_FORMAT_BC6H_UFLOAT_BLOCK || f == VK_FORMAT_BC6H_SFLOAT_BLOCK;
    for (int round = 0; round < 2000; ++round) {
      std::byte block[16];
      for (std::byte& b : block) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        b = static_cast<std::byte>(state >> 24);
      }
      float texels[kMaxBlockTexels][4];
      decoder.decode(block, texels);
      for (uint32_t t = 0; t < decoder.width * decoder.height; ++t)
        for (float v : texels[t]) {
          ASSERT_TRUE(std::isfinite(v)) << f;
          if (!floats) {
            ASSERT_TRUE(v >= -1.0f && v <= 1.0f) << f << ": " << v;
          }
        }
    }
  }
}

TEST(BlockDecoderFor, FootprintsAndSizes) {
  EXPECT_EQ(BlockDecoderFor(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK).blockBytes, 8u);
  EXPECT_EQ(BlockDecoderFor(VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK).blockBytes, 16u);
  EXPECT_EQ(BlockDecoderFor(VK_FORMAT_EAC_R11G11_SNORM_BLOCK).blockBytes, 16u);
  const BlockDecoder astc = BlockDecoderFor(VK_FORMAT_ASTC_12x10_SRGB_BLOCK);
  EXPECT_NE(astc.decode, nullptr);
  EXPECT_EQ(astc.width, 12u);
  EXPECT_EQ(astc.height, 10u);
  EXPECT_EQ(astc.blockBytes, 16u);
  EXPECT_EQ(BlockDecoderFor(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK).decode, nullptr) << "no ASTC HDR";
}

}  // namespace
}  // namespace crashtest::format
