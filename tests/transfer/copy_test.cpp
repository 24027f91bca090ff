// Byte-exact copies: buffer to buffer, fills and updates, buffer <-> image with row lengths, offsets, layers, 3D
// slices, depth/stencil aspects, block-compressed and multi-planar formats, and image to image.
#include <gtest/gtest.h>

#include "test_surfaces.h"
#include "transfer/surface_ops.h"

namespace crashtest::transfer::test {
namespace {

TEST(CopyBuffer, RegionsLandAtTheirOffsets) {
  TestBuffer src = PatternBuffer(64);
  TestBuffer dst(64, B(0xee));
  VkBufferCopy2 regions[] = {{VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 3, 10, 5},
                             {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 40, 0, 4},
                             {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 60, 62, 8}};  // outside: skipped
  CopyBuffer(src.view(), dst.view(), regions);
  for (size_t i = 0; i < 64; ++i) {
    std::byte expected = B(0xee);
    if (i >= 10 && i < 15) expected = src.bytes[i - 10 + 3];
    if (i < 4) expected = src.bytes[40 + i];
    EXPECT_EQ(dst.bytes[i], expected) << i;
  }
}

TEST(FillBuffer, WritesTheWordAndRoundsWholeSizeDown) {
  TestBuffer dst(14, B(0xee));
  FillBuffer(dst.view(), 4, VK_WHOLE_SIZE, 0x04030201u);  // 10 bytes remain: 8 are filled
  const unsigned expected[14] = {0xee, 0xee, 0xee, 0xee, 1, 2, 3, 4, 1, 2, 3, 4, 0xee, 0xee};
  for (size_t i = 0; i < 14; ++i) EXPECT_EQ(dst.bytes[i], B(expected[i])) << i;
  TestBuffer big(1 << 16);
  FillBuffer(big.view(), 0, big.bytes.size(), 0xdeadbeefu);
  for (size_t i = 0; i < big.bytes.size(); i += 4) ASSERT_EQ(big.At<uint32_t>(i), 0xdeadbeefu) << i;
}

TEST(UpdateBuffer, CopiesTheDataAtTheOffset) {
  TestBuffer dst(16);
  const std::byte data[4] = {B(9), B(8), B(7), B(6)};
  UpdateBuffer(dst.view(), 8, data);
  EXPECT_EQ(dst.At<uint32_t>(8), 0x06070809u);
  EXPECT_EQ(dst.At<uint32_t>(4), 0u);
  UpdateBuffer(dst.view(), 14, data);  // would overrun: skipped
  EXPECT_EQ(dst.At<uint16_t>(14), 0u);
}

// Buffer -> image -> buffer of a 3x2 region at (1,1) of mip 1, layers 1..2, with bufferRowLength 5 and
// bufferImageHeight 3: every texel of the image comes from the address the spec's formula gives.
TEST(CopyBufferImage, RowLengthImageHeightOffsetsAndLayers) {
  TestImage image(VK_FORMAT_R8G8B8A8_UNORM, {16, 8, 1}, 2, 3);
  TestBuffer buffer = PatternBuffer(5 * 3 * 2 * 4 + 8, 3);
  VkBufferImageCopy2 region = BufferImageRegion(8, 5, 3, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 2, {1, 1, 0}, {3, 2, 1});
  CopyBufferToImage(buffer.view(), image.surface, {&region, 1});
  for (uint32_t layer = 0; layer < 3; ++layer)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        const std::byte* texel = image.Block(VK_IMAGE_ASPECT_COLOR_BIT, x, y, 0, 1, layer);
        bool inRegion = layer >= 1 && x >= 1 && x < 4 && y >= 1 && y < 3;
        for (uint32_t c = 0; c < 4; ++c) {
          std::byte expected = B(0xcd);
          if (inRegion) expected = buffer.bytes[8 + (((layer - 1) * 3 + (y - 1)) * 5 + (x - 1)) * 4 + c];
          ASSERT_EQ(texel[c], expected) << layer << " " << x << "," << y << " " << c;
        }
      }
  EXPECT_EQ(image.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 0, 0, 1)[0], B(0xcd));  // mip 0 untouched

  TestBuffer back(3 * 2 * 2 * 4);
  VkBufferImageCopy2 tight = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 2, {1, 1, 0}, {3, 2, 1});
  CopyImageToBuffer(image.surface, back.view(), {&tight, 1});
  for (uint32_t layer = 0; layer < 2; ++layer)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 3; ++x)
        for (uint32_t c = 0; c < 4; ++c)
          EXPECT_EQ(back.bytes[((layer * 2 + y) * 3 + x) * 4 + c], buffer.bytes[8 + ((layer * 3 + y) * 5 + x) * 4 + c]);
}

TEST(CopyBufferImage, WholeImageFastPathAndThreeDSlices) {
  // rowAlignment 1: rows and slices are contiguous, so the copy is a single memcpy.
  TestImage image(VK_FORMAT_R16_UINT, {4, 3, 5}, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TYPE_3D, 1);
  TestBuffer buffer = PatternBuffer(4 * 3 * 5 * 2);
  VkBufferImageCopy2 whole = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, {0, 0, 0}, {4, 3, 5});
  CopyBufferToImage(buffer.view(), image.surface, {&whole, 1});
  EXPECT_EQ(image.bytes, buffer.bytes);
  // Slices 2..3 of the padded layout: z addresses depth slices.
  TestImage padded(VK_FORMAT_R16_UINT, {4, 3, 5}, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TYPE_3D);
  VkBufferImageCopy2 slices = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, {0, 0, 2}, {4, 3, 2});
  CopyBufferToImage(buffer.view(), padded.surface, {&slices, 1});
  EXPECT_EQ(padded.Block(VK_IMAGE_ASPECT_COLOR_BIT, 3, 2, 3)[1], buffer.bytes[((1 * 3 + 2) * 4 + 3) * 2 + 1]);
  EXPECT_EQ(padded.Block(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1)[0], B(0xcd));
}

TEST(CopyBufferImage, D24S8AspectsUseTheirOwnBufferLayouts) {
  TestImage image(VK_FORMAT_D24_UNORM_S8_UINT, {3, 2, 1});
  TestBuffer depth(3 * 2 * 4), stencil(3 * 2);
  for (uint32_t i = 0; i < 6; ++i) {
    uint32_t d = 0x00100000u + i;  // D24 occupies 4 bytes in the buffer
    std::memcpy(depth.bytes.data() + i * 4, &d, 4);
    stencil.bytes[i] = B(0xa0 + i);
  }
  VkBufferImageCopy2 regions[] = {
      BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1, {0, 0, 0}, {3, 2, 1})};
  CopyBufferToImage(depth.view(), image.surface, regions);
  VkBufferImageCopy2 stencilRegion = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1, {0, 0, 0}, {3, 2, 1});
  CopyBufferToImage(stencil.view(), image.surface, {&stencilRegion, 1});
  uint32_t d;
  std::memcpy(&d, image.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 2, 1), 4);
  EXPECT_EQ(d, 0x00100005u);
  EXPECT_EQ(*image.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 1, 1), B(0xa4));
  TestBuffer out(6);
  CopyImageToBuffer(image.surface, out.view(), {&stencilRegion, 1});
  EXPECT_EQ(out.bytes, stencil.bytes);
}

TEST(CopyBufferImage, Bc1CopiesWholeBlocksIncludingThePartialEdgeBlock) {
  // 6x6 texels of BC1 are 2x2 blocks of 8 bytes; the region reaches the edge, so its extent is not a multiple of 4.
  TestImage image(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, {6, 6, 1});
  TestBuffer buffer = PatternBuffer(2 * 2 * 8);
  VkBufferImageCopy2 region = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, {0, 0, 0}, {6, 6, 1});
  CopyBufferToImage(buffer.view(), image.surface, {&region, 1});
  for (uint32_t by = 0; by < 2; ++by)
    for (uint32_t bx = 0; bx < 2; ++bx)
      EXPECT_EQ(std::memcmp(image.Block(VK_IMAGE_ASPECT_COLOR_BIT, bx, by), buffer.bytes.data() + (by * 2 + bx) * 8, 8), 0);
  // One block at texel (4,4) with bufferRowLength 8 texels (2 blocks).
  TestBuffer one(32);
  VkBufferImageCopy2 corner = BufferImageRegion(8, 8, 0, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1, {4, 4, 0}, {2, 2, 1});
  CopyImageToBuffer(image.surface, one.view(), {&corner, 1});
  EXPECT_EQ(std::memcmp(one.bytes.data() + 8, buffer.bytes.data() + 24, 8), 0);
}

TEST(CopyBufferImage, TwoPlane420Planes) {
  TestImage image(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, {4, 4, 1});
  TestBuffer luma = PatternBuffer(16, 1), chroma = PatternBuffer(2 * 2 * 2, 100);
  VkBufferImageCopy2 regions[] = {
      BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1, {0, 0, 0}, {4, 4, 1})};
  CopyBufferToImage(luma.view(), image.surface, regions);
  VkBufferImageCopy2 chromaRegion = BufferImageRegion(0, 0, 0, VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1, {0, 0, 0}, {2, 2, 1});
  CopyBufferToImage(chroma.view(), image.surface, {&chromaRegion, 1});
  EXPECT_EQ(*image.Block(VK_IMAGE_ASPECT_PLANE_0_BIT, 3, 2), luma.bytes[2 * 4 + 3]);
  EXPECT_EQ(image.Block(VK_IMAGE_ASPECT_PLANE_1_BIT, 1, 1)[1], chroma.bytes[(1 * 2 + 1) * 2 + 1]);
  TestBuffer out(8);
  CopyImageToBuffer(image.surface, out.view(), {&chromaRegion, 1});
  EXPECT_EQ(out.bytes, chroma.bytes);
}

TEST(CopyImage, PartialRegionBetweenLayers) {
  TestImage src(VK_FORMAT_R32_UINT, {8, 8, 1}, 1, 2), dst(VK_FORMAT_R32_SFLOAT, {8, 8, 1}, 1, 3);
  for (size_t i = 0; i < src.bytes.size(); ++i) src.bytes[i] = B(static_cast<unsigned>(i * 13) & 0xffu);
  VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 1}, {2, 3, 0},
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 2, 1}, {5, 0, 0}, {3, 4, 1}};
  CopyImage(src.surface, dst.surface, {&region, 1});
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      bool inside = x >= 5 && y < 4;
      const std::byte* expected = inside ? src.Texel(x - 5 + 2, y + 3, 1) : nullptr;
      for (uint32_t c = 0; c < 4; ++c)
        ASSERT_EQ(dst.Texel(x, y, 2)[c], inside ? expected[c] : B(0xcd)) << x << "," << y;
    }
}

TEST(CopyImage, ThreeDSlicesToArrayLayers) {
  TestImage src(VK_FORMAT_R8_UNORM, {4, 4, 3}, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TYPE_3D);
  TestImage dst(VK_FORMAT_R8_UNORM, {4, 4, 1}, 1, 3);
  for (uint32_t z = 0; z < 3; ++z) *src.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, z) = B(10 + z);
  VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 1},
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 2}, {0, 0, 0}, {4, 4, 2}};
  CopyImage(src.surface, dst.surface, {&region, 1});
  EXPECT_EQ(*dst.Texel(1, 2, 0), B(11));
  EXPECT_EQ(*dst.Texel(1, 2, 1), B(12));
  EXPECT_EQ(*dst.Texel(1, 2, 2), B(0xcd));
}

TEST(CopyImage, CompressedToSizeCompatibleUncompressed) {
  // A BC1 block (8 bytes, 4x4 texels) copies to one R32G32_UINT texel: the extent is in source texels.
  TestImage src(VK_FORMAT_BC1_RGB_UNORM_BLOCK, {8, 8, 1}), dst(VK_FORMAT_R32G32_UINT, {2, 2, 1});
  for (size_t i = 0; i < src.bytes.size(); ++i) src.bytes[i] = B(static_cast<unsigned>(i) & 0xffu);
  VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {4, 0, 0},
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 0, 0}, {4, 8, 1}};
  CopyImage(src.surface, dst.surface, {&region, 1});
  EXPECT_EQ(std::memcmp(dst.Texel(1, 0), src.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 0), 8), 0);
  EXPECT_EQ(std::memcmp(dst.Texel(1, 1), src.Block(VK_IMAGE_ASPECT_COLOR_BIT, 1, 1), 8), 0);
  EXPECT_EQ(dst.Texel(0, 0)[0], B(0xcd));
  EXPECT_EQ(dst.Texel(0, 1)[0], B(0xcd));
  // Two block rows do not fit below row 1 of a 2-texel-high destination: skipped, nothing written.
  region.dstOffset = {0, 1, 0};
  CopyImage(src.surface, dst.surface, {&region, 1});
  EXPECT_EQ(dst.Texel(0, 1)[0], B(0xcd));
}

TEST(CopyImage, DepthAndStencilOfD24S8) {
  TestImage src(VK_FORMAT_D24_UNORM_S8_UINT, {2, 2, 1}), dst(VK_FORMAT_D24_UNORM_S8_UINT, {2, 2, 1});
  *src.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 1, 1) = B(0x77);
  src.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1)[2] = B(0x12);
  VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr,
                      {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1}, {0, 0, 0},
                      {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}};
  CopyImage(src.surface, dst.surface, {&region, 1});
  EXPECT_EQ(*dst.Block(VK_IMAGE_ASPECT_STENCIL_BIT, 1, 1), B(0x77));
  EXPECT_EQ(dst.Block(VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1)[2], B(0x12));
}

TEST(CopyImage, MultisampledCopiesEverySample) {
  TestImage src(VK_FORMAT_R8_UINT, {2, 2, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT);
  TestImage dst(VK_FORMAT_R8_UINT, {2, 2, 1}, 1, 1, VK_SAMPLE_COUNT_4_BIT);
  for (uint32_t s = 0; s < 4; ++s) src.Texel(1, 0)[s] = B(s + 1);
  VkImageCopy2 region{VK_STRUCTURE_TYPE_IMAGE_COPY_2, nullptr, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {1, 0, 0},
                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 1, 0}, {1, 1, 1}};
  CopyImage(src.surface, dst.surface, {&region, 1});
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(dst.Texel(0, 1)[s], B(s + 1));
}

}  // namespace
}  // namespace crashtest::transfer::test
