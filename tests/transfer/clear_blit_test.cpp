// Clears (whole ranges, depth/stencil aspects, attachment rects), blits (linear gradient, mirroring, conversion,
// block-compressed sources) and resolves, byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_surfaces.h"
#include "transfer/surface_ops.h"
#include "format/texel_codec.h"

namespace crashtest::transfer::test {
namespace {

float TexelFloat(TestImage& image, uint32_t x, uint32_t y, uint32_t layer = 0) {
  float value;
  std::memcpy(&value, image.Texel(x, y, layer), 4);
  return value;
}

TEST(ClearColorImage, SrgbRangeWithRemainingLayersAndLevels) {
  TestImage image(VK_FORMAT_R8G8B8A8_SRGB, {4, 4, 1}, 3, 3);
  VkClearColorValue color{};
  color.float32[0] = 0.5f, color.float32[1] = 0.0f, color.float32[2] = 1.0f, color.float32[3] = 1.0f;
  VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_REMAINING_MIP_LEVELS, 1, VK_REMAINING_ARRAY_LAYERS};
  ClearColorImage(image.surface, color, {&range, 1});
  for (uint32_t mip = 0; mip < 3; ++mip)
    for (uint32_t layer = 0; layer < 3; ++layer) {
      const std::byte* texel = image.Block(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 0, mip, layer);
      bool cleared = mip >= 1 && layer >= 1;
      EXPECT_EQ(texel[0], cleared ? B(188) : B(0xcd)) << mip << " " << layer;  // linear 0.5 -> sRGB 188
      EXPECT_EQ(texel[2], cleared ? B(255) : B(0xcd));
    }
  // Every texel of a cleared level, the last one too.
  uint32_t last = 4 >> 1;
  EXPECT_EQ(image.Block(VK_IMAGE_ASPECT_COLOR_BIT, last - 1, last - 1, 0, 1, 2)[0], B(188));
}

TEST(ClearColorImage, MultisampledAndIntegerTruncation) {
  TestImage image(VK_FORMAT_R8G8_UINT, {3, 2, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT);
  VkClearColorValue color{};
  color.uint32[0] = 0x123, color.uint32[1] = 7;
  VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  ClearColorImage(image.surface, color, {&range, 1});
  for (uint32_t s = 0; s < 4; ++s) {
    EXPECT_EQ(image.Texel(2, 1)[s * 2], B(0x23));  // truncated to 8 bits
    EXPECT_EQ(image.Texel(2, 1)[s * 2 + 1], B(7));
  }
}

TEST(ClearDepthStencilImage, OnlyTheRequestedAspect) {
  TestImage image(VK_FORMAT_D24_UNORM_S8_UINT, {4, 4, 1});
  VkImageSubresourceRange depth{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  ClearDepthStencilImage(image.surface, {1.0f, 0x42}, {&depth, 1});
  uint32_t d;
  std::memcpy(&d, image.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 3, 3), 4);
  EXPECT_EQ(d, 0x00ffffffu);
  EXPECT_EQ(*image.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 3, 3), B(0xcd));
  VkImageSubresourceRange stencil{VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1};
  ClearDepthStencilImage(image.surface, {0.0f, 0x142}, {&stencil, 1});
  EXPECT_EQ(*image.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 2), B(0x42));
  std::memcpy(&d, image.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 3, 3), 4);
  EXPECT_EQ(d, 0x00ffffffu);
}

TEST(ClearAttachment, RectAndLayersRelativeToTheView) {
  TestImage image(VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1}, 2, 4);
  // A view of mip 1, layers 1..3, reinterpreted as R32_UINT.
  AttachmentView view{&image.surface, VK_FORMAT_R32_UINT, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                      {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1, 3}};
  VkClearValue value{};
  value.color.uint32[0] = 0x11223344u;
  VkClearRect rect{{{1, 2}, {2, 1}}, 1, 2};  // layers 2..3 of the image
  ClearAttachment(view, VK_IMAGE_ASPECT_COLOR_BIT, value, rect);
  for (uint32_t layer = 0; layer < 4; ++layer)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) {
        uint32_t texel;
        std::memcpy(&texel, image.Block(VK_IMAGE_ASPECT_COLOR_BIT, x, y, 0, 1, layer), 4);
        bool inside = layer >= 2 && x >= 1 && x < 3 && y == 2;
        EXPECT_EQ(texel, inside ? 0x11223344u : 0xcdcdcdcdu) << layer << " " << x << "," << y;
      }
}

TEST(ClearAttachment, DepthStencilAndThreeDSlices) {
  TestImage depth(VK_FORMAT_D32_SFLOAT_S8_UINT, {4, 4, 1});
  AttachmentView view{&depth.surface, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_VIEW_TYPE_2D,
                      {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1}};
  VkClearValue value{};
  value.depthStencil = {0.25f, 9};
  ClearAttachment(view, VK_IMAGE_ASPECT_STENCIL_BIT | VK_IMAGE_ASPECT_DEPTH_BIT, value, {{{0, 0}, {4, 4}}, 0, 1});
  float d;
  std::memcpy(&d, depth.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 3, 3), 4);
  EXPECT_EQ(d, 0.25f);
  EXPECT_EQ(*depth.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 2, 1), B(9));

  TestImage volume(VK_FORMAT_R8_UNORM, {2, 2, 4}, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TYPE_3D);
  AttachmentView slices{&volume.surface, VK_FORMAT_R8_UNORM, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                        {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1, 2}};
  VkClearValue white{};
  white.color.float32[0] = 1.0f;
  ClearAttachment(slices, VK_IMAGE_ASPECT_COLOR_BIT, white, {{{0, 0}, {2, 2}}, 1, 1});  // slice 2
  EXPECT_EQ(*volume.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 2), B(255));
  EXPECT_EQ(*volume.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1), B(0xcd));
}

TEST(BlitImage, LinearUpscaleOfATwoByTwoGradient) {
  TestImage src(VK_FORMAT_R32_SFLOAT, {2, 2, 1}), dst(VK_FORMAT_R32_SFLOAT, {4, 4, 1});
  const float values[2][2] = {{0.0f, 1.0f}, {2.0f, 3.0f}};  // [y][x]
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) std::memcpy(src.Texel(x, y), &values[y][x], 4);
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                      {{0, 0, 0}, {2, 2, 1}}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {{0, 0, 0}, {4, 4, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_LINEAR);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      // Texel centre (x + 0.5) maps to source u = (x + 0.5) / 2; the filter weighs texels at u - 0.5, clamped.
      float fx = std::clamp((x + 0.5f) / 2 - 0.5f, 0.0f, 1.0f), fy = std::clamp((y + 0.5f) / 2 - 0.5f, 0.0f, 1.0f);
      float expected = (1 - fy) * ((1 - fx) * values[0][0] + fx * values[0][1]) +
                       fy * ((1 - fx) * values[1][0] + fx * values[1][1]);
      EXPECT_FLOAT_EQ(TexelFloat(dst, x, y), expected) << x << "," << y;
    }
  EXPECT_FLOAT_EQ(TexelFloat(dst, 1, 0), 0.25f);
}

TEST(BlitImage, NearestMirrorsWhenOffsetsAreReversed) {
  TestImage src(VK_FORMAT_R8_UINT, {4, 1, 1}), dst(VK_FORMAT_R8_UINT, {4, 1, 1});
  for (uint32_t x = 0; x < 4; ++x) *src.Texel(x, 0) = B(x + 1);
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                      {{0, 0, 0}, {4, 1, 1}}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {{4, 0, 0}, {0, 1, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_NEAREST);
  for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(*dst.Texel(x, 0), B(4 - x));
}

TEST(BlitImage, ConvertsFormatsAndDownscales) {
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}), dst(VK_FORMAT_R32G32B32A32_SFLOAT, {2, 2, 1});
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      std::byte* t = src.Texel(x, y);
      t[0] = B(x < 2 ? 0 : 255), t[1] = B(y < 2 ? 0 : 255), t[2] = B((x + y) % 2 ? 255 : 0), t[3] = B(255);
    }
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                      {{0, 0, 0}, {4, 4, 1}}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {{0, 0, 0}, {2, 2, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_LINEAR);
  float rgba[4];
  std::memcpy(rgba, dst.Texel(1, 0), 16);
  EXPECT_FLOAT_EQ(rgba[0], 1.0f);
  EXPECT_FLOAT_EQ(rgba[1], 0.0f);
  EXPECT_FLOAT_EQ(rgba[2], 0.5f);  // a checkerboard averages to half
  EXPECT_FLOAT_EQ(rgba[3], 1.0f);
}

TEST(BlitImage, DepthNearestCopiesTheStoredBits) {
  TestImage src(VK_FORMAT_D16_UNORM, {2, 2, 1}), dst(VK_FORMAT_D16_UNORM, {4, 4, 1});
  src.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1)[0] = B(0x34);
  src.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1)[1] = B(0x12);
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
                      {{0, 0, 0}, {2, 2, 1}}, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, {{0, 0, 0}, {4, 4, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 3, 2)[1], B(0x12));
  EXPECT_EQ(dst.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1)[1], B(0xcd));
}

// A BC1 source is decoded block by block, partial blocks at the edge of a 6x6 level included. Every block holds
// red (index 0), blue (1) and the 1/3 and 2/3 mixes (2, 3) along its first row, red elsewhere.
TEST(BlitImage, DecodesABc1Source) {
  TestImage src(VK_FORMAT_BC1_RGB_UNORM_BLOCK, {6, 6, 1}), dst(VK_FORMAT_R8G8B8A8_UNORM, {6, 6, 1});
  const std::byte block[8] = {B(0x00), B(0xf8), B(0x1f), B(0x00), B(0xe4), B(0), B(0), B(0)};  // c0 red > c1 blue
  for (uint32_t by = 0; by < 2; ++by)
    for (uint32_t bx = 0; bx < 2; ++bx) std::memcpy(src.Block(VK_IMAGE_ASPECT_COLOR_BIT, bx, by), block, 8);
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                      {{0, 0, 0}, {6, 6, 1}}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {{0, 0, 0}, {6, 6, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_NEAREST);
  auto rgba = [&](uint32_t x, uint32_t y) {
    const std::byte* t = dst.Texel(x, y);
    return std::to_integer<uint32_t>(t[0]) | std::to_integer<uint32_t>(t[1]) << 8 |
           std::to_integer<uint32_t>(t[2]) << 16 | std::to_integer<uint32_t>(t[3]) << 24;
  };
  EXPECT_EQ(rgba(0, 0), 0xff0000ffu);
  EXPECT_EQ(rgba(1, 0), 0xffff0000u);
  EXPECT_EQ(rgba(2, 0), 0xff5500aau);  // (2 red + blue) / 3
  EXPECT_EQ(rgba(3, 0), 0xffaa0055u);
  EXPECT_EQ(rgba(5, 0), 0xffff0000u);  // texel 1 of the partial block to the right
  EXPECT_EQ(rgba(5, 5), 0xff0000ffu);
}

// An ASTC source is decoded through its own footprint (6x5 here, not 4x4): four constant-colour (void-extent) blocks
// of a 12x10 image, each texel taking the colour of the block that holds it.
TEST(BlitImage, DecodesAnAstcSourceByItsFootprint) {
  TestImage src(VK_FORMAT_ASTC_6x5_UNORM_BLOCK, {12, 10, 1}), dst(VK_FORMAT_R8G8B8A8_UNORM, {12, 10, 1});
  const uint64_t lo = 0x1fcu | 0xc00u | (uint64_t{0xfffffffffffffu} << 12);  // all-ones extents: constant colour
  const uint64_t colours[4] = {0xffff00000000ffffu, 0xffff0000ffff0000u, 0xffffffff00000000u, 0xffffffffffffffffu};
  for (uint32_t b = 0; b < 4; ++b) {
    std::byte* block = src.Block(VK_IMAGE_ASPECT_COLOR_BIT, b % 2, b / 2);
    std::memcpy(block, &lo, 8), std::memcpy(block + 8, &colours[b], 8);
  }
  VkImageBlit2 region{VK_STRUCTURE_TYPE_IMAGE_BLIT_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                      {{0, 0, 0}, {12, 10, 1}}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {{0, 0, 0}, {12, 10, 1}}};
  BlitImage(src.surface, dst.surface, {&region, 1}, VK_FILTER_NEAREST);
  auto rgba = [&](uint32_t x, uint32_t y) {
    const std::byte* t = dst.Texel(x, y);
    return std::to_integer<uint32_t>(t[0]) | std::to_integer<uint32_t>(t[1]) << 8 |
           std::to_integer<uint32_t>(t[2]) << 16 | std::to_integer<uint32_t>(t[3]) << 24;
  };
  EXPECT_EQ(rgba(5, 4), 0xff0000ffu);  // block (0, 0): red
  EXPECT_EQ(rgba(6, 4), 0xff00ff00u);  // block (1, 0): green
  EXPECT_EQ(rgba(5, 5), 0xffff0000u);  // block (0, 1): blue
  EXPECT_EQ(rgba(11, 9), 0xffffffffu);
}

TEST(ResolveImage, AveragesFourSamplesAndTakesSampleZeroOfIntegers) {
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT), dst(VK_FORMAT_R8G8B8A8_UNORM, {2, 2, 1});
  const unsigned samples[4] = {0, 100, 200, 255};
  for (uint32_t s = 0; s < 4; ++s)
    for (uint32_t c = 0; c < 4; ++c) src.Texel(1, 1)[s * 4 + c] = B(c == 3 ? 255 : samples[s]);
  VkImageResolve2 region{VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 1, 0},
                         {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {1, 1, 1}};
  ResolveImage(src.surface, dst.surface, {&region, 1});
  EXPECT_EQ(dst.Texel(0, 0)[0], B(139));  // (0 + 100 + 200 + 255) / 4 = 138.75
  EXPECT_EQ(dst.Texel(0, 0)[3], B(255));
  EXPECT_EQ(dst.Texel(1, 1)[0], B(0xcd));

  TestImage isrc(VK_FORMAT_R32_UINT, {1, 1, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT), idst(VK_FORMAT_R32_UINT, {1, 1, 1});
  for (uint32_t s = 0; s < 4; ++s) {
    uint32_t v = 10 + s;
    std::memcpy(isrc.Texel(0, 0) + s * 4, &v, 4);
  }
  VkImageResolve2 one{VK_STRUCTURE_TYPE_IMAGE_RESOLVE_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {1, 1, 1}};
  ResolveImage(isrc.surface, idst.surface, {&one, 1});
  uint32_t resolved;
  std::memcpy(&resolved, idst.Texel(0, 0), 4);
  EXPECT_EQ(resolved, 10u);
}

}  // namespace
}  // namespace crashtest::transfer::test
