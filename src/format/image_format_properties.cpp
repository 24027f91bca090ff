#include "format/image_format_properties.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/log.h"
#include "common/struct_types.h"
#include "format/format_info.h"

namespace crashtest {

namespace {

// Everything the rules look at, gathered from the info struct and its chain.
struct ImageRequest {
  VkFormat format;
  VkImageType type;
  VkImageTiling tiling;
  VkImageUsageFlags usage;         // applies to colour and depth aspects
  VkImageUsageFlags stencilUsage;  // = usage unless VkImageStencilUsageCreateInfo says otherwise
  VkImageCreateFlags flags;
  const VkImageFormatListCreateInfo* formatList;
  VkExternalMemoryHandleTypeFlagBits handleType;
};

constexpr VkSampleCountFlags kAllSampleCounts = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT |
                                                VK_SAMPLE_COUNT_8_BIT | VK_SAMPLE_COUNT_16_BIT |
                                                VK_SAMPLE_COUNT_32_BIT | VK_SAMPLE_COUNT_64_BIT;

// Usage bits crashtest accepts at all; the rest (video, shading rate, fragment density map, attachment feedback
// loop, vendor bits) belong to features it does not implement.
constexpr VkImageUsageFlags kKnownUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                          VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                          VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                          VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;

// Create flags whose meaning crashtest's linear host-memory images honour without further conditions.
// Not here: the SPARSE_* flags (no sparse binding), PROTECTED (no protected memory), CORNER_SAMPLED_NV,
// SAMPLE_LOCATIONS_COMPATIBLE_DEPTH, SUBSAMPLED, MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED,
// DESCRIPTOR_BUFFER_CAPTURE_REPLAY and FRAGMENT_DENSITY_MAP_OFFSET (extensions not implemented). DISJOINT and
// 2D_VIEW_COMPATIBLE are checked separately.
constexpr VkImageCreateFlags kPlainFlags =
    VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT | VK_IMAGE_CREATE_ALIAS_BIT |
    VK_IMAGE_CREATE_SPLIT_INSTANCE_BIND_REGIONS_BIT | VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT |
    VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;

constexpr VkImageCreateFlags kSparseFlags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT |
                                            VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT | VK_IMAGE_CREATE_SPARSE_ALIASED_BIT;

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

VkFormatFeatureFlags2 TilingFeatures(const DeviceDescription& device, VkFormat format, VkImageTiling tiling) {
  auto it = device.formats.find(format);
  if (it == device.formats.end()) return 0;
  return tiling == VK_IMAGE_TILING_LINEAR ? it->second.linearTilingFeatures : it->second.optimalTilingFeatures;
}

// The usage bits a format with these features can serve. Each usage needs its feature (Vulkan 1.3, the
// VUIDs of VkImageViewCreateInfo "usage-02274/02275/02276/02277" and vkCmdCopy*/vkCmdBlit* "format features must
// contain VK_FORMAT_FEATURE_TRANSFER_SRC_BIT/..._DST_BIT"); an input attachment is read like a colour or
// depth/stencil attachment; a transient attachment needs nothing beyond the attachment usage it comes with.
VkImageUsageFlags UsageServedBy(VkFormatFeatureFlags2 features) {
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  if (features & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  if (features & VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT) usage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (features & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT) usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
  if (features & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  if (features & VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT) usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  if (features & VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)
    usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  if (features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT))
    usage |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
  return usage;
}

// May an image of `image` be viewed as `view`? Same compatibility class; a plane's format for multi-planar images
// ("VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT ... for multi-planar formats, views of individual planes"); an uncompressed
// format of the same block size with VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT.
bool ViewFormatAllowed(const FormatInfo& image, const FormatInfo& view, VkImageCreateFlags flags) {
  if (AreFormatsCompatible(image.format, view.format)) return true;
  for (uint32_t p = 0; p < image.planeCount; ++p)
    if (AreFormatsCompatible(image.planes[p].compatible, view.format)) return true;
  return (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) != 0 &&
         image.compression != CompressionScheme::kNone && view.compression == CompressionScheme::kNone &&
         view.planeCount == 0 && view.blockSize == image.blockSize;
}

// "VK_IMAGE_CREATE_EXTENDED_USAGE_BIT indicates that the image can be created with usage flags that are not
// supported for the format the image is created with but are supported for at least one format a VkImageView
// created from the image can have." The view formats are the VkImageFormatListCreateInfo list when the app gives
// one, otherwise every format the image may be viewed as.
std::string ExtendedUsage(const DeviceDescription& device, const ImageRequest& request, const FormatInfo& info,
                          VkImageUsageFlags* served) {
  if ((request.flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) == 0) return {};
  if (request.formatList != nullptr && request.formatList->viewFormatCount != 0) {
    for (uint32_t i = 0; i < request.formatList->viewFormatCount; ++i) {
      VkFormat viewFormat = request.formatList->pViewFormats[i];
      const FormatInfo* view = GetFormatInfo(viewFormat);
      if (view == nullptr || !ViewFormatAllowed(info, *view, request.flags))
        return std::string("VkImageFormatListCreateInfo::pViewFormats[") + std::to_string(i) + "] " +
               FormatName(viewFormat) + " cannot view an image of " + info.name;
      *served |= UsageServedBy(TilingFeatures(device, viewFormat, request.tiling));
    }
    return {};
  }
  for (const FormatInfo* view = FormatTableBegin(); view != FormatTableEnd(); ++view)
    if (ViewFormatAllowed(info, *view, request.flags))
      *served |= UsageServedBy(TilingFeatures(device, view->format, request.tiling));
  return {};
}

// Returns why the combination is not supported, or an empty string when it is.
std::string Unsupported(const DeviceDescription& device, const ImageRequest& r, const FormatInfo& info) {
  if (r.tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT) return "crashtest has no DRM format modifiers";
  if (r.tiling != VK_IMAGE_TILING_OPTIMAL && r.tiling != VK_IMAGE_TILING_LINEAR)
    return "unknown tiling " + std::to_string(r.tiling);
  if (r.type != VK_IMAGE_TYPE_1D && r.type != VK_IMAGE_TYPE_2D && r.type != VK_IMAGE_TYPE_3D)
    return "unknown image type " + std::to_string(r.type);
  if (r.handleType != 0)
    return "crashtest exports and imports no external memory (handleType " + Hex(r.handleType) + ")";

  if (r.usage == 0) return "usage is 0 (VUID-VkPhysicalDeviceImageFormatInfo2-usage-requiredbitmask)";
  VkImageUsageFlags allUsage = r.usage | (HasStencil(r.format) ? r.stencilUsage : 0);
  if (allUsage & ~kKnownUsage) return "usage bits " + Hex(allUsage & ~kKnownUsage) + " are not implemented";

  if (r.flags & kSparseFlags) return "crashtest has no sparse resources";
  if (r.flags & VK_IMAGE_CREATE_PROTECTED_BIT) return "crashtest has no protected memory";
  VkImageCreateFlags other = r.flags & ~(kPlainFlags | VK_IMAGE_CREATE_DISJOINT_BIT |
                                         VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT);
  if (other != 0) return "create flags " + Hex(other) + " are not implemented";

  VkFormatFeatureFlags2 features = TilingFeatures(device, r.format, r.tiling);
  if (features == 0)
    return std::string("the device has no ") + (r.tiling == VK_IMAGE_TILING_LINEAR ? "linear" : "optimal") +
           "-tiling features for the format";

  // Type rules (Vulkan 1.3 VkImageCreateInfo valid usage).
  if ((r.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && r.type != VK_IMAGE_TYPE_2D)
    return "CUBE_COMPATIBLE needs a 2D image (VUID-VkImageCreateInfo-flags-00949)";
  if ((r.flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT) && r.type != VK_IMAGE_TYPE_3D)
    return "2D_ARRAY_COMPATIBLE needs a 3D image (VUID-VkImageCreateInfo-flags-00950)";
  if (r.flags & VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT) {
    if (r.type != VK_IMAGE_TYPE_3D) return "2D_VIEW_COMPATIBLE needs a 3D image";
    if (!device.HasExtension("VK_EXT_image_2d_view_of_3d"))
      return "2D_VIEW_COMPATIBLE needs VK_EXT_image_2d_view_of_3d, which the device does not expose";
  }
  if (r.flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) {
    if (info.compression == CompressionScheme::kNone)
      return "BLOCK_TEXEL_VIEW_COMPATIBLE needs a compressed format (VUID-VkImageCreateInfo-flags-01572)";
    if ((r.flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT) == 0)
      return "BLOCK_TEXEL_VIEW_COMPATIBLE needs MUTABLE_FORMAT (VUID-VkImageCreateInfo-flags-01573)";
  }
  if (r.flags & VK_IMAGE_CREATE_DISJOINT_BIT) {
    if (info.planeCount < 2) return "DISJOINT needs a multi-planar format";
    if ((features & VK_FORMAT_FEATURE_2_DISJOINT_BIT) == 0)
      return "DISJOINT needs VK_FORMAT_FEATURE_DISJOINT_BIT, which the format lacks";
  }
  // "If the image format is one of the formats that require a sampler Y'CbCr conversion, imageType must be
  // VK_IMAGE_TYPE_2D" (VUID-VkImageCreateInfo-format-06412).
  if (RequiresYcbcrConversion(r.format) && r.type != VK_IMAGE_TYPE_2D)
    return "formats that require a sampler Y'CbCr conversion are 2D only";
  // Implementation choices (support is implementation-defined): depth/stencil images are 1D or 2D (there is
  // nothing to attach a 3D depth image to), block-compressed images are 2D or 3D.
  if (IsDepthOrStencil(r.format) && r.type == VK_IMAGE_TYPE_3D) return "depth/stencil formats are not 3D";
  if (info.compression != CompressionScheme::kNone && r.type == VK_IMAGE_TYPE_1D)
    return "compressed formats are not 1D";
  // Linear tiling: the spec (VkImageCreateInfo, on VK_IMAGE_TILING_LINEAR) lets an implementation refuse linear
  // images unless they are 2D, of one mip level, one layer and one sample, and not depth/stencil; crashtest
  // supports exactly that minimum, and no block-compressed linear images.
  if (r.tiling == VK_IMAGE_TILING_LINEAR) {
    if (r.type != VK_IMAGE_TYPE_2D) return "linear tiling is 2D only";
    if (IsDepthOrStencil(r.format)) return "linear tiling has no depth/stencil formats";
    if (info.compression != CompressionScheme::kNone) return "linear tiling has no compressed formats";
    if (r.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) return "linear tiling has one layer, a cube needs six";
  }

  // Every usage bit needs the matching format feature, for the image format or, with EXTENDED_USAGE, for a
  // format a view of it may have.
  VkImageUsageFlags served = UsageServedBy(features);
  if (r.flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) {
    std::string bad = ExtendedUsage(device, r, info, &served);
    if (!bad.empty()) return bad;
  }
  if (allUsage & ~served)
    return "usage " + Hex(allUsage & ~served) + " needs format features the format lacks (features " +
           Hex(features) + ")";
  return {};
}

VkExtent3D MaxExtent(const VkPhysicalDeviceLimits& limits, const ImageRequest& r) {
  // "Allowed Extent Values Based on Image Type" (Vulkan 1.3).
  switch (r.type) {
    case VK_IMAGE_TYPE_1D: return {limits.maxImageDimension1D, 1, 1};
    case VK_IMAGE_TYPE_3D: return {limits.maxImageDimension3D, limits.maxImageDimension3D, limits.maxImageDimension3D};
    default:
      if (r.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
        return {limits.maxImageDimensionCube, limits.maxImageDimensionCube, 1};
      return {limits.maxImageDimension2D, limits.maxImageDimension2D, 1};
  }
}

uint32_t FullMipChain(VkExtent3D extent) {
  uint32_t largest = std::max({extent.width, extent.height, extent.depth, 1u});
  uint32_t levels = 0;
  while (largest != 0) ++levels, largest >>= 1;  // floor(log2(largest)) + 1
  return levels;
}

VkSampleCountFlags FramebufferIntegerColorSampleCounts(const DeviceDescription& device) {
  const StructBlob* blob = device.FindProperties(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  if (blob == nullptr || blob->bytes.size() < sizeof(VkPhysicalDeviceVulkan12Properties))
    return VK_SAMPLE_COUNT_1_BIT;  // no 1.2 limit to go by: only what every device supports
  VkPhysicalDeviceVulkan12Properties vulkan12;
  std::memcpy(&vulkan12, blob->data(), sizeof(vulkan12));
  return vulkan12.framebufferIntegerColorSampleCounts;
}

// Vulkan 1.3, VkImageFormatProperties::sampleCounts: VK_SAMPLE_COUNT_1_BIT only "if at least one of the following
// conditions is true: tiling is VK_IMAGE_TILING_LINEAR; type is not VK_IMAGE_TYPE_2D; flags contains
// VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT; neither the VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT or the
// VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT flag in VkFormatProperties::optimalTilingFeatures ... is set; ...
// format is one of the formats that require a sampler Y'CbCr conversion". Otherwise the counts valid for every
// usage bit: colour/integer attachment, depth and stencil attachment, sampled colour/integer/depth/stencil, storage.
VkSampleCountFlags SampleCounts(const DeviceDescription& device, const ImageRequest& r) {
  const VkPhysicalDeviceLimits& limits = device.properties.limits;
  VkFormatFeatureFlags2 optimal = TilingFeatures(device, r.format, VK_IMAGE_TILING_OPTIMAL);
  if (r.tiling != VK_IMAGE_TILING_OPTIMAL || r.type != VK_IMAGE_TYPE_2D ||
      (r.flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ||
      (optimal & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)) == 0 ||
      RequiresYcbcrConversion(r.format))
    return VK_SAMPLE_COUNT_1_BIT;

  bool depth = HasDepth(r.format);
  bool stencil = HasStencil(r.format);
  bool integer = IsIntegerFormat(r.format);
  VkSampleCountFlags counts = kAllSampleCounts;
  // Start from the attachment kind, so usages that carry no limit of their own (transfer) still report what the
  // device can render to.
  if (depth) counts &= limits.framebufferDepthSampleCounts;
  if (stencil) counts &= limits.framebufferStencilSampleCounts;
  if (!depth && !stencil)
    counts &= integer ? FramebufferIntegerColorSampleCounts(device) : limits.framebufferColorSampleCounts;

  if (!depth && !stencil && (r.usage & VK_IMAGE_USAGE_SAMPLED_BIT))
    counts &= integer ? limits.sampledImageIntegerSampleCounts : limits.sampledImageColorSampleCounts;
  if (depth && (r.usage & VK_IMAGE_USAGE_SAMPLED_BIT)) counts &= limits.sampledImageDepthSampleCounts;
  if (stencil && (r.stencilUsage & VK_IMAGE_USAGE_SAMPLED_BIT)) counts &= limits.sampledImageStencilSampleCounts;
  if ((r.usage | (stencil ? r.stencilUsage : 0)) & VK_IMAGE_USAGE_STORAGE_BIT)
    counts &= limits.storageImageSampleCounts;
  // "sampleCounts must include at least VK_SAMPLE_COUNT_1_BIT".
  return counts | VK_SAMPLE_COUNT_1_BIT;
}

VkDeviceSize MaxResourceSize(const DeviceDescription& device) {
  // "maxResourceSize ... must be at least 2^31": images live in host memory, so any heap-sized image is fine.
  VkDeviceSize size = VkDeviceSize{1} << 31;
  for (uint32_t i = 0; i < device.memory.memoryHeapCount && i < VK_MAX_MEMORY_HEAPS; ++i)
    size = std::max(size, device.memory.memoryHeaps[i].size);
  return size;
}

VkImageFormatProperties Limits(const DeviceDescription& device, const ImageRequest& r) {
  const VkPhysicalDeviceLimits& limits = device.properties.limits;
  VkImageFormatProperties p{};
  p.maxExtent = MaxExtent(limits, r);
  // "maxMipLevels must be equal to the number of levels in the complete mipmap chain ... except when ... tiling
  // was VK_IMAGE_TILING_LINEAR ... image format is one of the formats that require a sampler Y'CbCr conversion
  // ..., in which case it may instead be 1."
  bool ycbcr = RequiresYcbcrConversion(r.format);
  bool linear = r.tiling == VK_IMAGE_TILING_LINEAR;
  p.maxMipLevels = (linear || ycbcr) ? 1 : FullMipChain(p.maxExtent);
  // "maxArrayLayers must be no less than VkPhysicalDeviceLimits::maxImageArrayLayers, except when ... tiling is
  // VK_IMAGE_TILING_LINEAR; tiling is VK_IMAGE_TILING_OPTIMAL and type is VK_IMAGE_TYPE_3D; format is one of the
  // formats that require a sampler Y'CbCr conversion ..., in which case it may instead be 1." Y'CbCr arrays would
  // need VK_EXT_ycbcr_image_arrays (VUID-VkImageCreateInfo-format-06413), which crashtest does not implement.
  p.maxArrayLayers = (linear || ycbcr || r.type == VK_IMAGE_TYPE_3D) ? 1 : limits.maxImageArrayLayers;
  p.sampleCounts = SampleCounts(device, r);
  p.maxResourceSize = MaxResourceSize(device);
  return p;
}

ImageRequest RequestFrom(const VkPhysicalDeviceImageFormatInfo2& info) {
  ImageRequest r{};
  r.format = info.format;
  r.type = info.type;
  r.tiling = info.tiling;
  r.usage = info.usage;
  r.stencilUsage = info.usage;
  r.flags = info.flags;
  // With VkImageStencilUsageCreateInfo, usage covers the colour/depth aspects and stencilUsage the stencil
  // aspect (Vulkan 1.3, VkImageStencilUsageCreateInfo).
  if (auto* stencil = FindInChain<VkImageStencilUsageCreateInfo>(info.pNext)) r.stencilUsage = stencil->stencilUsage;
  r.formatList = FindInChain<VkImageFormatListCreateInfo>(info.pNext);
  if (auto* external = FindInChain<VkPhysicalDeviceExternalImageFormatInfo>(info.pNext))
    r.handleType = external->handleType;
  return r;
}

const char* TypeName(VkImageType type) {
  switch (type) {
    case VK_IMAGE_TYPE_1D: return "1D";
    case VK_IMAGE_TYPE_2D: return "2D";
    case VK_IMAGE_TYPE_3D: return "3D";
    default: return "?";
  }
}

// The output structs of the chain: zero (unsupported) or crashtest's answers (supported).
void FillChain(void* pNext, const FormatInfo* info, bool supported) {
  if (auto* external = FindInOutChain<VkExternalImageFormatProperties>(pNext)) {
    // No external handle types: exportFromImportedHandleTypes, compatibleHandleTypes and features all zero.
    FillKeepingHeader(external, VkExternalImageFormatProperties{});
  }
  if (auto* ycbcr = FindInOutChain<VkSamplerYcbcrConversionImageFormatProperties>(pNext)) {
    VkSamplerYcbcrConversionImageFormatProperties value{};
    if (supported && info != nullptr) value.combinedImageSamplerDescriptorCount = std::max(info->planeCount, 1u);
    FillKeepingHeader(ycbcr, value);
  }
  if (auto* compression = FindInOutChain<VkImageCompressionPropertiesEXT>(pNext)) {
    // Images are stored uncompressed in host memory.
    VkImageCompressionPropertiesEXT value{};
    if (supported) value.imageCompressionFlags = VK_IMAGE_COMPRESSION_DISABLED_EXT;
    FillKeepingHeader(compression, value);
  }
  if (auto* cubic = FindInOutChain<VkFilterCubicImageViewImageFormatPropertiesEXT>(pNext)) {
    // No cubic filtering (VK_EXT_filter_cubic is not implemented).
    FillKeepingHeader(cubic, VkFilterCubicImageViewImageFormatPropertiesEXT{});
  }
}

}  // namespace

VkResult GetImageFormatProperties(const DeviceDescription& device, const VkPhysicalDeviceImageFormatInfo2& info,
                                  VkImageFormatProperties2* out) {
  ImageRequest request = RequestFrom(info);
  const FormatInfo* format = GetFormatInfo(info.format);
  std::string reason = format == nullptr ? std::string("unknown format") : Unsupported(device, request, *format);
  bool supported = reason.empty();
  if (!supported)
    CT_DEBUG("image format %s %s tiling %d usage 0x%x flags 0x%x on %s: not supported: %s", FormatName(info.format),
             TypeName(info.type), static_cast<int>(info.tiling), info.usage, info.flags, device.source.c_str(),
             reason.c_str());
  if (out != nullptr) {
    // "If the combination of parameters to vkGetPhysicalDeviceImageFormatProperties2 is not supported by the
    // implementation for use in vkCreateImage, then all members of imageFormatProperties will be filled with zero."
    out->imageFormatProperties = supported ? Limits(device, request) : VkImageFormatProperties{};
    FillChain(out->pNext, format, supported);
  }
  return supported ? VK_SUCCESS : VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VkResult GetImageFormatProperties(const DeviceDescription& device, VkFormat format, VkImageType type,
                                  VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                  VkImageFormatProperties* out) {
  VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, nullptr, format, type,
                                        tiling, usage, flags};
  VkImageFormatProperties2 properties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, nullptr, {}};
  VkResult result = GetImageFormatProperties(device, info, &properties);
  if (out != nullptr) *out = properties.imageFormatProperties;
  return result;
}

void GetFormatProperties3(const DeviceDescription& device, VkFormat format, VkFormatProperties3& out) {
  VkFormatProperties3 value{};
  auto it = device.formats.find(format);
  if (it != device.formats.end()) {
    value.linearTilingFeatures = it->second.linearTilingFeatures;
    value.optimalTilingFeatures = it->second.optimalTilingFeatures;
    value.bufferFeatures = it->second.bufferFeatures;
  }
  FillKeepingHeader(&out, value);
}

VkFormatFeatureFlags ToFormatFeatureFlags(VkFormatFeatureFlags2 flags) {
  // The VkFormatFeatureFlagBits2 bits below bit 31 share the VkFormatFeatureFlagBits values; bit 31
  // (STORAGE_READ_WITHOUT_FORMAT) and above have no 32-bit equivalent.
  return static_cast<VkFormatFeatureFlags>(flags & 0x7FFFFFFFull);
}

void GetFormatProperties(const DeviceDescription& device, VkFormat format, VkFormatProperties& out) {
  VkFormatProperties3 wide{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3, nullptr, 0, 0, 0};
  GetFormatProperties3(device, format, wide);
  out.linearTilingFeatures = ToFormatFeatureFlags(wide.linearTilingFeatures);
  out.optimalTilingFeatures = ToFormatFeatureFlags(wide.optimalTilingFeatures);
  out.bufferFeatures = ToFormatFeatureFlags(wide.bufferFeatures);
}

void GetFormatProperties2(const DeviceDescription& device, VkFormat format, VkFormatProperties2* out) {
  GetFormatProperties(device, format, out->formatProperties);
  if (auto* wide = FindInOutChain<VkFormatProperties3>(out->pNext)) GetFormatProperties3(device, format, *wide);
  // No DRM format modifiers: report empty lists (the caller's array pointer stays untouched).
  if (auto* list = FindInOutChain<VkDrmFormatModifierPropertiesListEXT>(out->pNext)) list->drmFormatModifierCount = 0;
  if (auto* list2 = FindInOutChain<VkDrmFormatModifierPropertiesList2EXT>(out->pNext))
    list2->drmFormatModifierCount = 0;
}

}  // namespace crashtest
