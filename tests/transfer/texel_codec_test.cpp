// The texel codec: exact bit patterns of the odd formats, the spec's clear-value conversions, and a round trip
// through every uncompressed colour format in the table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "format/format_info.h"
#include "format/color_codec.h"
#include "format/texel_codec.h"

namespace crashtest::format {
namespace {

template <typename T>
T Encoded(VkFormat format, const VkClearColorValue& value) {
  std::byte block[32]{};
  EncodeColor(format, value, block);
  T out;
  std::memcpy(&out, block, sizeof(T));
  return out;
}

VkClearColorValue Floats(float r, float g, float b, float a) {
  VkClearColorValue v;
  v.float32[0] = r, v.float32[1] = g, v.float32[2] = b, v.float32[3] = a;
  return v;
}

TEST(TexelCodec, R5G6B5PacksRedInTheHighBits) {
  EXPECT_EQ(Encoded<uint16_t>(VK_FORMAT_R5G6B5_UNORM_PACK16, Floats(1, 0, 1, 1)), 0xf81f);
  uint16_t green = 0x07e0;
  VkClearColorValue v = DecodeColor(VK_FORMAT_R5G6B5_UNORM_PACK16, reinterpret_cast<const std::byte*>(&green));
  EXPECT_EQ(v.float32[0], 0.0f);
  EXPECT_EQ(v.float32[1], 1.0f);
  EXPECT_EQ(v.float32[2], 0.0f);
  EXPECT_EQ(v.float32[3], 1.0f);  // missing alpha reads as 1
}

TEST(TexelCodec, A2B10G10R10) {
  uint32_t expected = 1u << 30 | 512u << 20 | 0u << 10 | 1023u;  // 0.5 * 1023 = 511.5 rounds to even 512
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_A2B10G10R10_UNORM_PACK32, Floats(1.0f, 0.0f, 0.5f, 1.0f / 3.0f)), expected);
  VkClearColorValue u;
  u.uint32[0] = 5, u.uint32[1] = 6, u.uint32[2] = 7, u.uint32[3] = 3;
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_A2B10G10R10_UINT_PACK32, u), 3u << 30 | 7u << 20 | 6u << 10 | 5u);
}

TEST(TexelCodec, B10G11R11UfloatUsesElevenBitRedAndGreen) {
  uint32_t expected = 0x3c0u | 0x400u << 11 | 0x1c0u << 22;  // R 1.0 (11-bit), G 2.0 (11-bit), B 0.5 (10-bit)
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(1.0f, 2.0f, 0.5f, 1.0f)), expected);
  VkClearColorValue v = DecodeColor(VK_FORMAT_B10G11R11_UFLOAT_PACK32, reinterpret_cast<const std::byte*>(&expected));
  EXPECT_EQ(v.float32[0], 1.0f);
  EXPECT_EQ(v.float32[1], 2.0f);
  EXPECT_EQ(v.float32[2], 0.5f);
  // No sign bit: negative values clear to zero.
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_B10G11R11_UFLOAT_PACK32, Floats(-3.0f, 0.0f, 0.0f, 1.0f)), 0u);
}

TEST(TexelCodec, E5B9G9R9SharedExponent) {
  uint32_t expected = 16u << 27 | 64u << 18 | 128u << 9 | 256u;
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, Floats(1.0f, 0.5f, 0.25f, 1.0f)), expected);
  VkClearColorValue v = DecodeColor(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, reinterpret_cast<const std::byte*>(&expected));
  EXPECT_EQ(v.float32[0], 1.0f);
  EXPECT_EQ(v.float32[1], 0.5f);
  EXPECT_EQ(v.float32[2], 0.25f);
}

TEST(TexelCodec, SrgbClearEncodesLinearToSrgbAndKeepsAlphaLinear) {
  uint32_t word = Encoded<uint32_t>(VK_FORMAT_R8G8B8A8_SRGB, Floats(0.5f, 0.001f, 1.0f, 0.2f));
  EXPECT_EQ(word & 0xffu, 188u);          // 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188
  EXPECT_EQ((word >> 8) & 0xffu, 3u);     // linear segment: 12.92 * 0.001 * 255 = 3.29
  EXPECT_EQ((word >> 16) & 0xffu, 255u);
  EXPECT_EQ(word >> 24, 51u);             // alpha is linear: 0.2 * 255
  uint32_t bgra = Encoded<uint32_t>(VK_FORMAT_B8G8R8A8_SRGB, Floats(0.5f, 0.0f, 0.0f, 1.0f));
  EXPECT_EQ(bgra, 0xffbc0000u);           // BGRA order: red lands in byte 2
  uint8_t encoded[4] = {188, 0, 255, 255};
  VkClearColorValue v = DecodeColor(VK_FORMAT_R8G8B8A8_SRGB, reinterpret_cast<const std::byte*>(encoded));
  EXPECT_NEAR(v.float32[0], 0.5029f, 1e-4f);
}

TEST(TexelCodec, NormalizedAndIntegerConversions) {
  uint8_t raw[3] = {0x80, 0x81, 0x7f};
  for (int i = 0; i < 3; ++i) {
    VkClearColorValue v = DecodeColor(VK_FORMAT_R8_SNORM, reinterpret_cast<const std::byte*>(raw + i));
    EXPECT_EQ(v.float32[0], i == 2 ? 1.0f : -1.0f) << i;  // -128 and -127 both map to -1.0
  }
  VkClearColorValue u;
  u.uint32[0] = 0x1ff, u.uint32[1] = 0, u.uint32[2] = 0, u.uint32[3] = 0;
  EXPECT_EQ(Encoded<uint8_t>(VK_FORMAT_R8_UINT, u), 0xff);  // truncated to the component width
  VkClearColorValue s;
  s.int32[0] = -1, s.int32[1] = 0, s.int32[2] = 0, s.int32[3] = 0;
  EXPECT_EQ(Encoded<uint16_t>(VK_FORMAT_R16_SINT, s), 0xffff);
  EXPECT_EQ(Encoded<uint16_t>(VK_FORMAT_R10X6_UNORM_PACK16, Floats(1.0f, 0, 0, 0)), 0xffc0);  // value in the MSBs
  EXPECT_EQ(Encoded<uint32_t>(VK_FORMAT_B8G8R8A8_UNORM, Floats(1.0f, 0.0f, 0.0f, 1.0f)), 0xffff0000u);
  EXPECT_EQ(Encoded<uint8_t>(VK_FORMAT_R8_UNORM, Floats(2.0f, 0, 0, 0)), 255);  // clamped
}

TEST(TexelCodec, HalfFloats) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(FloatToHalf(1e-7f), 0x0002);  // denormal: 1e-7 / 2^-24 = 1.68 -> 2
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7c00)));
  EXPECT_EQ(Encoded<uint64_t>(VK_FORMAT_R16G16B16A16_SFLOAT, Floats(1.0f, -2.0f, 0.5f, 0.0f)),
            0x0000'3800'c000'3c00ull);
}

TEST(TexelCodec, DepthAndStencilPlanes) {
  std::byte block[4]{};
  EncodeDepth(VK_FORMAT_D24_UNORM_S8_UINT, 1.0f, block);
  uint32_t d24;
  std::memcpy(&d24, block, 4);
  EXPECT_EQ(d24, 0x00ffffffu);
  EncodeDepth(VK_FORMAT_D16_UNORM, 0.25f, block);
  uint16_t d16;
  std::memcpy(&d16, block, 2);
  EXPECT_EQ(d16, 16384);  // 0.25 * 65535 = 16383.75
  EXPECT_NEAR(DecodeDepth(VK_FORMAT_D16_UNORM, block), 0.25f, 1e-4f);
  EncodeDepth(VK_FORMAT_D32_SFLOAT_S8_UINT, 0.375f, block);
  EXPECT_EQ(DecodeDepth(VK_FORMAT_D32_SFLOAT_S8_UINT, block), 0.375f);
  EXPECT_EQ(ValueKindOf(VK_FORMAT_S8_UINT), ValueKind::kUint);
}

// Every uncompressed single-texel colour format: encoding a value, decoding it and encoding again gives the same
// bytes, and normalized formats decode close to what was encoded.
TEST(TexelCodec, RoundTripEveryUncompressedColourFormat) {
  int tested = 0;
  for (const FormatInfo* info = FormatTableBegin(); info != FormatTableEnd(); ++info) {
    if (info->compression != CompressionScheme::kNone || info->planeCount != 0 || IsDepthOrStencil(info->format) ||
        info->blockExtent.width != 1)
      continue;
    ColorCodec codec(info->format);
    ASSERT_TRUE(codec.valid()) << info->name;
    VkClearColorValue value;
    switch (codec.kind()) {
      case ValueKind::kFloat: value = Floats(-0.5f, 0.25f, 0.75f, 1.0f); break;
      case ValueKind::kUint: value.uint32[0] = 1, value.uint32[1] = 2, value.uint32[2] = 3, value.uint32[3] = 1; break;
      case ValueKind::kSint: value.int32[0] = -1, value.int32[1] = 1, value.int32[2] = -2, value.int32[3] = 1; break;
    }
    std::byte first[32]{}, second[32]{};
    codec.Encode(value, first);
    VkClearColorValue decoded = codec.Decode(first);
    codec.Encode(decoded, second);
    EXPECT_EQ(std::memcmp(first, second, info->blockSize), 0) << info->name;
    bool unorm = info->components[0].numericFormat == NumericFormat::kUnorm;
    if (unorm && info->components[0].bits >= 8 && info->componentCount == 4) {
      for (int c = 1; c < 4; ++c) {
        EXPECT_NEAR(decoded.float32[c], value.float32[c], 1.0f / 255) << info->name << " " << c;
      }
    }
    ++tested;
  }
  EXPECT_GT(tested, 100);
}

}  // namespace
}  // namespace crashtest::format
