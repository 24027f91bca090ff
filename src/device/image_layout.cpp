#include "device/image_layout.h"

#include <algorithm>

#include "common/checked_math.h"
#include "format/format_info.h"

namespace crashtest {

namespace {


uint32_t MipDimension(uint32_t base, uint32_t level) { return std::max(1u, base >> level); }

}  // namespace

bool ImageLayout::Compute(const ImageLayoutInput& input) {
  const FormatInfo* info = GetFormatInfo(input.format);
  if (info == nullptr) return false;
  planes_.clear();
  arrayLayers_ = input.arrayLayers;

  // Each aspect that copies address separately gets its own plane: the planes of multi-planar formats, and depth
  // and stencil of combined formats (stored apart, as vkCmdCopyImageToBuffer lays them out).
  struct PlaneSpec {
    VkImageAspectFlagBits aspect;
    uint32_t blockSize;
    VkExtent3D blockExtent;
    uint32_t widthDivisor, heightDivisor;
  };
  std::vector<PlaneSpec> specs;
  if (info->planeCount > 0) {
    for (uint32_t p = 0; p < info->planeCount; ++p) {
      auto aspect = static_cast<VkImageAspectFlagBits>(VK_IMAGE_ASPECT_PLANE_0_BIT << p);
      specs.push_back({aspect, TexelBlockSize(input.format, aspect), {1, 1, 1}, info->planes[p].widthDivisor,
                       info->planes[p].heightDivisor});
    }
  } else if (info->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) {
    for (VkImageAspectFlagBits aspect : {VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
      if (info->aspects & aspect) specs.push_back({aspect, TexelBlockSize(input.format, aspect), {1, 1, 1}, 1, 1});
  } else {
    specs.push_back({VK_IMAGE_ASPECT_COLOR_BIT, info->blockSize, info->blockExtent, 1, 1});
  }

  VkDeviceSize offset = 0;
  VkDeviceSize samples = static_cast<VkDeviceSize>(input.samples == 0 ? 1 : input.samples);
  for (const PlaneSpec& spec : specs) {
    Plane plane{spec.aspect, {}};
    for (uint32_t level = 0; level < input.mipLevels; ++level) {
      uint32_t width = MipDimension(input.extent.width, level) / spec.widthDivisor;
      uint32_t height = MipDimension(input.extent.height, level) / spec.heightDivisor;
      uint32_t depth = MipDimension(input.extent.depth, level);
      VkDeviceSize blocksX = (std::max(width, 1u) + spec.blockExtent.width - 1) / spec.blockExtent.width;
      VkDeviceSize blocksY = (std::max(height, 1u) + spec.blockExtent.height - 1) / spec.blockExtent.height;
      // Saturating: extents near 2^32 and thousands of layers do not fit 64 bits; the size then reads UINT64_MAX,
      // which no memory holds (vkCreateImage refuses it, resources.cpp), instead of wrapping to a small size.
      VkDeviceSize rowPitch =
          SaturatingAlignUp(SaturatingMul(SaturatingMul(blocksX, spec.blockSize), samples), input.rowAlignment);
      VkDeviceSize depthPitch = SaturatingMul(rowPitch, blocksY);
      VkDeviceSize layerSize = SaturatingAlignUp(SaturatingMul(depthPitch, depth), input.rowAlignment);
      offset = SaturatingAlignUp(offset, input.rowAlignment);
      plane.levels.push_back({offset, rowPitch, depthPitch, layerSize});
      offset = SaturatingAdd(offset, SaturatingMul(layerSize, input.arrayLayers));
    }
    planes_.push_back(std::move(plane));
  }
  size_ = offset;
  return true;
}

VkSubresourceLayout ImageLayout::Subresource(VkImageAspectFlagBits aspect, uint32_t mipLevel,
                                             uint32_t arrayLayer) const {
  for (const Plane& plane : planes_) {
    if (plane.aspect != aspect && !(planes_.size() == 1 && aspect == VK_IMAGE_ASPECT_COLOR_BIT)) continue;
    if (mipLevel >= plane.levels.size()) break;
    const PlaneLevel& level = plane.levels[mipLevel];
    VkDeviceSize offset = level.offset + level.layerSize * arrayLayer;
    return {offset, level.layerSize, level.rowPitch, level.layerSize, level.depthPitch};
  }
  return {};
}

}  // namespace crashtest
