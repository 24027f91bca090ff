// ColorCodec's four-at-a-time path for RGBA8/BGRA8 UNORM (format/unorm4x8.h) against the formulas of "Conversion
// from Normalized Fixed-Point to Floating-Point" and "... Floating-Point to Normalized Fixed-Point" (Vulkan 1.3,
// 3.9.1/3.9.2) that the generic path and the 8-bit tables implement: c / 255 exactly rounded, and round to
// nearest even of clamp(f, 0, 1) * 255 with NaN as 0.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "format/color_codec.h"

namespace crashtest::format {
namespace {

uint8_t ReferenceEncode(float f) {
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return 255;
  return static_cast<uint8_t>(std::nearbyint(static_cast<double>(f) * 255.0));
}

struct Layout {
  VkFormat format;
  int byteOf[4];  // the byte holding R, G, B, A
};
const Layout kLayouts[] = {{VK_FORMAT_R8G8B8A8_UNORM, {0, 1, 2, 3}}, {VK_FORMAT_B8G8R8A8_UNORM, {2, 1, 0, 3}}};

TEST(ColorCodecUnorm4x8, DecodesEveryCodeAsItsExactQuotient) {
  for (const Layout& layout : kLayouts) {
    const ColorCodec codec(layout.format);
#if defined(CRASHTEST_HAVE_UNORM4X8)
    EXPECT_NE(codec.unorm4x8(), Unorm4x8::kNone) << layout.format;
#endif
    for (uint32_t code = 0; code < 256; ++code) {
      for (int slot = 0; slot < 4; ++slot) {
        std::byte texel[4] = {std::byte{7}, std::byte{7}, std::byte{7}, std::byte{7}};
        texel[layout.byteOf[slot]] = static_cast<std::byte>(code);
        const VkClearColorValue value = codec.Decode(texel);
        const auto expected = static_cast<float>(static_cast<double>(code) / 255.0);
        ASSERT_EQ(std::bit_cast<uint32_t>(value.float32[slot]), std::bit_cast<uint32_t>(expected))
            << "format " << layout.format << " code " << code << " slot " << slot;
      }
    }
  }
}

// The encoding values of EncodesAsTheGenericRounding: specials, every rounding boundary (k + 0.5) / 255 and its
// float neighbours, where single-precision scaling would differ, and random values around [0, 1].
std::vector<float> EncodingValues() {
  std::mt19937 random(1234);
  std::uniform_real_distribution<float> unit(-0.25f, 1.25f);
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::denorm_min()};
  // The rounding boundaries (k + 0.5) / 255 and their float neighbours, where single-precision scaling would differ.
  for (int k = 0; k < 255; ++k) {
    const auto boundary = static_cast<float>((k + 0.5) / 255.0);
    values.push_back(boundary);
    values.push_back(std::nextafter(boundary, 0.0f));
    values.push_back(std::nextafter(boundary, 1.0f));
  }
  for (int i = 0; i < 20000; ++i) values.push_back(unit(random));
  return values;
}

TEST(ColorCodecUnorm4x8, EncodesAsTheGenericRounding) {
  const std::vector<float> values = EncodingValues();
  for (const Layout& layout : kLayouts) {
    const ColorCodec codec(layout.format);
    for (size_t i = 0; i < values.size(); ++i) {
      VkClearColorValue value;
      for (int slot = 0; slot < 4; ++slot) value.float32[slot] = values[(i + static_cast<size_t>(slot) * 7) % values.size()];
      std::byte texel[4];
      codec.Encode(value, texel);
      for (int slot = 0; slot < 4; ++slot)
        ASSERT_EQ(static_cast<uint8_t>(texel[layout.byteOf[slot]]), ReferenceEncode(value.float32[slot]))
            << "format " << layout.format << " value " << value.float32[slot] << " slot " << slot;
    }
  }
}

#if defined(CRASHTEST_HAVE_UNORM4X8)
// The fragment stage's quad writes (2x2 texels from four values per component) give EncodeUnorm4x8's bytes.
TEST(ColorCodecUnorm4x8, QuadEncodingGivesEachTexelsBytes) {
  const std::vector<float> values = EncodingValues();
  for (const Unorm4x8 order : {Unorm4x8::kRgba, Unorm4x8::kBgra}) {
    for (size_t i = 0; i < values.size(); i += 3) {
      float component[4][4];  // [component][texel]
      for (int c = 0; c < 4; ++c)
        for (int t = 0; t < 4; ++t) component[c][t] = values[(i + static_cast<size_t>(c * 4 + t) * 5) % values.size()];
      std::byte rows[2][8];
      EncodeUnorm4x8Quad(_mm_loadu_ps(component[0]), _mm_loadu_ps(component[1]), _mm_loadu_ps(component[2]),
                         _mm_loadu_ps(component[3]), order, rows[0], rows[1]);
      for (int t = 0; t < 4; ++t) {
        std::byte expected[4];
        EncodeUnorm4x8(_mm_setr_ps(component[0][t], component[1][t], component[2][t], component[3][t]), order,
                       expected);
        ASSERT_EQ(std::memcmp(&rows[t >> 1][(t & 1) * 4], expected, 4), 0) << "texel " << t << " of values " << i;
      }
    }
  }
}
#endif

}  // namespace
}  // namespace crashtest::format
