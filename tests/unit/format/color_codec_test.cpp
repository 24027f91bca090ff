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

TEST(ColorCodecUnorm4x8, EncodesAsTheGenericRounding) {
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

}  // namespace
}  // namespace crashtest::format
