#include "format/driver_format_support.h"

#include <gtest/gtest.h>

namespace crashtest {
namespace {

constexpr VkFormatFeatureFlags2 kDropped =
    VK_FORMAT_FEATURE_2_VIDEO_DECODE_OUTPUT_BIT_KHR | VK_FORMAT_FEATURE_2_VIDEO_DECODE_DPB_BIT_KHR |
    VK_FORMAT_FEATURE_2_ACCELERATION_STRUCTURE_VERTEX_BUFFER_BIT_KHR |
    VK_FORMAT_FEATURE_2_FRAGMENT_DENSITY_MAP_BIT_EXT |
    VK_FORMAT_FEATURE_2_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR | VK_FORMAT_FEATURE_2_DISJOINT_BIT |
    VK_FORMAT_FEATURE_2_MIDPOINT_CHROMA_SAMPLES_BIT | VK_FORMAT_FEATURE_2_COSITED_CHROMA_SAMPLES_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_SEPARATE_RECONSTRUCTION_FILTER_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_BIT |
    VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE_BIT |
    0x08000000ull /* VIDEO_ENCODE_INPUT */ | 0x10000000ull /* VIDEO_ENCODE_DPB */;

TEST(DriverFormatSupport, CommonColourFormatKeepsWhatCrashtestHonours) {
  FormatSupport s = DriverFormatSupport(VK_FORMAT_R8G8B8A8_UNORM);
  for (VkFormatFeatureFlags2 bit :
       {VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT,
        VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT,
        VK_FORMAT_FEATURE_2_BLIT_SRC_BIT, VK_FORMAT_FEATURE_2_BLIT_DST_BIT, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT,
        VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT}) {
    EXPECT_NE(s.optimalTilingFeatures & bit, 0u) << std::hex << bit;
    EXPECT_NE(s.linearTilingFeatures & bit, 0u) << std::hex << bit;
  }
  EXPECT_NE(s.bufferFeatures & VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT, 0u);
  EXPECT_NE(s.bufferFeatures & VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT, 0u);
  EXPECT_NE(s.bufferFeatures & VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT, 0u);
  EXPECT_EQ(s.bufferFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT, 0u) << "image bits are not buffer bits";
}

TEST(DriverFormatSupport, DropsWhatCrashtestCannotDo) {
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_FORMAT_D24_UNORM_S8_UINT,
                     VK_FORMAT_R32G32B32_SFLOAT}) {
    FormatSupport s = DriverFormatSupport(f);
    EXPECT_EQ(s.optimalTilingFeatures & kDropped, 0u) << f;
    EXPECT_EQ(s.linearTilingFeatures & kDropped, 0u) << f;
    EXPECT_EQ(s.bufferFeatures & kDropped, 0u) << f;
    EXPECT_EQ(s.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_CUBIC_BIT, 0u) << f;
  }
}

TEST(DriverFormatSupport, NoBlitsForUndecodedCompressedOrYcbcrFormats) {
  for (VkFormat f : {VK_FORMAT_ASTC_8x8_SFLOAT_BLOCK, VK_FORMAT_PVRTC1_4BPP_UNORM_BLOCK_IMG,
                     VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_FORMAT_G8B8G8R8_422_UNORM}) {
    FormatSupport s = DriverFormatSupport(f);
    EXPECT_EQ(s.optimalTilingFeatures & (VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT), 0u)
        << f;
    EXPECT_NE(s.optimalTilingFeatures & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT, 0u) << f << " still copies";
  }
}

// The spec's "Required Format Support" for textureCompressionBC, _ETC2 and _ASTC_LDR: every BC, ETC2, EAC and ASTC
// LDR format sampled with a linear filter and blitted from; never stored to or rendered to. Formats without a
// decoder are only copied.
TEST(DriverFormatSupport, DecodedCompressedFormatsAreSampledAndBlittedFrom) {
  constexpr VkFormatFeatureFlags2 kRequired = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT |
                                              VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                              VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT |
                                              VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
  constexpr VkFormatFeatureFlags2 kNever = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT |
                                           VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
  // BC1 to BC7, then ETC2, EAC and ASTC LDR follow each other in VkFormat.
  for (int f = VK_FORMAT_BC1_RGB_UNORM_BLOCK; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f) {
    const FormatSupport s = DriverFormatSupport(static_cast<VkFormat>(f));
    EXPECT_EQ(s.optimalTilingFeatures & kRequired, kRequired) << f;
    EXPECT_EQ(s.optimalTilingFeatures & kNever, 0u) << f;
  }
  const FormatSupport hdr = DriverFormatSupport(VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK);
  EXPECT_EQ(hdr.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT, 0u) << "no ASTC HDR decoder";
  EXPECT_NE(hdr.optimalTilingFeatures & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT, 0u);
}

TEST(DriverFormatSupport, NoBufferFeaturesWhereTheSpecForbidsThem) {
  for (VkFormat f : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_FORMAT_G8B8G8R8_422_UNORM,
                     VK_FORMAT_D32_SFLOAT, VK_FORMAT_S8_UINT})
    EXPECT_EQ(DriverFormatSupport(f).bufferFeatures, 0u) << f;
  EXPECT_NE(DriverFormatSupport(VK_FORMAT_R32G32B32_SFLOAT).bufferFeatures, 0u);
}

TEST(DriverFormatSupport, NothingForUnknownFormats) {
  for (VkFormat f : {VK_FORMAT_UNDEFINED, static_cast<VkFormat>(123456)}) {
    FormatSupport s = DriverFormatSupport(f);
    EXPECT_EQ(s.linearTilingFeatures, 0u);
    EXPECT_EQ(s.optimalTilingFeatures, 0u);
    EXPECT_EQ(s.bufferFeatures, 0u);
  }
}

}  // namespace
}  // namespace crashtest
