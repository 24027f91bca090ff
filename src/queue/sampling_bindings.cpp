#include "queue/sampling_bindings.h"

#include <algorithm>
#include <bit>

#include "device/resources.h"
#include "format/compressed/block_decoder.h"
#include "format/format_info.h"
#include "memory/sampler.h"
#include "memory/views.h"

namespace crashtest {
namespace {

uint8_t SwizzleOf(VkComponentSwizzle swizzle, uint8_t identity) {
  switch (swizzle) {
    case VK_COMPONENT_SWIZZLE_R: return 0;
    case VK_COMPONENT_SWIZZLE_G: return 1;
    case VK_COMPONENT_SWIZZLE_B: return 2;
    case VK_COMPONENT_SWIZZLE_A: return 3;
    case VK_COMPONENT_SWIZZLE_ZERO: return sampling::kSwizzleZero;
    case VK_COMPONENT_SWIZZLE_ONE: return sampling::kSwizzleOne;
    default: return identity;  // IDENTITY
  }
}

bool IsUnormDepth(VkFormat format) {
  return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT ||
         format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT;
}

}  // namespace

sampling::ImageDescriptor DescribeImageView(const ImageView& view, std::string* unsupported) {
  return DescribeAttachment(view, view.subresourceRange().aspectMask, unsupported);
}

sampling::ImageDescriptor DescribeAttachment(const ImageView& view, VkImageAspectFlags aspects,
                                             std::string* unsupported) {
  sampling::ImageDescriptor d;
  const Image& image = view.image();
  const VkImageCreateInfo& info = image.info();
  if (image.data() == nullptr) return d;
  const VkImageSubresourceRange& range = view.subresourceRange();
  VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  d.format = view.format();
  if (aspects & VK_IMAGE_ASPECT_DEPTH_BIT) {
    // A sampled or storage view of a depth/stencil image has exactly one aspect.
    aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    d.aspect = sampling::Aspect::kDepth;
    d.kind = format::ValueKind::kFloat;
    d.unormDepth = IsUnormDepth(view.format());
  } else if (aspects & VK_IMAGE_ASPECT_STENCIL_BIT) {
    aspect = VK_IMAGE_ASPECT_STENCIL_BIT;
    d.aspect = sampling::Aspect::kStencil;
    d.kind = format::ValueKind::kUint;
  } else if (const format::BlockDecoder block = format::BlockDecoderFor(view.format()); block.decode != nullptr) {
    // A block-compressed view (of an image of a compatible compressed format): texels are decoded from their block.
    d.decodeBlock = block.decode;
    d.blockWidth = static_cast<uint8_t>(block.width), d.blockHeight = static_cast<uint8_t>(block.height);
    d.zeroBlockIsError = block.zeroBlockIsError;
    d.kind = format::ValueKind::kFloat;
  } else {
    d.codec = format::ColorCodec(view.format());
    if (!d.codec.valid() || IsMultiPlanar(info.format)) {
      *unsupported = std::string("images of format ") + FormatName(view.format());
      return d;
    }
    d.kind = d.codec.kind();
  }
  // A 2D or 2D array view of a 3D image (VK_EXT_image_2d_view_of_3d's 2D_VIEW_COMPATIBLE, or maintenance1's
  // 2D_ARRAY_COMPATIBLE for attachments): "the view's array layers are the depth slices" of its single level,
  // starting at baseArrayLayer.
  const bool slices = info.imageType == VK_IMAGE_TYPE_3D && view.viewType() != VK_IMAGE_VIEW_TYPE_3D;
  d.texelBytes = TexelBlockSize(info.format, aspect);
  const uint32_t viewBytes = d.decodeBlock != nullptr ? format::BlockDecoderFor(view.format()).blockBytes
                                                      : d.codec.blockSize();
  const bool compressedImage = IsCompressed(info.format);
  // A compressed view reads the blocks of a compressed image of the same block size; an uncompressed view of a
  // compressed image (VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) reads each block as one texel.
  if (d.texelBytes == 0 || (d.aspect == sampling::Aspect::kColor && d.texelBytes != viewBytes) ||
      (d.decodeBlock != nullptr && !compressedImage)) {
    *unsupported = std::string("views of format ") + FormatName(view.format()) + " on images of format " +
                   FormatName(info.format);
    return d;
  }
  d.samples = std::max<uint32_t>(1, static_cast<uint32_t>(info.samples));
  // Such views have one level ("levelCount must be 1"); keeping to it keeps every slice inside the image.
  d.levels = slices ? 1u : std::min(range.levelCount, sampling::kMaxLevels);
  d.layers = range.layerCount;
  d.cube = view.viewType() == VK_IMAGE_VIEW_TYPE_CUBE || view.viewType() == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
  d.minLod = std::max(0.0f, view.minLod() - static_cast<float>(range.baseMipLevel));
  const VkComponentMapping& c = view.components();
  d.swizzle[0] = SwizzleOf(c.r, 0), d.swizzle[1] = SwizzleOf(c.g, 1);
  d.swizzle[2] = SwizzleOf(c.b, 2), d.swizzle[3] = SwizzleOf(c.a, 3);
  for (uint32_t i = 0; i < d.levels; ++i) {
    const uint32_t mip = range.baseMipLevel + i;
    const VkSubresourceLayout sub = image.layout().Subresource(aspect, mip, slices ? 0 : range.baseArrayLayer);
    sampling::LevelView& level = d.level[i];
    level.base = image.data() + sub.offset + (slices ? range.baseArrayLayer * sub.depthPitch : 0);
    level.rowPitch = sub.rowPitch;
    level.depthPitch = sub.depthPitch;
    level.layerPitch = slices ? sub.depthPitch : sub.arrayPitch;
    level.width = std::max(1u, info.extent.width >> mip);
    level.height = std::max(1u, info.extent.height >> mip);
    if (compressedImage && d.decodeBlock == nullptr) {
      // "the view's extent is in blocks of the image's format" for block-texel-view-compatible views: without this
      // the rows of a texel view would run past the image's rows of blocks.
      const VkExtent3D block = GetFormatInfo(info.format)->blockExtent;
      level.width = (level.width + block.width - 1) / block.width;
      level.height = (level.height + block.height - 1) / block.height;
    }
    level.depth = slices ? 1u : std::max(1u, info.extent.depth >> mip);
  }
  d.bound = true;
  return d;
}

sampling::ImageDescriptor DescribeBufferView(const BufferView& view, std::string* unsupported) {
  sampling::ImageDescriptor d;
  const Buffer& buffer = view.buffer();
  if (buffer.data() == nullptr) return d;
  d.format = view.format();
  d.codec = format::ColorCodec(view.format());
  if (!d.codec.valid()) {
    *unsupported = std::string("texel buffers of format ") + FormatName(view.format());
    return d;
  }
  d.kind = d.codec.kind();
  d.texelBuffer = true;
  d.texelBytes = d.codec.blockSize();
  d.levels = 1;
  d.layers = 1;
  // The view never reaches past the buffer, whatever its range says: the host memory stays safe.
  const VkDeviceSize available = view.offset() < buffer.size() ? buffer.size() - view.offset() : 0;
  const VkDeviceSize bytes = std::min(view.range(), available);
  d.level[0].base = buffer.data() + view.offset();
  d.level[0].width = static_cast<uint32_t>(std::min<VkDeviceSize>(bytes / d.texelBytes, UINT32_MAX));
  d.level[0].height = d.level[0].depth = 1;
  d.bound = true;
  return d;
}

sampling::SamplerDescriptor DescribeSampler(const Sampler& sampler, float maxLodBias) {
  const SamplerState& state = sampler.state();
  const VkSamplerCreateInfo& info = state.info;
  sampling::SamplerDescriptor d;
  d.bound = true;
  d.magFilter = info.magFilter;
  d.minFilter = info.minFilter;
  d.mipmapMode = info.mipmapMode;
  d.address[0] = info.addressModeU, d.address[1] = info.addressModeV, d.address[2] = info.addressModeW;
  d.mipLodBias = info.mipLodBias;
  d.minLod = info.minLod;
  d.maxLod = info.maxLod;
  d.maxLodBias = maxLodBias;
  d.compareEnable = info.compareEnable == VK_TRUE;
  d.compareOp = info.compareOp;
  d.unnormalized = info.unnormalizedCoordinates == VK_TRUE;
  d.nonSeamlessCube = (info.flags & VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT) != 0;
  d.reduction = state.reductionMode;
  const uint32_t one = std::bit_cast<uint32_t>(1.0f);
  switch (info.borderColor) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK: d.border.uint32[3] = one; break;
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: d.border.uint32[3] = 1; d.borderIsInteger = true; break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE: for (uint32_t& v : d.border.uint32) v = one; break;
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: for (uint32_t& v : d.border.uint32) v = 1; d.borderIsInteger = true; break;
    case VK_BORDER_COLOR_FLOAT_CUSTOM_EXT: d.border = state.customBorderColor; break;
    case VK_BORDER_COLOR_INT_CUSTOM_EXT: d.border = state.customBorderColor; d.borderIsInteger = true; break;
    default: d.borderIsInteger = info.borderColor == VK_BORDER_COLOR_INT_TRANSPARENT_BLACK; break;  // zero
  }
  return d;
}

}  // namespace crashtest
