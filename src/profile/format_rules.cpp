#include "profile/format_rules.h"

#include <algorithm>
#include <map>

#include "format/format_info.h"
#include "format/required_format_support.h"
#include "profile/feature_rules.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

constexpr VkFormatFeatureFlags2 kTransfer = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;

FormatSupport Have(const DeviceDescription& d, VkFormat format) {
  auto it = d.formats.find(format);
  return it != d.formats.end() ? it->second : FormatSupport{};
}

bool Applies(const DeviceDescription& d, const FormatRequirement& r) {
  switch (r.condition) {
    case FormatCondition::kAlways: return true;
    case FormatCondition::kStorageImageExtendedFormats: return d.features.shaderStorageImageExtendedFormats == VK_TRUE;
    case FormatCondition::kImageFloat32Atomics:
      return FeatureSupported(d, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32Atomics") ||
             FeatureSupported(d, "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderImageFloat32AtomicAdd") ||
             FeatureSupported(d, "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT.shaderImageFloat32AtomicMinMax");
    case FormatCondition::kFilterMinmaxSingleComponent:
      return FeatureSupported(d, "VkPhysicalDeviceSamplerFilterMinmaxProperties.filterMinmaxSingleComponentFormats") &&
             (Have(d, r.format).optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT) != 0;
  }
  return false;
}

bool FamilyComplete(const DeviceDescription& d, std::span<const VkFormat> family) {
  return std::all_of(family.begin(), family.end(), [&](VkFormat f) {
    return (Have(d, f).optimalTilingFeatures & kCompressedFamilyFeatures) == kCompressedFamilyFeatures;
  });
}

// "at least one of" `choices` supports DEPTH_STENCIL_ATTACHMENT; when none does, the first the description lists
// (else the first) is the one required.
VkFormat AttachmentChoice(const DeviceDescription& d, std::span<const VkFormat> choices) {
  for (VkFormat f : choices)
    if (Have(d, f).optimalTilingFeatures & VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT) return VK_FORMAT_UNDEFINED;
  for (VkFormat f : choices)
    if (d.formats.count(f) != 0) return f;
  return choices.front();
}

bool AtLeast13(const DeviceDescription& d) {
  return VK_API_VERSION_MINOR(d.properties.apiVersion) >= 3 || VK_API_VERSION_MAJOR(d.properties.apiVersion) > 1 ||
         d.HasExtension("VK_KHR_format_feature_flags2");
}

// What the description must support, format by format, given its features and its current format support.
std::map<VkFormat, FormatSupport> Required(const DeviceDescription& d) {
  std::map<VkFormat, FormatSupport> required;
  for (const FormatRequirement& r : RequiredFormatSupport()) {
    if (!Applies(d, r)) continue;
    required[r.format].optimalTilingFeatures |= r.optimal;
    required[r.format].bufferFeatures |= r.buffer;
  }
  for (std::span<const VkFormat> choices : {DepthAttachmentChoices(), DepthStencilAttachmentChoices()})
    if (VkFormat f = AttachmentChoice(d, choices); f != VK_FORMAT_UNDEFINED)
      required[f].optimalTilingFeatures |= VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;
  if (!FamilyComplete(d, BcFormats()) && !FamilyComplete(d, EtcFormats()) && !FamilyComplete(d, AstcFormats()))
    for (VkFormat f : BcFormats()) required[f].optimalTilingFeatures |= kCompressedFamilyFeatures;
  // "Formats that are required to support VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT must also support
  // VK_FORMAT_FEATURE_TRANSFER_SRC_BIT and VK_FORMAT_FEATURE_TRANSFER_DST_BIT" (Vulkan 1.1 / maintenance1).
  for (auto& [format, support] : required)
    if (support.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT) support.optimalTilingFeatures |= kTransfer;
  if (AtLeast13(d)) {
    // "a depth/stencil format with a depth component supporting VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT must support
    // VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT" (Depth Comparison Format Support).
    for (const auto& [format, support] : d.formats) {
      if (!HasDepth(format)) continue;
      if (support.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT)
        required[format].optimalTilingFeatures |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
      if (support.linearTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT)
        required[format].linearTilingFeatures |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
    }
    // "Formats Without Shader Storage Format": a listed format with STORAGE_IMAGE supports reads (writes) without
    // a format when shaderStorageImageReadWithoutFormat (...WriteWithoutFormat) is supported.
    VkFormatFeatureFlags2 withoutFormat = 0;
    if (d.features.shaderStorageImageReadWithoutFormat) withoutFormat |= VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT;
    if (d.features.shaderStorageImageWriteWithoutFormat)
      withoutFormat |= VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
    for (VkFormat f : StorageWithoutFormatFormats()) {
      const FormatSupport have = Have(d, f);
      if (have.optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT)
        required[f].optimalTilingFeatures |= withoutFormat;
      if (have.linearTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT)
        required[f].linearTilingFeatures |= withoutFormat;
    }
  }
  return required;
}


std::string BitNames(VkFormatFeatureFlags2 bits) {
  std::string names;
  for (int bit = 0; bit < 64; ++bit) {
    const VkFormatFeatureFlags2 b = VkFormatFeatureFlags2{1} << bit;
    if ((bits & b) == 0) continue;
    std::string_view name = EnumValueName("VkFormatFeatureFlagBits2", static_cast<int64_t>(b));
    names += (names.empty() ? "" : " | ") + (name.empty() ? std::to_string(b) : std::string(name));
  }
  return names;
}

}  // namespace

std::vector<std::string> UnmetFormatRequirements(const DeviceDescription& d) {
  std::vector<std::string> unmet;
  for (const auto& [format, need] : Required(d)) {
    const FormatSupport have = Have(d, format);
    const struct {
      const char* what;
      VkFormatFeatureFlags2 missing;
    } parts[] = {{"optimalTilingFeatures", need.optimalTilingFeatures & ~have.optimalTilingFeatures},
                 {"linearTilingFeatures", need.linearTilingFeatures & ~have.linearTilingFeatures},
                 {"bufferFeatures", need.bufferFeatures & ~have.bufferFeatures}};
    for (const auto& part : parts)
      if (part.missing != 0)
        unmet.push_back(std::string(FormatName(format)) + " " + part.what + " lack " + BitNames(part.missing) +
                        " (Required Format Support)");
  }
  return unmet;
}

void CompleteRequiredFormatSupport(DeviceDescription& d, const DriverCapabilities& driver) {
  // Adding SAMPLED_IMAGE may make the min/max and depth comparison rows apply: repeat until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    const bool bcNeeded = !FamilyComplete(d, BcFormats()) && !FamilyComplete(d, EtcFormats()) &&
                          !FamilyComplete(d, AstcFormats());
    for (const auto& [format, need] : Required(d)) {
      const FormatSupport mine = driver.FormatFeatures(format);
      FormatSupport& have = d.formats[format];
      const FormatSupport add{need.linearTilingFeatures & ~have.linearTilingFeatures & mine.linearTilingFeatures,
                              need.optimalTilingFeatures & ~have.optimalTilingFeatures & mine.optimalTilingFeatures,
                              need.bufferFeatures & ~have.bufferFeatures & mine.bufferFeatures};
      if ((add.linearTilingFeatures | add.optimalTilingFeatures | add.bufferFeatures) == 0) {
        if ((have.linearTilingFeatures | have.optimalTilingFeatures | have.bufferFeatures) == 0) d.formats.erase(format);
        continue;
      }
      have.linearTilingFeatures |= add.linearTilingFeatures;
      have.optimalTilingFeatures |= add.optimalTilingFeatures;
      have.bufferFeatures |= add.bufferFeatures;
      d.added.push_back({"format features of " + std::string(FormatName(format)) + ": " +
                             BitNames(add.linearTilingFeatures | add.optimalTilingFeatures | add.bufferFeatures),
                         "the spec's Required Format Support makes them mandatory"});
      changed = true;
    }
    if (bcNeeded && FamilyComplete(d, BcFormats()) && d.features.textureCompressionBC == VK_FALSE) {
      d.features.textureCompressionBC = VK_TRUE;
      d.added.push_back({"feature VkPhysicalDeviceFeatures.textureCompressionBC",
                         "every device samples one compressed family completely (Required Format Support); the "
                         "profile's are not, and crashtest decodes BC"});
    }
  }
}

}  // namespace crashtest
