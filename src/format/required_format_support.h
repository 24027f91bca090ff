// The spec's "Required Format Support" (chapter Formats): the format features every device must support, some
// only with a device feature or property. Facts of the spec; src/profile/format_rules.cpp applies them to a
// device's description.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

namespace crashtest {

// When a row's features are mandatory.
enum class FormatCondition : uint8_t {
  kAlways,
  kStorageImageExtendedFormats,  // the tables' "‡": with shaderStorageImageExtendedFormats
  kImageFloat32Atomics,          // shaderImageFloat32Atomics, ...AtomicAdd or ...AtomicMinMax
  kFilterMinmaxSingleComponent,  // VkPhysicalDeviceSamplerFilterMinmaxProperties::filterMinmaxSingleComponentFormats,
                                 // and only if the format supports SAMPLED_IMAGE
};

struct FormatRequirement {
  VkFormat format;
  VkFormatFeatureFlags2 optimal;  // optimalTilingFeatures
  VkFormatFeatureFlags2 buffer;   // bufferFeatures
  FormatCondition condition;
};

// The rows of the mandatory format support tables (sub-byte to 64-bit components, the depth/stencil table's
// unconditional entries) and the min/max filtering list. Several rows may name one format (different conditions).
std::span<const FormatRequirement> RequiredFormatSupport();

// "DEPTH_STENCIL_ATTACHMENT ... must be supported for at least one of X8_D24_UNORM_PACK32 and D32_SFLOAT, and ...
// for at least one of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT".
std::span<const VkFormat> DepthAttachmentChoices();
std::span<const VkFormat> DepthStencilAttachmentChoices();

// The compressed families (BC, ETC2/EAC, ASTC LDR): SAMPLED_IMAGE, BLIT_SRC and SAMPLED_IMAGE_FILTER_LINEAR "must be
// supported in optimalTilingFeatures for all the formats in at least one of" them.
std::span<const VkFormat> BcFormats();
std::span<const VkFormat> EtcFormats();
std::span<const VkFormat> AstcFormats();
inline constexpr VkFormatFeatureFlags2 kCompressedFamilyFeatures = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT |
                                                                   VK_FORMAT_FEATURE_2_BLIT_SRC_BIT |
                                                                   VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT;

// The formats STORAGE_READ/WRITE_WITHOUT_FORMAT apply to ("Formats Without Shader Storage Format").
std::span<const VkFormat> StorageWithoutFormatFormats();

}  // namespace crashtest
