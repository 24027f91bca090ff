// Images, views and samplers through the loader: subresource layouts of several kinds of formats, views with
// "remaining" values resolved.
#include "device/resources.h"
#include "memory/views.h"
#include "memory_test_env.h"

namespace crashtest::test {
namespace {

VkSubresourceLayout Layout(VkDevice device, VkImage image, VkImageAspectFlags aspect, uint32_t mip, uint32_t layer) {
  VkImageSubresource subresource{aspect, mip, layer};
  VkSubresourceLayout layout{};
  vkGetImageSubresourceLayout(device, image, &subresource, &layout);
  return layout;
}

TEST_F(MemoryTest, ColourSubresourcesAreDisjointAndHoldTheirTexels) {
  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, {37, 21, 1}, 3, 2);
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device_, image, &requirements);
  VkDeviceSize end = 0;
  for (uint32_t mip = 0; mip < 3; ++mip) {
    for (uint32_t layer = 0; layer < 2; ++layer) {
      VkSubresourceLayout l = Layout(device_, image, VK_IMAGE_ASPECT_COLOR_BIT, mip, layer);
      uint32_t width = std::max(37u >> mip, 1u), height = std::max(21u >> mip, 1u);
      EXPECT_GE(l.rowPitch, width * 4u) << mip << "/" << layer;
      EXPECT_GE(l.size, l.rowPitch * (height - 1) + width * 4u);
      EXPECT_GE(l.offset, end) << "subresources do not overlap";
      EXPECT_EQ(l.arrayPitch, l.size);
      end = l.offset + l.size;
    }
  }
  EXPECT_LE(end, requirements.size);
  vkDestroyImage(device_, image, nullptr);
}

TEST_F(MemoryTest, DepthStencilAspectsAreSeparatePlanesWithCopyTexelSizes) {
  VkImage image = CreateImage(VK_FORMAT_D24_UNORM_S8_UINT, {300, 32, 1}, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                              VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
  VkSubresourceLayout depth = Layout(device_, image, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0);
  VkSubresourceLayout stencil = Layout(device_, image, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0);
  // vkCmdCopyImageToBuffer lays D24 out in 4 bytes and S8 in 1 (Vulkan 1.3, "Depth/Stencil Formats").
  EXPECT_GE(depth.rowPitch, 300u * 4);
  EXPECT_GE(stencil.rowPitch, 300u);
  EXPECT_LT(stencil.rowPitch, 300u * 4);
  EXPECT_TRUE(stencil.offset >= depth.offset + depth.size || depth.offset >= stencil.offset + stencil.size);
  const Image* object = crashtest::FromHandle(image);
  EXPECT_EQ(object->layout().Subresource(VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0).offset, stencil.offset);
  vkDestroyImage(device_, image, nullptr);

  VkImage d16 = CreateImage(VK_FORMAT_D16_UNORM, {10, 10, 1}, 1, 1, VK_IMAGE_TILING_OPTIMAL,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
  EXPECT_GE(Layout(device_, d16, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0).rowPitch, 20u);
  vkDestroyImage(device_, d16, nullptr);
}

TEST_F(MemoryTest, CompressedSubresourcesCountBlocks) {
  // BC1: 4x4 blocks of 8 bytes; a 30x10 image is 8x3 blocks.
  VkImage image = CreateImage(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, {30, 10, 1}, 2, 1, VK_IMAGE_TILING_OPTIMAL);
  VkSubresourceLayout level0 = Layout(device_, image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  VkSubresourceLayout level1 = Layout(device_, image, VK_IMAGE_ASPECT_COLOR_BIT, 1, 0);
  EXPECT_GE(level0.rowPitch, 8u * 8);
  EXPECT_GE(level0.size, level0.rowPitch * 3);
  EXPECT_LT(level0.size, level0.rowPitch * 4) << "rows of blocks, not rows of texels";
  EXPECT_GE(level1.rowPitch, 4u * 8);  // 15x5 texels: 4x2 blocks
  EXPECT_GE(level1.offset, level0.offset + level0.size);
  vkDestroyImage(device_, image, nullptr);
}

TEST_F(MemoryTest, MultiPlanarSubresourcesArePerPlane) {
  VkImage image = CreateImage(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, {64, 32, 1}, 1, 1, VK_IMAGE_TILING_LINEAR,
                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  VkSubresourceLayout luma = Layout(device_, image, VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0);
  VkSubresourceLayout chroma = Layout(device_, image, VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0);
  EXPECT_GE(luma.rowPitch, 64u);
  EXPECT_GE(luma.size, luma.rowPitch * 32);
  EXPECT_GE(chroma.rowPitch, 32u * 2);  // 32x16 texels of R8G8
  EXPECT_GE(chroma.size, chroma.rowPitch * 16);
  EXPECT_LT(chroma.size, chroma.rowPitch * 17);
  EXPECT_GE(chroma.offset, luma.offset + luma.size);
  vkDestroyImage(device_, image, nullptr);
}

TEST_F(MemoryTest, ThreeDimensionalSubresourcesHaveADepthPitch) {
  VkImage image = CreateImage(VK_FORMAT_R32_SFLOAT, {16, 8, 4}, 1, 1, VK_IMAGE_TILING_LINEAR);
  VkSubresourceLayout l = Layout(device_, image, VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  EXPECT_GE(l.rowPitch, 64u);
  EXPECT_GE(l.depthPitch, l.rowPitch * 8);
  EXPECT_GE(l.size, l.depthPitch * 4);
  vkDestroyImage(device_, image, nullptr);
}

TEST_F(MemoryTest, ViewsResolveRemainingValues) {
  VkBuffer buffer = CreateBuffer(1030, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
  VkDeviceMemory bufferMemory = BindNewMemory(buffer);
  VkBufferViewCreateInfo bufferViewInfo{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  bufferViewInfo.buffer = buffer;
  bufferViewInfo.format = VK_FORMAT_R32G32B32A32_SFLOAT;
  bufferViewInfo.offset = properties_.limits.minTexelBufferOffsetAlignment;
  bufferViewInfo.range = VK_WHOLE_SIZE;
  VkBufferView bufferView = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateBufferView(device_, &bufferViewInfo, nullptr, &bufferView), VK_SUCCESS);
  const BufferView* bv = crashtest::FromHandle(bufferView);
  EXPECT_EQ(bv->offset(), bufferViewInfo.offset);
  EXPECT_EQ(bv->range(), (1030 - bufferViewInfo.offset) / 16 * 16) << "the nearest smaller multiple of 16 bytes";
  EXPECT_EQ(&bv->buffer(), crashtest::FromHandle(buffer));
  bufferViewInfo.range = 17;
  VkBufferView bad = VK_NULL_HANDLE;
  EXPECT_NE(vkCreateBufferView(device_, &bufferViewInfo, nullptr, &bad), VK_SUCCESS) << "not a multiple of 16";

  VkImage image = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, {32, 32, 1}, 4, 6, VK_IMAGE_TILING_OPTIMAL);
  VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  viewInfo.image = image;
  viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  viewInfo.format = VK_FORMAT_R8G8B8A8_UNORM;
  viewInfo.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_REMAINING_MIP_LEVELS, 2, VK_REMAINING_ARRAY_LAYERS};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_NE(vkCreateImageView(device_, &viewInfo, nullptr, &view), VK_SUCCESS) << "the image is not bound yet";
  VkDeviceMemory imageMemory = BindNewMemory(image);
  ASSERT_EQ(vkCreateImageView(device_, &viewInfo, nullptr, &view), VK_SUCCESS);
  const ImageView* iv = crashtest::FromHandle(view);
  EXPECT_EQ(iv->subresourceRange().levelCount, 3u);
  EXPECT_EQ(iv->subresourceRange().layerCount, 4u);
  EXPECT_EQ(iv->viewType(), VK_IMAGE_VIEW_TYPE_2D_ARRAY);
  EXPECT_EQ(&iv->image(), crashtest::FromHandle(image));
  viewInfo.subresourceRange.baseMipLevel = 4;
  VkImageView badView = VK_NULL_HANDLE;
  EXPECT_NE(vkCreateImageView(device_, &viewInfo, nullptr, &badView), VK_SUCCESS);

  vkDestroyImageView(device_, view, nullptr);
  vkDestroyBufferView(device_, bufferView, nullptr);
  vkDestroyImage(device_, image, nullptr);
  vkDestroyBuffer(device_, buffer, nullptr);
  vkFreeMemory(device_, imageMemory, nullptr);
  vkFreeMemory(device_, bufferMemory, nullptr);
}

}  // namespace
}  // namespace crashtest::test
