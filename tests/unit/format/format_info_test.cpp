#include "format/format_info.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

namespace crashtest {
namespace {

struct BlockCase {
  VkFormat format;
  uint32_t blockSize;
  VkExtent3D extent;
  CompressionScheme compression;
};

TEST(FormatInfo, BlockSizesAndExtents) {
  const BlockCase cases[] = {
      {VK_FORMAT_R8G8B8A8_UNORM, 4, {1, 1, 1}, CompressionScheme::kNone},
      {VK_FORMAT_R16G16B16A16_SFLOAT, 8, {1, 1, 1}, CompressionScheme::kNone},
      {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, {4, 4, 1}, CompressionScheme::kBc},
      {VK_FORMAT_BC7_SRGB_BLOCK, 16, {4, 4, 1}, CompressionScheme::kBc},
      {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, 8, {4, 4, 1}, CompressionScheme::kEtc2},
      {VK_FORMAT_EAC_R11_UNORM_BLOCK, 8, {4, 4, 1}, CompressionScheme::kEac},
      {VK_FORMAT_ASTC_8x8_UNORM_BLOCK, 16, {8, 8, 1}, CompressionScheme::kAstcLdr},
      {VK_FORMAT_ASTC_12x10_SFLOAT_BLOCK, 16, {12, 10, 1}, CompressionScheme::kAstcHdr},
      {VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG, 8, {8, 4, 1}, CompressionScheme::kPvrtc},
      {VK_FORMAT_G8B8G8R8_422_UNORM, 4, {2, 1, 1}, CompressionScheme::kNone},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, 5, {1, 1, 1}, CompressionScheme::kNone},
      {VK_FORMAT_R64G64B64A64_SFLOAT, 32, {1, 1, 1}, CompressionScheme::kNone},
  };
  for (const BlockCase& c : cases) {
    const FormatInfo* info = GetFormatInfo(c.format);
    ASSERT_NE(info, nullptr) << c.format;
    EXPECT_EQ(info->format, c.format);
    EXPECT_EQ(info->blockSize, c.blockSize) << info->name;
    EXPECT_EQ(info->blockExtent.width, c.extent.width) << info->name;
    EXPECT_EQ(info->blockExtent.height, c.extent.height) << info->name;
    EXPECT_EQ(info->blockExtent.depth, c.extent.depth) << info->name;
    EXPECT_EQ(info->compression, c.compression) << info->name;
    EXPECT_EQ(IsCompressed(c.format), c.compression != CompressionScheme::kNone) << info->name;
  }
}

TEST(FormatInfo, ComponentsOfR8G8B8A8Unorm) {
  const FormatInfo* info = GetFormatInfo(VK_FORMAT_R8G8B8A8_UNORM);
  ASSERT_NE(info, nullptr);
  EXPECT_STREQ(info->name, "VK_FORMAT_R8G8B8A8_UNORM");
  EXPECT_STREQ(info->formatClass, "32-bit");
  EXPECT_EQ(info->texelsPerBlock, 1u);
  EXPECT_EQ(info->packedBits, 0u);
  ASSERT_EQ(info->componentCount, 4u);
  const ComponentName order[] = {ComponentName::kR, ComponentName::kG, ComponentName::kB, ComponentName::kA};
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(info->components[i].name, order[i]);
    EXPECT_EQ(info->components[i].bits, 8);
    EXPECT_EQ(info->components[i].numericFormat, NumericFormat::kUnorm);
  }
  EXPECT_EQ(info->aspects, VkImageAspectFlags{VK_IMAGE_ASPECT_COLOR_BIT});
}

TEST(FormatInfo, PackedAndCompressedComponents) {
  const FormatInfo* packed = GetFormatInfo(VK_FORMAT_A2B10G10R10_UINT_PACK32);
  ASSERT_NE(packed, nullptr);
  EXPECT_EQ(packed->packedBits, 32u);
  EXPECT_EQ(packed->components[0].name, ComponentName::kA);
  EXPECT_EQ(packed->components[0].bits, 2);
  EXPECT_EQ(packed->components[0].numericFormat, NumericFormat::kUint);
  EXPECT_TRUE(IsIntegerFormat(VK_FORMAT_A2B10G10R10_UINT_PACK32));
  EXPECT_FALSE(IsIntegerFormat(VK_FORMAT_A2B10G10R10_UNORM_PACK32));

  const FormatInfo* bc = GetFormatInfo(VK_FORMAT_BC1_RGB_SRGB_BLOCK);
  ASSERT_NE(bc, nullptr);
  EXPECT_EQ(bc->components[0].bits, 0) << "compressed components have no bit count";
  EXPECT_EQ(bc->components[0].numericFormat, NumericFormat::kSrgb);
  EXPECT_EQ(bc->texelsPerBlock, 16u);
}

TEST(FormatInfo, DepthStencilAspectsAndCopySizes) {
  EXPECT_EQ(FormatAspects(VK_FORMAT_D24_UNORM_S8_UINT),
            VkImageAspectFlags{VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT});
  EXPECT_EQ(FormatAspects(VK_FORMAT_D16_UNORM), VkImageAspectFlags{VK_IMAGE_ASPECT_DEPTH_BIT});
  EXPECT_EQ(FormatAspects(VK_FORMAT_S8_UINT), VkImageAspectFlags{VK_IMAGE_ASPECT_STENCIL_BIT});
  EXPECT_TRUE(IsDepthOrStencil(VK_FORMAT_D24_UNORM_S8_UINT));
  EXPECT_TRUE(HasDepth(VK_FORMAT_D24_UNORM_S8_UINT));
  EXPECT_TRUE(HasStencil(VK_FORMAT_D24_UNORM_S8_UINT));
  EXPECT_FALSE(HasStencil(VK_FORMAT_X8_D24_UNORM_PACK32));
  EXPECT_FALSE(IsDepthOrStencil(VK_FORMAT_R32_SFLOAT));

  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT), 2u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D16_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 2u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT), 4u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT), 1u);
  // Aspects a format lacks have no size.
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_STENCIL_BIT), 0u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_COLOR_BIT), 0u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT), 0u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT), 4u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_ASPECT_COLOR_BIT), 8u);
}

TEST(FormatInfo, MultiPlanarFormats) {
  const FormatInfo* nv12 = GetFormatInfo(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
  ASSERT_NE(nv12, nullptr);
  EXPECT_TRUE(IsMultiPlanar(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM));
  EXPECT_TRUE(RequiresYcbcrConversion(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM));
  EXPECT_EQ(nv12->chroma, ChromaSubsampling::k420);
  ASSERT_EQ(nv12->planeCount, 2u);
  EXPECT_EQ(nv12->planes[0].compatible, VK_FORMAT_R8_UNORM);
  EXPECT_EQ(nv12->planes[0].widthDivisor, 1);
  EXPECT_EQ(nv12->planes[0].heightDivisor, 1);
  EXPECT_EQ(nv12->planes[1].compatible, VK_FORMAT_R8G8_UNORM);
  EXPECT_EQ(nv12->planes[1].widthDivisor, 2);
  EXPECT_EQ(nv12->planes[1].heightDivisor, 2);
  EXPECT_EQ(nv12->components[1].planeIndex, 1);
  EXPECT_EQ(nv12->aspects,
            VkImageAspectFlags{VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_PLANE_0_BIT | VK_IMAGE_ASPECT_PLANE_1_BIT});
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_ASPECT_PLANE_0_BIT), 1u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_ASPECT_PLANE_1_BIT), 2u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_ASPECT_PLANE_2_BIT), 0u);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_ASPECT_COLOR_BIT), 0u);
  EXPECT_EQ(PlaneFormat(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 1), VK_FORMAT_R8G8_UNORM);
  EXPECT_EQ(PlaneFormat(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 2), VK_FORMAT_UNDEFINED);

  const FormatInfo* p010 = GetFormatInfo(VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM);
  ASSERT_NE(p010, nullptr);
  EXPECT_EQ(p010->planeCount, 3u);
  EXPECT_EQ(p010->chroma, ChromaSubsampling::k422);
  EXPECT_EQ(p010->planes[2].widthDivisor, 2);
  EXPECT_EQ(p010->planes[2].heightDivisor, 1);
  EXPECT_EQ(TexelBlockSize(VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM, VK_IMAGE_ASPECT_PLANE_2_BIT), 2u);

  // Single-plane formats that need a Y'CbCr conversion are not multi-planar; R10X6 alone needs no conversion.
  EXPECT_FALSE(IsMultiPlanar(VK_FORMAT_G8B8G8R8_422_UNORM));
  EXPECT_TRUE(RequiresYcbcrConversion(VK_FORMAT_G8B8G8R8_422_UNORM));
  EXPECT_FALSE(RequiresYcbcrConversion(VK_FORMAT_R10X6_UNORM_PACK16));
  EXPECT_FALSE(RequiresYcbcrConversion(VK_FORMAT_R8G8B8A8_UNORM));
}

TEST(FormatInfo, UnknownFormats) {
  EXPECT_EQ(GetFormatInfo(VK_FORMAT_UNDEFINED), nullptr);
  EXPECT_EQ(GetFormatInfo(static_cast<VkFormat>(999)), nullptr);
  EXPECT_EQ(GetFormatInfo(static_cast<VkFormat>(-5)), nullptr);
  EXPECT_FALSE(IsDepthOrStencil(VK_FORMAT_UNDEFINED));
  EXPECT_EQ(FormatAspects(static_cast<VkFormat>(999)), 0u);
  EXPECT_EQ(TexelBlockSize(static_cast<VkFormat>(999), VK_IMAGE_ASPECT_COLOR_BIT), 0u);
  EXPECT_STREQ(FormatName(VK_FORMAT_UNDEFINED), "VK_FORMAT_UNDEFINED");
  EXPECT_STREQ(FormatName(static_cast<VkFormat>(999)), "VK_FORMAT_<999>");
  EXPECT_STREQ(FormatName(VK_FORMAT_B8G8R8A8_SRGB), "VK_FORMAT_B8G8R8A8_SRGB");
}

TEST(FormatInfo, Compatibility) {
  EXPECT_TRUE(AreFormatsCompatible(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_UINT));
  EXPECT_TRUE(AreFormatsCompatible(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB));
  EXPECT_FALSE(AreFormatsCompatible(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_UNORM));
  EXPECT_TRUE(AreFormatsCompatible(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK));
  EXPECT_FALSE(AreFormatsCompatible(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK));
  EXPECT_FALSE(AreFormatsCompatible(VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT));
  EXPECT_TRUE(AreFormatsCompatible(VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT));
  EXPECT_FALSE(AreFormatsCompatible(VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED));
}

// Every core VkFormat (1.0 through 1.3) has an entry.
TEST(FormatInfo, EveryCoreFormatHasAnEntry) {
  std::vector<VkFormat> core;
  for (int f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f)
    core.push_back(static_cast<VkFormat>(f));
  for (int f = VK_FORMAT_G8B8G8R8_422_UNORM; f <= VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM; ++f)
    core.push_back(static_cast<VkFormat>(f));
  for (int f = VK_FORMAT_G8_B8R8_2PLANE_444_UNORM; f <= VK_FORMAT_G16_B16R16_2PLANE_444_UNORM; ++f)
    core.push_back(static_cast<VkFormat>(f));
  for (int f = VK_FORMAT_A4R4G4B4_UNORM_PACK16; f <= VK_FORMAT_A4B4G4R4_UNORM_PACK16; ++f)
    core.push_back(static_cast<VkFormat>(f));
  for (int f = VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK; f <= VK_FORMAT_ASTC_12x12_SFLOAT_BLOCK; ++f)
    core.push_back(static_cast<VkFormat>(f));
  ASSERT_EQ(core.size(), 184u + 34u + 4u + 2u + 14u);
  for (VkFormat f : core) {
    const FormatInfo* info = GetFormatInfo(f);
    ASSERT_NE(info, nullptr) << "no entry for VkFormat " << f;
    EXPECT_EQ(info->format, f);
    EXPECT_EQ(std::strncmp(info->name, "VK_FORMAT_", 10), 0) << info->name;
    EXPECT_GT(info->blockSize, 0u) << info->name;
    EXPECT_GE(info->componentCount, 1u) << info->name;
    EXPECT_NE(info->aspects, 0u) << info->name;
  }
}

TEST(FormatInfo, TableIsConsistent) {
  std::set<VkFormat> seen;
  for (const FormatInfo* info = FormatTableBegin(); info != FormatTableEnd(); ++info) {
    EXPECT_TRUE(seen.insert(info->format).second) << "duplicate " << info->name;
    EXPECT_EQ(GetFormatInfo(info->format), info) << info->name;
    for (uint32_t p = 0; p < info->planeCount; ++p)
      EXPECT_NE(GetFormatInfo(info->planes[p].compatible), nullptr) << info->name << " plane " << p;
    uint32_t texels = info->blockExtent.width * info->blockExtent.height * info->blockExtent.depth;
    if (info->compression == CompressionScheme::kNone && info->chroma == ChromaSubsampling::kNone) {
      EXPECT_EQ(texels, 1u) << info->name;
    }
  }
  EXPECT_GE(seen.size(), 238u);
}

}  // namespace
}  // namespace crashtest
