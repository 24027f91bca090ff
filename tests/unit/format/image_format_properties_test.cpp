#include "format/image_format_properties.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace crashtest {
namespace {

constexpr VkFormatFeatureFlags2 kTransfer = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
constexpr VkFormatFeatureFlags2 kSampled = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 kStorage = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 kColour = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
constexpr VkFormatFeatureFlags2 kDepthStencil = VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;

constexpr VkSampleCountFlags S1 = VK_SAMPLE_COUNT_1_BIT, S2 = VK_SAMPLE_COUNT_2_BIT, S4 = VK_SAMPLE_COUNT_4_BIT,
                             S8 = VK_SAMPLE_COUNT_8_BIT;

// A device whose limits differ per kind, so each sample-count rule is visible in the result.
DeviceDescription TestDevice() {
  DeviceDescription d;
  d.source = "test";
  VkPhysicalDeviceLimits& l = d.properties.limits;
  l.maxImageDimension1D = 16384;
  l.maxImageDimension2D = 16384;
  l.maxImageDimension3D = 2048;
  l.maxImageDimensionCube = 8192;
  l.maxImageArrayLayers = 2048;
  l.framebufferColorSampleCounts = S1 | S2 | S4 | S8;
  l.framebufferDepthSampleCounts = S1 | S2 | S4;
  l.framebufferStencilSampleCounts = S1 | S4 | S8;
  l.sampledImageColorSampleCounts = S1 | S4 | S8;
  l.sampledImageIntegerSampleCounts = S1 | S4;
  l.sampledImageDepthSampleCounts = S1 | S2;
  l.sampledImageStencilSampleCounts = S1 | S8;
  l.storageImageSampleCounts = S1 | S4;

  VkPhysicalDeviceVulkan12Properties v12{};
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  v12.framebufferIntegerColorSampleCounts = S1 | S2;
  StructBlob blob;
  blob.bytes.resize(sizeof(v12));
  std::memcpy(blob.data(), &v12, sizeof(v12));
  d.extendedProperties[v12.sType] = blob;

  d.memory.memoryHeapCount = 1;
  d.memory.memoryHeaps[0].size = VkDeviceSize{8} << 30;

  auto both = [](VkFormatFeatureFlags2 f) { return FormatSupport{f, f, 0}; };
  auto optimal = [](VkFormatFeatureFlags2 f) { return FormatSupport{0, f, 0}; };
  d.formats[VK_FORMAT_R8G8B8A8_UNORM] = both(kTransfer | kSampled | kStorage | kColour);
  d.formats[VK_FORMAT_R8G8B8A8_SRGB] = both(kTransfer | kSampled | kColour);  // no storage
  d.formats[VK_FORMAT_R8G8B8A8_UINT] = both(kTransfer | kSampled | kColour);
  d.formats[VK_FORMAT_R32G32_UINT] = both(kTransfer | kStorage);
  d.formats[VK_FORMAT_D24_UNORM_S8_UINT] = optimal(kTransfer | kSampled | kDepthStencil);
  d.formats[VK_FORMAT_D32_SFLOAT] = optimal(kTransfer | kSampled | kDepthStencil);
  d.formats[VK_FORMAT_BC1_RGBA_UNORM_BLOCK] = optimal(kTransfer | kSampled);
  d.formats[VK_FORMAT_G8_B8R8_2PLANE_420_UNORM] = both(kTransfer | kSampled);
  d.formats[VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM] = optimal(kTransfer | kSampled | VK_FORMAT_FEATURE_2_DISJOINT_BIT);
  return d;
}

// The less common parameters, named at the use site with designated initialisers.
struct Options {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL;
  VkImageCreateFlags flags = 0;
  VkImageUsageFlags stencilUsage = 0;  // 0: no VkImageStencilUsageCreateInfo
  std::vector<VkFormat> viewFormats = {};  // empty: no VkImageFormatListCreateInfo
  VkExternalMemoryHandleTypeFlagBits handleType = {};
  bool external = false;  // chain VkPhysicalDeviceExternalImageFormatInfo
};

struct Case {
  const char* what;
  VkFormat format;
  VkImageUsageFlags usage;
  VkResult expected;
  Options o = {};
};

constexpr VkImageUsageFlags kSampledUsage = VK_IMAGE_USAGE_SAMPLED_BIT;
constexpr VkImageUsageFlags kStorageUsage = VK_IMAGE_USAGE_STORAGE_BIT;
constexpr VkImageUsageFlags kColourUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kDepthUsage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
constexpr VkImageUsageFlags kCopyUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
constexpr VkResult OK = VK_SUCCESS;
constexpr VkResult NO = VK_ERROR_FORMAT_NOT_SUPPORTED;

VkResult Query(const DeviceDescription& device, const Case& c, VkImageFormatProperties2* out) {
  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, nullptr, c.format,
                                        c.o.type, c.o.tiling, c.usage, c.o.flags};
  VkImageStencilUsageCreateInfo stencil{VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO, nullptr, c.o.stencilUsage};
  VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO, nullptr,
                                   static_cast<uint32_t>(c.o.viewFormats.size()), c.o.viewFormats.data()};
  VkPhysicalDeviceExternalImageFormatInfo external{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO,
                                                   nullptr, c.o.handleType};
  const void** tail = &info.pNext;
  auto link = [&tail](auto* s) {
    *tail = s;
    tail = const_cast<const void**>(&s->pNext);
  };
  if (c.o.stencilUsage != 0) link(&stencil);
  if (!c.o.viewFormats.empty()) link(&list);
  if (c.o.external) link(&external);
  return GetImageFormatProperties(device, info, out);
}

TEST(ImageFormatProperties, SupportRules) {
  const Case cases[] = {
      {"plain sampled colour image", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK},
      {"format the device lacks", VK_FORMAT_R16G16B16A16_SFLOAT, kSampledUsage, NO},
      {"VK_FORMAT_UNDEFINED", VK_FORMAT_UNDEFINED, kSampledUsage, NO},
      {"unknown format value", static_cast<VkFormat>(999), kSampledUsage, NO},
      {"usage 0", VK_FORMAT_R8G8B8A8_UNORM, 0, NO},
      // Each usage bit needs its format feature.
      {"storage without STORAGE_IMAGE", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, NO},
      {"colour attachment on a depth format", VK_FORMAT_D32_SFLOAT, kColourUsage, NO},
      {"depth attachment on a colour format", VK_FORMAT_R8G8B8A8_UNORM, kDepthUsage, NO},
      {"depth attachment on a depth format", VK_FORMAT_D32_SFLOAT, kDepthUsage, OK},
      {"transfer without TRANSFER bits", VK_FORMAT_R8G8B8A8_UNORM, kCopyUsage, OK},
      {"sampling a format without SAMPLED_IMAGE", VK_FORMAT_R32G32_UINT, kSampledUsage, NO},
      {"input attachment on a colour attachment format", VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
       OK},
      {"input attachment on a depth attachment format", VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, OK},
      {"input attachment without attachment features", VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
       VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, NO},
      {"transient colour attachment", VK_FORMAT_R8G8B8A8_UNORM,
       VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT | kColourUsage, OK},
      {"unimplemented usage (shading rate)", VK_FORMAT_R8G8B8A8_UINT,
       VK_IMAGE_USAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR, NO},
      // Separate stencil usage.
      {"stencil usage needing a missing feature", VK_FORMAT_D24_UNORM_S8_UINT, kDepthUsage, NO,
       {.stencilUsage = kStorageUsage}},
      {"stencil usage the format serves", VK_FORMAT_D24_UNORM_S8_UINT, kDepthUsage, OK,
       {.stencilUsage = kSampledUsage}},
      {"stencil usage ignored without stencil", VK_FORMAT_D32_SFLOAT, kDepthUsage, OK, {.stencilUsage = kStorageUsage}},
      // Mutable format and extended usage.
      {"extended usage served by a compatible format", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, OK,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT}},
      {"extended usage without mutable format", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, NO,
       {.flags = VK_IMAGE_CREATE_EXTENDED_USAGE_BIT}},
      {"mutable format alone does not extend usage", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, NO,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT}},
      {"extended usage, list without a storage format", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, NO,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
       .viewFormats = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UINT}}},
      {"extended usage, list with a storage format", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, OK,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
       .viewFormats = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM}}},
      {"extended usage, list with an incompatible format", VK_FORMAT_R8G8B8A8_SRGB, kStorageUsage, NO,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
       .viewFormats = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32_UINT}}},
      {"block-texel view of a compressed image", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, kSampledUsage, OK,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT}},
      {"block-texel view extends usage to storage", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, kStorageUsage, OK,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT |
                VK_IMAGE_CREATE_EXTENDED_USAGE_BIT}},
      {"block-texel view without mutable format", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, kSampledUsage, NO,
       {.flags = VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT}},
      {"block-texel view of an uncompressed image", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT}},
      // Image types and create flags.
      {"1D colour", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.type = VK_IMAGE_TYPE_1D}},
      {"3D colour", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.type = VK_IMAGE_TYPE_3D}},
      {"cube on 2D", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT}},
      {"cube on 3D", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_3D,
       .flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT}},
      {"2D-array-compatible on 3D", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK, {.type = VK_IMAGE_TYPE_3D,
       .flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT}},
      {"2D-array-compatible on 2D", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, NO,
       {.flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT}},
      {"2D-view-compatible without the extension", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO,
       {.type = VK_IMAGE_TYPE_3D, .flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT}},
      {"sparse binding", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT}},
      {"sparse residency", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO,
       {.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT}},
      {"protected", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.flags = VK_IMAGE_CREATE_PROTECTED_BIT}},
      {"alias", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.flags = VK_IMAGE_CREATE_ALIAS_BIT}},
      {"3D depth", VK_FORMAT_D32_SFLOAT, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_3D}},
      {"1D compressed", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_1D}},
      // Multi-planar / Y'CbCr.
      {"Y'CbCr 2D", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kSampledUsage, OK},
      {"Y'CbCr 3D", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_3D}},
      {"disjoint without DISJOINT feature", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kSampledUsage, NO,
       {.flags = VK_IMAGE_CREATE_DISJOINT_BIT}},
      {"disjoint with DISJOINT feature", VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, kSampledUsage, OK,
       {.flags = VK_IMAGE_CREATE_DISJOINT_BIT}},
      {"disjoint single-plane", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.flags = VK_IMAGE_CREATE_DISJOINT_BIT}},
      {"mutable Y'CbCr extends usage through a plane format", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kStorageUsage, NO,
       {.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT}},
      // Tiling.
      {"linear 2D colour", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.tiling = VK_IMAGE_TILING_LINEAR}},
      {"linear 1D", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_1D,
       .tiling = VK_IMAGE_TILING_LINEAR}},
      {"linear 3D", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.type = VK_IMAGE_TYPE_3D,
       .tiling = VK_IMAGE_TILING_LINEAR}},
      {"linear cube", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO, {.tiling = VK_IMAGE_TILING_LINEAR,
       .flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT}},
      {"linear depth (no linear features)", VK_FORMAT_D32_SFLOAT, kSampledUsage, NO,
       {.tiling = VK_IMAGE_TILING_LINEAR}},
      {"linear Y'CbCr", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kCopyUsage, OK, {.tiling = VK_IMAGE_TILING_LINEAR}},
      {"DRM format modifier tiling", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO,
       {.tiling = VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT}},
      // External memory.
      {"external handle type 0 is as if absent", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK, {.external = true}},
      {"external opaque fd", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, NO,
       {.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, .external = true}},
  };
  DeviceDescription device = TestDevice();
  for (const Case& c : cases) {
    VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, nullptr, {}};
    std::memset(&out.imageFormatProperties, 0xAB, sizeof(out.imageFormatProperties));
    VkResult result = Query(device, c, &out);
    EXPECT_EQ(result, c.expected) << c.what;
    const VkImageFormatProperties& p = out.imageFormatProperties;
    if (c.expected == NO) {
      // "all members of imageFormatProperties will be filled with zero"
      VkImageFormatProperties zero{};
      EXPECT_EQ(std::memcmp(&p, &zero, sizeof(p)), 0) << c.what;
    } else {
      EXPECT_GE(p.maxExtent.width, 1u) << c.what;
      EXPECT_GE(p.maxMipLevels, 1u) << c.what;
      EXPECT_GE(p.maxArrayLayers, 1u) << c.what;
      EXPECT_NE(p.sampleCounts & VK_SAMPLE_COUNT_1_BIT, 0u) << c.what;
      EXPECT_GE(p.maxResourceSize, VkDeviceSize{1} << 31) << c.what;
    }
  }
}

struct LimitCase {
  const char* what;
  Case query;
  VkExtent3D maxExtent;
  uint32_t maxMipLevels;
  uint32_t maxArrayLayers;
  VkSampleCountFlags sampleCounts;
};

TEST(ImageFormatProperties, LimitsAndSampleCounts) {
  const LimitCase cases[] = {
      {"colour attachment: framebufferColorSampleCounts", {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK},
       {16384, 16384, 1}, 15, 2048, S1 | S2 | S4 | S8},
      {"+ sampled: and sampledImageColorSampleCounts",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage | kSampledUsage, OK}, {16384, 16384, 1}, 15, 2048, S1 | S4 | S8},
      {"+ storage: and storageImageSampleCounts",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage | kSampledUsage | kStorageUsage, OK}, {16384, 16384, 1}, 15, 2048,
       S1 | S4},
      {"transfer only: the attachment kind's counts", {"", VK_FORMAT_R8G8B8A8_UNORM, kCopyUsage, OK},
       {16384, 16384, 1}, 15, 2048, S1 | S2 | S4 | S8},
      {"integer colour attachment: framebufferIntegerColorSampleCounts",
       {"", VK_FORMAT_R8G8B8A8_UINT, kColourUsage, OK}, {16384, 16384, 1}, 15, 2048, S1 | S2},
      {"integer sampled: and sampledImageIntegerSampleCounts",
       {"", VK_FORMAT_R8G8B8A8_UINT, kColourUsage | kSampledUsage, OK}, {16384, 16384, 1}, 15, 2048, S1},
      {"depth/stencil attachment: depth and stencil counts", {"", VK_FORMAT_D24_UNORM_S8_UINT, kDepthUsage, OK},
       {16384, 16384, 1}, 15, 2048, S1 | S4},
      {"depth-only attachment", {"", VK_FORMAT_D32_SFLOAT, kDepthUsage, OK}, {16384, 16384, 1}, 15, 2048,
       S1 | S2 | S4},
      {"sampled depth: sampledImageDepthSampleCounts", {"", VK_FORMAT_D32_SFLOAT, kDepthUsage | kSampledUsage, OK},
       {16384, 16384, 1}, 15, 2048, S1 | S2},
      {"sampled stencil only through stencilUsage",
       {"", VK_FORMAT_D24_UNORM_S8_UINT, kDepthUsage, OK, {.stencilUsage = kDepthUsage | kSampledUsage}},
       {16384, 16384, 1}, 15, 2048, S1},
      {"no attachment features: 1 sample", {"", VK_FORMAT_BC1_RGBA_UNORM_BLOCK, kSampledUsage, OK},
       {16384, 16384, 1}, 15, 2048, S1},
      {"1D: maxImageDimension1D, 1 sample",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK, {.type = VK_IMAGE_TYPE_1D}},
       {16384, 1, 1}, 15, 2048, S1},
      {"3D: maxImageDimension3D, one layer",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK, {.type = VK_IMAGE_TYPE_3D}}, {2048, 2048, 2048}, 12, 1, S1},
      {"cube: maxImageDimensionCube, 1 sample",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK, {.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT}},
       {8192, 8192, 1}, 14, 2048, S1},
      {"linear: one level, one layer, one sample",
       {"", VK_FORMAT_R8G8B8A8_UNORM, kColourUsage, OK, {.tiling = VK_IMAGE_TILING_LINEAR}}, {16384, 16384, 1}, 1, 1,
       S1},
      {"Y'CbCr: one level, one layer, one sample", {"", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kSampledUsage, OK},
       {16384, 16384, 1}, 1, 1, S1},
  };
  DeviceDescription device = TestDevice();
  for (const LimitCase& c : cases) {
    VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, nullptr, {}};
    ASSERT_EQ(Query(device, c.query, &out), VK_SUCCESS) << c.what;
    const VkImageFormatProperties& p = out.imageFormatProperties;
    EXPECT_EQ(p.maxExtent.width, c.maxExtent.width) << c.what;
    EXPECT_EQ(p.maxExtent.height, c.maxExtent.height) << c.what;
    EXPECT_EQ(p.maxExtent.depth, c.maxExtent.depth) << c.what;
    EXPECT_EQ(p.maxMipLevels, c.maxMipLevels) << c.what;
    EXPECT_EQ(p.maxArrayLayers, c.maxArrayLayers) << c.what;
    EXPECT_EQ(p.sampleCounts, c.sampleCounts) << c.what;
    EXPECT_EQ(p.maxResourceSize, VkDeviceSize{8} << 30) << c.what << " (largest heap)";
  }
}

TEST(ImageFormatProperties, IntegerColourWithoutVulkan12PropertiesIsSingleSampled) {
  DeviceDescription device = TestDevice();
  device.extendedProperties.clear();
  VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, nullptr, {}};
  ASSERT_EQ(Query(device, {"", VK_FORMAT_R8G8B8A8_UINT, kColourUsage, OK}, &out), VK_SUCCESS);
  EXPECT_EQ(out.imageFormatProperties.sampleCounts, S1);
}

TEST(ImageFormatProperties, FillsChainedOutputsKeepingHeaders) {
  DeviceDescription device = TestDevice();
  VkFilterCubicImageViewImageFormatPropertiesEXT cubic{
      VK_STRUCTURE_TYPE_FILTER_CUBIC_IMAGE_VIEW_IMAGE_FORMAT_PROPERTIES_EXT, nullptr, VK_TRUE, VK_TRUE};
  VkImageCompressionPropertiesEXT compression{VK_STRUCTURE_TYPE_IMAGE_COMPRESSION_PROPERTIES_EXT, &cubic, 0xFF, 0xFF};
  VkSamplerYcbcrConversionImageFormatProperties ycbcr{
      VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES, &compression, 77};
  VkExternalImageFormatProperties external{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES, &ycbcr, {}};
  std::memset(&external.externalMemoryProperties, 0xCD, sizeof(external.externalMemoryProperties));
  VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &external, {}};

  ASSERT_EQ(Query(device, {"", VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, kSampledUsage, OK}, &out), VK_SUCCESS);
  EXPECT_EQ(out.pNext, &external);
  EXPECT_EQ(external.sType, VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES);
  EXPECT_EQ(external.pNext, &ycbcr);
  EXPECT_EQ(external.externalMemoryProperties.externalMemoryFeatures, 0u);
  EXPECT_EQ(external.externalMemoryProperties.exportFromImportedHandleTypes, 0u);
  EXPECT_EQ(external.externalMemoryProperties.compatibleHandleTypes, 0u);
  EXPECT_EQ(ycbcr.pNext, &compression);
  EXPECT_EQ(ycbcr.combinedImageSamplerDescriptorCount, 2u);
  EXPECT_EQ(compression.pNext, &cubic);
  EXPECT_EQ(compression.imageCompressionFlags, VkImageCompressionFlagsEXT{VK_IMAGE_COMPRESSION_DISABLED_EXT});
  EXPECT_EQ(compression.imageCompressionFixedRateFlags, 0u);
  EXPECT_EQ(cubic.sType, VK_STRUCTURE_TYPE_FILTER_CUBIC_IMAGE_VIEW_IMAGE_FORMAT_PROPERTIES_EXT);
  EXPECT_EQ(cubic.filterCubic, VK_FALSE);
  EXPECT_EQ(cubic.filterCubicMinmax, VK_FALSE);

  ASSERT_EQ(Query(device, {"", VK_FORMAT_R8G8B8A8_UNORM, kSampledUsage, OK}, &out), VK_SUCCESS);
  EXPECT_EQ(ycbcr.combinedImageSamplerDescriptorCount, 1u) << "single-plane formats use one descriptor";
}

TEST(ImageFormatProperties, VulkanOneZeroForm) {
  DeviceDescription device = TestDevice();
  VkImageFormatProperties p{};
  EXPECT_EQ(GetImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                     kColourUsage, 0, &p),
            VK_SUCCESS);
  EXPECT_EQ(p.maxExtent.width, 16384u);
  EXPECT_EQ(p.sampleCounts, S1 | S2 | S4 | S8);
  std::memset(&p, 0x11, sizeof(p));
  EXPECT_EQ(GetImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                     kColourUsage, VK_IMAGE_CREATE_SPARSE_BINDING_BIT, &p),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(p.maxExtent.width, 0u);
  EXPECT_EQ(p.maxResourceSize, 0u);
}

TEST(FormatProperties, ThirtyTwoBitFormDropsBitsWithoutEquivalent) {
  DeviceDescription device;
  device.formats[VK_FORMAT_R32_UINT] = FormatSupport{
      VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT,
      VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT |
          VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT,
      VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT};

  VkFormatProperties narrow{};
  GetFormatProperties(device, VK_FORMAT_R32_UINT, narrow);
  EXPECT_EQ(narrow.linearTilingFeatures, VkFormatFeatureFlags{VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT});
  EXPECT_EQ(narrow.optimalTilingFeatures, VkFormatFeatureFlags{VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT});
  EXPECT_EQ(narrow.bufferFeatures, VkFormatFeatureFlags{VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT});

  int marker = 0;
  VkFormatProperties3 wide{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, &marker, 1, 1, 1};
  GetFormatProperties3(device, VK_FORMAT_R32_UINT, wide);
  EXPECT_EQ(wide.sType, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3);
  EXPECT_EQ(wide.pNext, &marker);
  EXPECT_EQ(wide.linearTilingFeatures,
            VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT);
  EXPECT_NE(wide.optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT, 0u);

  GetFormatProperties3(device, VK_FORMAT_R8_UNORM, wide);  // absent: unsupported
  EXPECT_EQ(wide.linearTilingFeatures, 0u);
  EXPECT_EQ(wide.optimalTilingFeatures, 0u);
  EXPECT_EQ(wide.bufferFeatures, 0u);
  EXPECT_EQ(wide.pNext, &marker);
}

TEST(FormatProperties, Properties2FillsTheChain) {
  DeviceDescription device;
  device.formats[VK_FORMAT_R8_UNORM] = FormatSupport{0, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT, 0};
  VkDrmFormatModifierPropertiesEXT modifiers[2]{};
  VkDrmFormatModifierPropertiesListEXT drm{VK_STRUCTURE_TYPE_DRM_FORMAT_MODIFIER_PROPERTIES_LIST_EXT, nullptr, 2,
                                           modifiers};
  VkFormatProperties3 wide{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, &drm, 0, 0, 0};
  VkFormatProperties2 out{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &wide, {}};
  GetFormatProperties2(device, VK_FORMAT_R8_UNORM, &out);
  EXPECT_EQ(out.formatProperties.optimalTilingFeatures, VkFormatFeatureFlags{VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT});
  EXPECT_EQ(wide.optimalTilingFeatures, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT);
  EXPECT_EQ(wide.pNext, &drm);
  EXPECT_EQ(drm.drmFormatModifierCount, 0u);
  EXPECT_EQ(drm.pDrmFormatModifierProperties, modifiers) << "the caller's array pointer stays";
}

}  // namespace
}  // namespace crashtest
