#include "format/required_format_support.h"

namespace crashtest {
namespace {

// The tables' columns.
constexpr VkFormatFeatureFlags2 S = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 BS = VK_FORMAT_FEATURE_2_BLIT_SRC_BIT;
constexpr VkFormatFeatureFlags2 L = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
constexpr VkFormatFeatureFlags2 SI = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT;
constexpr VkFormatFeatureFlags2 SIA = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
constexpr VkFormatFeatureFlags2 CA = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
constexpr VkFormatFeatureFlags2 BD = VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
constexpr VkFormatFeatureFlags2 CAB = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
constexpr VkFormatFeatureFlags2 DS = VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
constexpr VkFormatFeatureFlags2 VB = VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 UTB = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 STB = VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT;
constexpr VkFormatFeatureFlags2 STBA = VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
constexpr VkFormatFeatureFlags2 MINMAX = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;

constexpr FormatCondition kA = FormatCondition::kAlways;
constexpr FormatCondition kExt = FormatCondition::kStorageImageExtendedFormats;

// Rows in the tables' order; a "‡" storage-image cell is a second row under kExt.
constexpr FormatRequirement kRows[] = {
    // Sub-byte components.
    {VK_FORMAT_B4G4R4A4_UNORM_PACK16, S | BS | L, 0, kA},
    {VK_FORMAT_R5G6B5_UNORM_PACK16, S | BS | L | CA | BD | CAB, 0, kA},
    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, S | BS | L | CA | BD | CAB, 0, kA},
    // 1-3 byte-sized components.
    {VK_FORMAT_R8_UNORM, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_R8_UNORM, SI, 0, kExt},
    {VK_FORMAT_R8_SNORM, S | BS | L, VB | UTB, kA},
    {VK_FORMAT_R8_SNORM, SI, 0, kExt},
    {VK_FORMAT_R8_UINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R8_UINT, SI, 0, kExt},
    {VK_FORMAT_R8_SINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R8_SINT, SI, 0, kExt},
    {VK_FORMAT_R8G8_UNORM, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_R8G8_UNORM, SI, 0, kExt},
    {VK_FORMAT_R8G8_SNORM, S | BS | L, VB | UTB, kA},
    {VK_FORMAT_R8G8_SNORM, SI, 0, kExt},
    {VK_FORMAT_R8G8_UINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R8G8_UINT, SI, 0, kExt},
    {VK_FORMAT_R8G8_SINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R8G8_SINT, SI, 0, kExt},
    // 4 byte-sized components.
    {VK_FORMAT_R8G8B8A8_UNORM, S | BS | L | SI | CA | BD | CAB, VB | UTB | STB, kA},
    {VK_FORMAT_R8G8B8A8_SNORM, S | BS | L | SI, VB | UTB | STB, kA},
    {VK_FORMAT_R8G8B8A8_UINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R8G8B8A8_SINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R8G8B8A8_SRGB, S | BS | L | CA | BD | CAB, 0, kA},
    {VK_FORMAT_B8G8R8A8_UNORM, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_B8G8R8A8_SRGB, S | BS | L | CA | BD | CAB, 0, kA},
    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, S | BS | L | CA | BD | CAB, VB | UTB | STB, kA},
    {VK_FORMAT_A8B8G8R8_SNORM_PACK32, S | BS | L, VB | UTB | STB, kA},
    {VK_FORMAT_A8B8G8R8_UINT_PACK32, S | BS | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_A8B8G8R8_SINT_PACK32, S | BS | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_A8B8G8R8_SRGB_PACK32, S | BS | L | CA | BD | CAB, 0, kA},
    // 10- and 12-bit components.
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, SI, 0, kExt},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, S | BS | CA | BD, UTB, kA},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, SI, 0, kExt},
    // 16-bit components.
    {VK_FORMAT_R16_UNORM, 0, VB, kA},
    {VK_FORMAT_R16_UNORM, SI, 0, kExt},
    {VK_FORMAT_R16_SNORM, 0, VB, kA},
    {VK_FORMAT_R16_SNORM, SI, 0, kExt},
    {VK_FORMAT_R16_UINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R16_UINT, SI, 0, kExt},
    {VK_FORMAT_R16_SINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R16_SINT, SI, 0, kExt},
    {VK_FORMAT_R16_SFLOAT, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_R16_SFLOAT, SI, 0, kExt},
    {VK_FORMAT_R16G16_UNORM, 0, VB, kA},
    {VK_FORMAT_R16G16_UNORM, SI, 0, kExt},
    {VK_FORMAT_R16G16_SNORM, 0, VB, kA},
    {VK_FORMAT_R16G16_SNORM, SI, 0, kExt},
    {VK_FORMAT_R16G16_UINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R16G16_UINT, SI, 0, kExt},
    {VK_FORMAT_R16G16_SINT, S | BS | CA | BD, VB | UTB, kA},
    {VK_FORMAT_R16G16_SINT, SI, 0, kExt},
    {VK_FORMAT_R16G16_SFLOAT, S | BS | L | CA | BD | CAB, VB | UTB, kA},
    {VK_FORMAT_R16G16_SFLOAT, SI, 0, kExt},
    {VK_FORMAT_R16G16B16A16_UNORM, 0, VB, kA},
    {VK_FORMAT_R16G16B16A16_UNORM, SI, 0, kExt},
    {VK_FORMAT_R16G16B16A16_SNORM, 0, VB, kA},
    {VK_FORMAT_R16G16B16A16_SNORM, SI, 0, kExt},
    {VK_FORMAT_R16G16B16A16_UINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R16G16B16A16_SINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R16G16B16A16_SFLOAT, S | BS | L | SI | CA | BD | CAB, VB | UTB | STB, kA},
    // 32-bit components.
    {VK_FORMAT_R32_UINT, S | BS | SI | SIA | CA | BD, VB | UTB | STB | STBA, kA},
    {VK_FORMAT_R32_SINT, S | BS | SI | SIA | CA | BD, VB | UTB | STB | STBA, kA},
    {VK_FORMAT_R32_SFLOAT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32_SFLOAT, SIA, 0, FormatCondition::kImageFloat32Atomics},
    {VK_FORMAT_R32G32_UINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32G32_SINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32G32_SFLOAT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32G32B32_UINT, 0, VB, kA},
    {VK_FORMAT_R32G32B32_SINT, 0, VB, kA},
    {VK_FORMAT_R32G32B32_SFLOAT, 0, VB, kA},
    {VK_FORMAT_R32G32B32A32_UINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32G32B32A32_SINT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    {VK_FORMAT_R32G32B32A32_SFLOAT, S | BS | SI | CA | BD, VB | UTB | STB, kA},
    // 64-bit and uneven components.
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, S | BS | L, UTB, kA},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, SI, 0, kExt},
    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, S | BS | L, 0, kA},
    // Depth/stencil (2D): the unconditional cells; the "at least one of" pairs are DepthAttachmentChoices().
    {VK_FORMAT_D16_UNORM, S | BS | DS, 0, kA},
    {VK_FORMAT_D32_SFLOAT, S | BS, 0, kA},
    // "If filterMinmaxSingleComponentFormats is VK_TRUE, the following formats must support the
    // VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT feature with VK_IMAGE_TILING_OPTIMAL, if they support
    // VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT" (VkPhysicalDeviceSamplerFilterMinmaxProperties).
    {VK_FORMAT_R8_UNORM, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_R8_SNORM, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_R16_UNORM, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_R16_SNORM, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_R16_SFLOAT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_R32_SFLOAT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_D16_UNORM, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_X8_D24_UNORM_PACK32, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_D32_SFLOAT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_D16_UNORM_S8_UINT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_D24_UNORM_S8_UINT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, MINMAX, 0, FormatCondition::kFilterMinmaxSingleComponent},
};

constexpr VkFormat kDepthChoices[] = {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT};
constexpr VkFormat kDepthStencilChoices[] = {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT};

constexpr VkFormat kBc[] = {
    VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
    VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_UNORM_BLOCK,    VK_FORMAT_BC2_SRGB_BLOCK,
    VK_FORMAT_BC3_UNORM_BLOCK,     VK_FORMAT_BC3_SRGB_BLOCK,     VK_FORMAT_BC4_UNORM_BLOCK,
    VK_FORMAT_BC4_SNORM_BLOCK,     VK_FORMAT_BC5_UNORM_BLOCK,    VK_FORMAT_BC5_SNORM_BLOCK,
    VK_FORMAT_BC6H_UFLOAT_BLOCK,   VK_FORMAT_BC6H_SFLOAT_BLOCK,  VK_FORMAT_BC7_UNORM_BLOCK,
    VK_FORMAT_BC7_SRGB_BLOCK,
};
constexpr VkFormat kEtc[] = {
    VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,   VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,   VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK,
    VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK,  VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
    VK_FORMAT_EAC_R11_UNORM_BLOCK,       VK_FORMAT_EAC_R11_SNORM_BLOCK,      VK_FORMAT_EAC_R11G11_UNORM_BLOCK,
    VK_FORMAT_EAC_R11G11_SNORM_BLOCK,
};
constexpr VkFormat kAstc[] = {
    VK_FORMAT_ASTC_4x4_UNORM_BLOCK,   VK_FORMAT_ASTC_4x4_SRGB_BLOCK,   VK_FORMAT_ASTC_5x4_UNORM_BLOCK,
    VK_FORMAT_ASTC_5x4_SRGB_BLOCK,    VK_FORMAT_ASTC_5x5_UNORM_BLOCK,  VK_FORMAT_ASTC_5x5_SRGB_BLOCK,
    VK_FORMAT_ASTC_6x5_UNORM_BLOCK,   VK_FORMAT_ASTC_6x5_SRGB_BLOCK,   VK_FORMAT_ASTC_6x6_UNORM_BLOCK,
    VK_FORMAT_ASTC_6x6_SRGB_BLOCK,    VK_FORMAT_ASTC_8x5_UNORM_BLOCK,  VK_FORMAT_ASTC_8x5_SRGB_BLOCK,
    VK_FORMAT_ASTC_8x6_UNORM_BLOCK,   VK_FORMAT_ASTC_8x6_SRGB_BLOCK,   VK_FORMAT_ASTC_8x8_UNORM_BLOCK,
    VK_FORMAT_ASTC_8x8_SRGB_BLOCK,    VK_FORMAT_ASTC_10x5_UNORM_BLOCK, VK_FORMAT_ASTC_10x5_SRGB_BLOCK,
    VK_FORMAT_ASTC_10x6_UNORM_BLOCK,  VK_FORMAT_ASTC_10x6_SRGB_BLOCK,  VK_FORMAT_ASTC_10x8_UNORM_BLOCK,
    VK_FORMAT_ASTC_10x8_SRGB_BLOCK,   VK_FORMAT_ASTC_10x10_UNORM_BLOCK, VK_FORMAT_ASTC_10x10_SRGB_BLOCK,
    VK_FORMAT_ASTC_12x10_UNORM_BLOCK, VK_FORMAT_ASTC_12x10_SRGB_BLOCK, VK_FORMAT_ASTC_12x12_UNORM_BLOCK,
    VK_FORMAT_ASTC_12x12_SRGB_BLOCK,
};

constexpr VkFormat kStorageWithoutFormat[] = {
    VK_FORMAT_R8G8B8A8_UNORM,         VK_FORMAT_R8G8B8A8_SNORM,          VK_FORMAT_R8G8B8A8_UINT,
    VK_FORMAT_R8G8B8A8_SINT,          VK_FORMAT_R32_UINT,                VK_FORMAT_R32_SINT,
    VK_FORMAT_R32_SFLOAT,             VK_FORMAT_R32G32_UINT,             VK_FORMAT_R32G32_SINT,
    VK_FORMAT_R32G32_SFLOAT,          VK_FORMAT_R32G32B32A32_UINT,       VK_FORMAT_R32G32B32A32_SINT,
    VK_FORMAT_R32G32B32A32_SFLOAT,    VK_FORMAT_R16G16B16A16_UINT,       VK_FORMAT_R16G16B16A16_SINT,
    VK_FORMAT_R16G16B16A16_SFLOAT,    VK_FORMAT_R16G16_SFLOAT,           VK_FORMAT_B10G11R11_UFLOAT_PACK32,
    VK_FORMAT_R16_SFLOAT,             VK_FORMAT_R16G16B16A16_UNORM,      VK_FORMAT_A2B10G10R10_UNORM_PACK32,
    VK_FORMAT_R16G16_UNORM,           VK_FORMAT_R8G8_UNORM,              VK_FORMAT_R16_UNORM,
    VK_FORMAT_R8_UNORM,               VK_FORMAT_R16G16B16A16_SNORM,      VK_FORMAT_R16G16_SNORM,
    VK_FORMAT_R8G8_SNORM,             VK_FORMAT_R16_SNORM,               VK_FORMAT_R8_SNORM,
    VK_FORMAT_R16G16_SINT,            VK_FORMAT_R8G8_SINT,               VK_FORMAT_R16_SINT,
    VK_FORMAT_R8_SINT,                VK_FORMAT_A2B10G10R10_UINT_PACK32, VK_FORMAT_R16G16_UINT,
    VK_FORMAT_R8G8_UINT,              VK_FORMAT_R16_UINT,                VK_FORMAT_R8_UINT,
};

}  // namespace

std::span<const FormatRequirement> RequiredFormatSupport() { return kRows; }
std::span<const VkFormat> DepthAttachmentChoices() { return kDepthChoices; }
std::span<const VkFormat> DepthStencilAttachmentChoices() { return kDepthStencilChoices; }
std::span<const VkFormat> BcFormats() { return kBc; }
std::span<const VkFormat> EtcFormats() { return kEtc; }
std::span<const VkFormat> AstcFormats() { return kAstc; }
std::span<const VkFormat> StorageWithoutFormatFormats() { return kStorageWithoutFormat; }

}  // namespace crashtest
