#include "profile/required_limits.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <sstream>

#include "profile/description_access.h"
#include "profile/feature_rules.h"
#include "profile/struct_table.h"

namespace crashtest {
namespace {

std::string Text(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

class Checker {
 public:
  Checker(const DeviceDescription& d, const GivenMembers* given)
      : d_(d), l_(d.properties.limits), given_(given), limitsInfo_(FindStruct("VkPhysicalDeviceLimits")) {}

  std::vector<LimitProblem> Run() {
    CheckCoreLimits();
    CheckConsistency();
    CheckExtendedLimits();
    return std::move(problems_);
  }

 private:
  static constexpr const char* kLimits = "VkPhysicalDeviceProperties.limits.";

  void Problem(std::string path, std::string text) { problems_.push_back({std::move(path), std::move(text)}); }

  // Whether the profile states the member ("maxComputeWorkGroupSize[2]" is maxComputeWorkGroupSize's).
  bool Given(const StructInfo* info, std::string_view member) const {
    if (given_ == nullptr) return true;
    member = member.substr(0, member.find('['));
    const MemberInfo* m = info != nullptr ? info->FindMember(member) : nullptr;
    return m != nullptr && given_->count(m) != 0;
  }
  bool Given(std::string_view limit) const { return Given(limitsInfo_, limit); }

  // "min": every device reports at least `required`.
  void Min(const char* name, double value, double required, const char* why = "Required Limits") {
    if (Given(name) && value < required)
      Problem(std::string(kLimits) + name, std::string(name) + " is " + Text(value) + "; every device reports at least " +
                                               Text(required) + " (" + why + ")");
  }
  // "max": every device reports at most `required`.
  void Max(const char* name, double value, double required, const char* why = "Required Limits") {
    if (Given(name) && value > required)
      Problem(std::string(kLimits) + name, std::string(name) + " is " + Text(value) + "; every device reports at most " +
                                               Text(required) + " (" + why + ")");
  }
  // A bitmask limit: at least the required bits.
  void Bits(const char* name, uint32_t value, uint32_t required) {
    if (Given(name) && (value & required) != required)
      Problem(std::string(kLimits) + name, std::string(name) + " is " + std::to_string(value) +
                                               "; every device sets at least the bits " + std::to_string(required) +
                                               " (Required Limits)");
  }
  void PowerOfTwo(const char* name, uint64_t value) {
    if (Given(name) && !std::has_single_bit(value))
      Problem(std::string(kLimits) + name,
              std::string(name) + " is " + std::to_string(value) + "; the spec requires a power of two");
  }

  void CheckCoreLimits() {
    const VkPhysicalDeviceFeatures& f = d_.features;
    Min("maxImageDimension1D", l_.maxImageDimension1D, 4096);
    Min("maxImageDimension2D", l_.maxImageDimension2D, 4096);
    Min("maxImageDimension3D", l_.maxImageDimension3D, 256);
    Min("maxImageDimensionCube", l_.maxImageDimensionCube, 4096);
    Min("maxImageArrayLayers", l_.maxImageArrayLayers, 256);
    Min("maxTexelBufferElements", l_.maxTexelBufferElements, 65536);
    Min("maxUniformBufferRange", l_.maxUniformBufferRange, 16384);
    Min("maxStorageBufferRange", l_.maxStorageBufferRange, 1u << 27);
    Min("maxPushConstantsSize", l_.maxPushConstantsSize, 128);
    Min("maxMemoryAllocationCount", l_.maxMemoryAllocationCount, 4096);
    Min("maxSamplerAllocationCount", l_.maxSamplerAllocationCount, 4000);
    Max("bufferImageGranularity", static_cast<double>(l_.bufferImageGranularity), 131072);
    if (f.sparseBinding) Min("sparseAddressSpaceSize", static_cast<double>(l_.sparseAddressSpaceSize), 2147483648.0);
    Min("maxBoundDescriptorSets", l_.maxBoundDescriptorSets, 4);
    Min("maxPerStageDescriptorSamplers", l_.maxPerStageDescriptorSamplers, 16);
    Min("maxPerStageDescriptorUniformBuffers", l_.maxPerStageDescriptorUniformBuffers, 12);
    Min("maxPerStageDescriptorStorageBuffers", l_.maxPerStageDescriptorStorageBuffers, 4);
    Min("maxPerStageDescriptorSampledImages", l_.maxPerStageDescriptorSampledImages, 16);
    Min("maxPerStageDescriptorStorageImages", l_.maxPerStageDescriptorStorageImages, 4);
    Min("maxPerStageDescriptorInputAttachments", l_.maxPerStageDescriptorInputAttachments, 4);
    // Footnote 8: "The minimum maxDescriptorSet* limit is n times the corresponding specification minimum
    // maxPerStageDescriptor* limit, where n is the number of shader stages supported".
    const double n = 3.0 + (f.tessellationShader ? 2.0 : 0.0) + (f.geometryShader ? 1.0 : 0.0);
    Min("maxDescriptorSetSamplers", l_.maxDescriptorSetSamplers, n * 16);
    Min("maxDescriptorSetUniformBuffers", l_.maxDescriptorSetUniformBuffers, n * 12);
    Min("maxDescriptorSetUniformBuffersDynamic", l_.maxDescriptorSetUniformBuffersDynamic, 8);
    Min("maxDescriptorSetStorageBuffers", l_.maxDescriptorSetStorageBuffers, n * 4);
    Min("maxDescriptorSetStorageBuffersDynamic", l_.maxDescriptorSetStorageBuffersDynamic, 4);
    Min("maxDescriptorSetSampledImages", l_.maxDescriptorSetSampledImages, n * 16);
    Min("maxDescriptorSetStorageImages", l_.maxDescriptorSetStorageImages, n * 4);
    Min("maxDescriptorSetInputAttachments", l_.maxDescriptorSetInputAttachments, 4);
    Min("maxVertexInputAttributes", l_.maxVertexInputAttributes, 16);
    Min("maxVertexInputBindings", l_.maxVertexInputBindings, 16);
    Min("maxVertexInputAttributeOffset", l_.maxVertexInputAttributeOffset, 2047);
    Min("maxVertexInputBindingStride", l_.maxVertexInputBindingStride, 2048);
    Min("maxVertexOutputComponents", l_.maxVertexOutputComponents, 64);
    if (f.tessellationShader) {
      Min("maxTessellationGenerationLevel", l_.maxTessellationGenerationLevel, 64);
      Min("maxTessellationPatchSize", l_.maxTessellationPatchSize, 32);
      Min("maxTessellationControlPerVertexInputComponents", l_.maxTessellationControlPerVertexInputComponents, 64);
      Min("maxTessellationControlPerVertexOutputComponents", l_.maxTessellationControlPerVertexOutputComponents, 64);
      Min("maxTessellationControlPerPatchOutputComponents", l_.maxTessellationControlPerPatchOutputComponents, 120);
      Min("maxTessellationControlTotalOutputComponents", l_.maxTessellationControlTotalOutputComponents, 2048);
      Min("maxTessellationEvaluationInputComponents", l_.maxTessellationEvaluationInputComponents, 64);
      Min("maxTessellationEvaluationOutputComponents", l_.maxTessellationEvaluationOutputComponents, 64);
    }
    if (f.geometryShader) {
      Min("maxGeometryShaderInvocations", l_.maxGeometryShaderInvocations, 32);
      Min("maxGeometryInputComponents", l_.maxGeometryInputComponents, 64);
      Min("maxGeometryOutputComponents", l_.maxGeometryOutputComponents, 64);
      Min("maxGeometryOutputVertices", l_.maxGeometryOutputVertices, 256);
      Min("maxGeometryTotalOutputComponents", l_.maxGeometryTotalOutputComponents, 1024);
    }
    Min("maxFragmentInputComponents", l_.maxFragmentInputComponents, 64);
    Min("maxFragmentOutputAttachments", l_.maxFragmentOutputAttachments, 4);
    if (f.dualSrcBlend) Min("maxFragmentDualSrcAttachments", l_.maxFragmentDualSrcAttachments, 1);
    Min("maxFragmentCombinedOutputResources", l_.maxFragmentCombinedOutputResources, 4);
    Min("maxComputeSharedMemorySize", l_.maxComputeSharedMemorySize, 16384);
    Min("maxComputeWorkGroupCount[0]", l_.maxComputeWorkGroupCount[0], 65535);
    Min("maxComputeWorkGroupCount[1]", l_.maxComputeWorkGroupCount[1], 65535);
    Min("maxComputeWorkGroupCount[2]", l_.maxComputeWorkGroupCount[2], 65535);
    Min("maxComputeWorkGroupInvocations", l_.maxComputeWorkGroupInvocations, 128);
    Min("maxComputeWorkGroupSize[0]", l_.maxComputeWorkGroupSize[0], 128);
    Min("maxComputeWorkGroupSize[1]", l_.maxComputeWorkGroupSize[1], 128);
    Min("maxComputeWorkGroupSize[2]", l_.maxComputeWorkGroupSize[2], 64);
    Min("subPixelPrecisionBits", l_.subPixelPrecisionBits, 4);
    Min("subTexelPrecisionBits", l_.subTexelPrecisionBits, 4);
    Min("mipmapPrecisionBits", l_.mipmapPrecisionBits, 4);
    Min("maxDrawIndexedIndexValue", l_.maxDrawIndexedIndexValue, f.fullDrawIndexUint32 ? 4294967295.0 : 16777215.0);
    Min("maxDrawIndirectCount", l_.maxDrawIndirectCount, f.multiDrawIndirect ? 65535 : 1);
    Min("maxSamplerLodBias", l_.maxSamplerLodBias, 2);
    if (f.samplerAnisotropy) Min("maxSamplerAnisotropy", l_.maxSamplerAnisotropy, 16);
    if (f.multiViewport) Min("maxViewports", l_.maxViewports, 16);
    Min("maxViewportDimensions[0]", l_.maxViewportDimensions[0], 4096);
    Min("maxViewportDimensions[1]", l_.maxViewportDimensions[1], 4096);
    Max("viewportBoundsRange[0]", l_.viewportBoundsRange[0], -8192);
    Min("viewportBoundsRange[1]", l_.viewportBoundsRange[1], 8191);
    Min("minMemoryMapAlignment", static_cast<double>(l_.minMemoryMapAlignment), 64);
    Max("minTexelBufferOffsetAlignment", static_cast<double>(l_.minTexelBufferOffsetAlignment), 256);
    Max("minUniformBufferOffsetAlignment", static_cast<double>(l_.minUniformBufferOffsetAlignment), 256);
    Max("minStorageBufferOffsetAlignment", static_cast<double>(l_.minStorageBufferOffsetAlignment), 256);
    Max("minTexelOffset", l_.minTexelOffset, -8);
    Min("maxTexelOffset", l_.maxTexelOffset, 7);
    if (f.shaderImageGatherExtended) {
      Max("minTexelGatherOffset", l_.minTexelGatherOffset, -8);
      Min("maxTexelGatherOffset", l_.maxTexelGatherOffset, 7);
    }
    if (f.sampleRateShading) {
      Max("minInterpolationOffset", l_.minInterpolationOffset, -0.5);
      Min("subPixelInterpolationOffsetBits", l_.subPixelInterpolationOffsetBits, 4);
      // "0.5 - (1 ULP)", the ULP being 2^-subPixelInterpolationOffsetBits (footnote 5).
      Min("maxInterpolationOffset", l_.maxInterpolationOffset,
          0.5 - std::ldexp(1.0, -static_cast<int>(std::min(l_.subPixelInterpolationOffsetBits, 30u))));
    }
    Min("maxFramebufferWidth", l_.maxFramebufferWidth, 4096);
    Min("maxFramebufferHeight", l_.maxFramebufferHeight, 4096);
    Min("maxFramebufferLayers", l_.maxFramebufferLayers, 256);
    constexpr uint32_t k1and4 = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
    Bits("framebufferColorSampleCounts", l_.framebufferColorSampleCounts, k1and4);
    Bits("framebufferDepthSampleCounts", l_.framebufferDepthSampleCounts, k1and4);
    Bits("framebufferStencilSampleCounts", l_.framebufferStencilSampleCounts, k1and4);
    Bits("framebufferNoAttachmentsSampleCounts", l_.framebufferNoAttachmentsSampleCounts, k1and4);
    Min("maxColorAttachments", l_.maxColorAttachments, 4);
    Bits("sampledImageColorSampleCounts", l_.sampledImageColorSampleCounts, k1and4);
    Bits("sampledImageIntegerSampleCounts", l_.sampledImageIntegerSampleCounts, VK_SAMPLE_COUNT_1_BIT);
    Bits("sampledImageDepthSampleCounts", l_.sampledImageDepthSampleCounts, k1and4);
    Bits("sampledImageStencilSampleCounts", l_.sampledImageStencilSampleCounts, k1and4);
    Bits("storageImageSampleCounts", l_.storageImageSampleCounts,
         f.shaderStorageImageMultisample ? k1and4 : static_cast<uint32_t>(VK_SAMPLE_COUNT_1_BIT));
    Min("maxSampleMaskWords", l_.maxSampleMaskWords, 1);
    if (f.shaderClipDistance) Min("maxClipDistances", l_.maxClipDistances, 8);
    if (f.shaderCullDistance) Min("maxCullDistances", l_.maxCullDistances, 8);
    if (f.shaderClipDistance || f.shaderCullDistance)
      Min("maxCombinedClipAndCullDistances", l_.maxCombinedClipAndCullDistances, 8);
    Min("discreteQueuePriorities", l_.discreteQueuePriorities, 2);
    Max("nonCoherentAtomSize", static_cast<double>(l_.nonCoherentAtomSize), 256);
    PowerOfTwo("minMemoryMapAlignment", l_.minMemoryMapAlignment);
    PowerOfTwo("minTexelBufferOffsetAlignment", l_.minTexelBufferOffsetAlignment);
    PowerOfTwo("minUniformBufferOffsetAlignment", l_.minUniformBufferOffsetAlignment);
    PowerOfTwo("minStorageBufferOffsetAlignment", l_.minStorageBufferOffsetAlignment);
  }

  void CheckConsistency() {
    const VkPhysicalDeviceFeatures& f = d_.features;
    // Footnote 2: "maxPerStageResources must be at least the smallest of ... the sum of the
    // maxPerStageDescriptorUniformBuffers, ...StorageBuffers, ...SampledImages, ...StorageImages,
    // ...InputAttachments, maxColorAttachments limits, or 128".
    const double sum = static_cast<double>(l_.maxPerStageDescriptorUniformBuffers) + l_.maxPerStageDescriptorStorageBuffers +
                       l_.maxPerStageDescriptorSampledImages + l_.maxPerStageDescriptorStorageImages +
                       l_.maxPerStageDescriptorInputAttachments + l_.maxColorAttachments;
    Min("maxPerStageResources", l_.maxPerStageResources, std::min(sum, 128.0), "Required Limits, footnote 2");
    // "The viewportBoundsRange must be at least [-2 × size, 2 × size - 1], where size = max(maxViewportDimensions)".
    const double size = std::max(l_.maxViewportDimensions[0], l_.maxViewportDimensions[1]);
    Max("viewportBoundsRange[0]", l_.viewportBoundsRange[0], -2 * size, "viewportBoundsRange");
    Min("viewportBoundsRange[1]", l_.viewportBoundsRange[1], 2 * size - 1, "viewportBoundsRange");
    // Points and lines: the supported range reaches 64 (8) less one granularity step (footnotes 6 and 7); one
    // size means no step between sizes (granularity 0.0, the table's unsupported value).
    if (f.largePoints) {
      Max("pointSizeGranularity", l_.pointSizeGranularity, 1.0);
      Min("pointSizeRange[1]", l_.pointSizeRange[1], 64.0 - l_.pointSizeGranularity, "Required Limits, footnote 6");
    }
    Max("pointSizeRange[0]", l_.pointSizeRange[0], 1.0);
    if (Given("pointSizeRange") && l_.pointSizeRange[0] == l_.pointSizeRange[1])
      Max("pointSizeGranularity", l_.pointSizeGranularity, 0.0, "a single point size has no granularity");
    if (f.wideLines) {
      Max("lineWidthGranularity", l_.lineWidthGranularity, 1.0);
      Min("lineWidthRange[1]", l_.lineWidthRange[1], 8.0 - l_.lineWidthGranularity, "Required Limits, footnote 7");
    }
    Max("lineWidthRange[0]", l_.lineWidthRange[0], 1.0);
    if (Given("lineWidthRange") && l_.lineWidthRange[0] == l_.lineWidthRange[1])
      Max("lineWidthGranularity", l_.lineWidthGranularity, 0.0, "a single line width has no granularity");
  }

  // A uint32/uint64 member of an extended properties struct; nullopt when the description has none.
  std::optional<double> Member(std::string_view structName, std::string_view member) const {
    const StructInfo* s = FindStruct(structName);
    const MemberInfo* m = s != nullptr ? s->FindMember(member) : nullptr;
    if (m == nullptr) return std::nullopt;
    const std::byte* base = StructBytes(d_, *s);
    if (base == nullptr || !Given(s, member)) return std::nullopt;
    if (m->kind == MemberKind::UInt32) {
      uint32_t v;
      std::memcpy(&v, base + m->offset, sizeof v);
      return v;
    }
    if (m->kind == MemberKind::UInt64) {
      uint64_t v;
      std::memcpy(&v, base + m->offset, sizeof v);
      return static_cast<double>(v);
    }
    return std::nullopt;
  }
  void MinMember(std::string_view structName, std::string_view member, double required, const char* why) {
    if (std::optional<double> v = Member(structName, member); v && *v < required)
      Problem(std::string(structName) + '.' + std::string(member),
              std::string(member) + " is " + Text(*v) + "; every device reports at least " + Text(required) + " (" +
                  why + ")");
  }
  void MaxMember(std::string_view structName, std::string_view member, double required, const char* why) {
    if (std::optional<double> v = Member(structName, member); v && *v > required)
      Problem(std::string(structName) + '.' + std::string(member),
              std::string(member) + " is " + Text(*v) + "; every device reports at most " + Text(required) + " (" +
                  why + ")");
  }

  void CheckExtendedLimits() {
    constexpr const char* kTable = "Required Limits";
    MinMember("VkPhysicalDeviceMaintenance3Properties", "maxPerSetDescriptors", 1024, kTable);
    MinMember("VkPhysicalDeviceMaintenance3Properties", "maxMemoryAllocationSize", 1073741824.0, kTable);
    MinMember("VkPhysicalDeviceMaintenance4Properties", "maxBufferSize", 1073741824.0, kTable);
    if (FeatureSupported(d_, "VkPhysicalDeviceMultiviewFeatures.multiview")) {
      MinMember("VkPhysicalDeviceMultiviewProperties", "maxMultiviewViewCount", 6, kTable);
      MinMember("VkPhysicalDeviceMultiviewProperties", "maxMultiviewInstanceIndex", 134217727.0, kTable);
    }
    if (FeatureSupported(d_, "VkPhysicalDeviceTimelineSemaphoreFeatures.timelineSemaphore"))
      MinMember("VkPhysicalDeviceTimelineSemaphoreProperties", "maxTimelineSemaphoreValueDifference", 2147483647.0,
                kTable);
    if (FeatureSupported(d_, "VkPhysicalDeviceInlineUniformBlockFeatures.inlineUniformBlock")) {
      constexpr const char* s = "VkPhysicalDeviceInlineUniformBlockProperties";
      MinMember(s, "maxInlineUniformBlockSize", 256, kTable);
      MinMember(s, "maxPerStageDescriptorInlineUniformBlocks", 4, kTable);
      MinMember(s, "maxDescriptorSetInlineUniformBlocks", 4, kTable);
      if (FeatureSupported(d_, "VkPhysicalDeviceInlineUniformBlockFeatures."
                               "descriptorBindingInlineUniformBlockUpdateAfterBind")) {
        MinMember(s, "maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks", 4, kTable);
        MinMember(s, "maxDescriptorSetUpdateAfterBindInlineUniformBlocks", 4, kTable);
      }
    }
    if (d_.HasExtension("VK_EXT_custom_border_color"))
      MinMember("VkPhysicalDeviceCustomBorderColorPropertiesEXT", "maxCustomBorderColorSamplers", 32, kTable);
    if (d_.HasExtension("VK_EXT_robustness2")) {
      MaxMember("VkPhysicalDeviceRobustness2PropertiesEXT", "robustStorageBufferAccessSizeAlignment", 4, kTable);
      MaxMember("VkPhysicalDeviceRobustness2PropertiesEXT", "robustUniformBufferAccessSizeAlignment", 256, kTable);
    }
    if (FeatureSupported(d_, "VkPhysicalDeviceVulkan12Features.descriptorIndexing") ||
        d_.HasExtension("VK_EXT_descriptor_indexing"))
      CheckUpdateAfterBindLimits();
  }

  // "The UpdateAfterBind descriptor limits must each be greater than or equal to the corresponding
  // non-UpdateAfterBind limit" (footnote 9), and at least the table's values.
  void CheckUpdateAfterBindLimits() {
    const VkPhysicalDeviceFeatures& f = d_.features;
    const double n = 3.0 + (f.tessellationShader ? 2.0 : 0.0) + (f.geometryShader ? 1.0 : 0.0);
    constexpr const char* s = "VkPhysicalDeviceDescriptorIndexingProperties";
    constexpr const char* kTable = "Required Limits";
    constexpr const char* kFootnote = "Required Limits, footnote 9: at least the non-UpdateAfterBind limit";
    MinMember(s, "maxUpdateAfterBindDescriptorsInAllPools", 500000, kTable);
    // maxDescriptorSetUpdateAfterBindUniformBuffers scales with the stages like its non-UpdateAfterBind limit
    // (footnote 8).
    const struct {
      const char* name;
      double table;
      uint32_t nonUpdateAfterBind;
    } limits[] = {
        {"maxPerStageDescriptorUpdateAfterBindSamplers", 500000, l_.maxPerStageDescriptorSamplers},
        {"maxPerStageDescriptorUpdateAfterBindUniformBuffers", 12, l_.maxPerStageDescriptorUniformBuffers},
        {"maxPerStageDescriptorUpdateAfterBindStorageBuffers", 500000, l_.maxPerStageDescriptorStorageBuffers},
        {"maxPerStageDescriptorUpdateAfterBindSampledImages", 500000, l_.maxPerStageDescriptorSampledImages},
        {"maxPerStageDescriptorUpdateAfterBindStorageImages", 500000, l_.maxPerStageDescriptorStorageImages},
        {"maxPerStageDescriptorUpdateAfterBindInputAttachments", 4, l_.maxPerStageDescriptorInputAttachments},
        {"maxPerStageUpdateAfterBindResources", 500000, l_.maxPerStageResources},
        {"maxDescriptorSetUpdateAfterBindSamplers", 500000, l_.maxDescriptorSetSamplers},
        {"maxDescriptorSetUpdateAfterBindUniformBuffers", n * 12, l_.maxDescriptorSetUniformBuffers},
        {"maxDescriptorSetUpdateAfterBindUniformBuffersDynamic", 8, l_.maxDescriptorSetUniformBuffersDynamic},
        {"maxDescriptorSetUpdateAfterBindStorageBuffers", 500000, l_.maxDescriptorSetStorageBuffers},
        {"maxDescriptorSetUpdateAfterBindStorageBuffersDynamic", 4, l_.maxDescriptorSetStorageBuffersDynamic},
        {"maxDescriptorSetUpdateAfterBindSampledImages", 500000, l_.maxDescriptorSetSampledImages},
        {"maxDescriptorSetUpdateAfterBindStorageImages", 500000, l_.maxDescriptorSetStorageImages},
        {"maxDescriptorSetUpdateAfterBindInputAttachments", 4, l_.maxDescriptorSetInputAttachments},
    };
    for (const auto& limit : limits) {
      MinMember(s, limit.name, limit.table, kTable);
      MinMember(s, limit.name, limit.nonUpdateAfterBind, kFootnote);
    }
  }

  const DeviceDescription& d_;
  const VkPhysicalDeviceLimits& l_;
  const GivenMembers* given_;
  const StructInfo* limitsInfo_;
  std::vector<LimitProblem> problems_;
};

}  // namespace

std::vector<LimitProblem> CheckRequiredLimits(const DeviceDescription& d, const GivenMembers* given) {
  return Checker(d, given).Run();
}

}  // namespace crashtest
