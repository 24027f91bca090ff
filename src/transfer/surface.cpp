#include "transfer/surface.h"

#include <algorithm>
#include <cstring>

#include "format/format_info.h"

namespace crashtest::transfer {

PlaneView PlaneAt(const ImageSurface& image, VkImageAspectFlagBits aspect, uint32_t mipLevel, uint32_t arrayLayer) {
  PlaneView view;
  const FormatInfo* info = GetFormatInfo(image.format);
  if (image.data == nullptr || info == nullptr || mipLevel >= image.mipLevels || arrayLayer >= image.arrayLayers)
    return view;
  uint32_t widthDivisor = 1, heightDivisor = 1;
  if (aspect & (VK_IMAGE_ASPECT_PLANE_0_BIT | VK_IMAGE_ASPECT_PLANE_1_BIT | VK_IMAGE_ASPECT_PLANE_2_BIT)) {
    uint32_t plane = aspect == VK_IMAGE_ASPECT_PLANE_0_BIT ? 0 : aspect == VK_IMAGE_ASPECT_PLANE_1_BIT ? 1 : 2;
    if (plane >= info->planeCount) return view;
    widthDivisor = info->planes[plane].widthDivisor;
    heightDivisor = info->planes[plane].heightDivisor;
  } else if (aspect == VK_IMAGE_ASPECT_COLOR_BIT) {
    if (info->planeCount != 0 || IsDepthOrStencil(image.format)) return view;
    view.blockExtent = info->blockExtent;
  }
  view.blockSize = TexelBlockSize(image.format, aspect);
  if (view.blockSize == 0) return view;
  VkSubresourceLayout sub = image.layout->Subresource(aspect, mipLevel, arrayLayer);
  view.base = image.data + sub.offset;
  view.rowPitch = sub.rowPitch;
  view.depthPitch = sub.depthPitch;
  view.samples = image.samples == 0 ? 1u : static_cast<uint32_t>(image.samples);
  view.extent = {std::max(1u, image.extent.width >> mipLevel) / widthDivisor,
                 std::max(1u, image.extent.height >> mipLevel) / heightDivisor,
                 std::max(1u, image.extent.depth >> mipLevel)};
  return view;
}

uint32_t ResolveLayerCount(const ImageSurface& image, uint32_t baseLayer, uint32_t layerCount) {
  if (layerCount != VK_REMAINING_ARRAY_LAYERS) return layerCount;
  return baseLayer < image.arrayLayers ? image.arrayLayers - baseLayer : 0;
}

uint32_t ResolveLevelCount(const ImageSurface& image, uint32_t baseLevel, uint32_t levelCount) {
  if (levelCount != VK_REMAINING_MIP_LEVELS) return levelCount;
  return baseLevel < image.mipLevels ? image.mipLevels - baseLevel : 0;
}

void CopyBox(const std::byte* src, VkDeviceSize srcRowPitch, VkDeviceSize srcSlicePitch, std::byte* dst,
             VkDeviceSize dstRowPitch, VkDeviceSize dstSlicePitch, VkDeviceSize rowBytes, uint32_t rows,
             uint32_t slices) {
  if (rowBytes == 0 || rows == 0 || slices == 0) return;
  if (rowBytes == srcRowPitch && rowBytes == dstRowPitch) {
    VkDeviceSize sliceBytes = rowBytes * rows;
    if (slices == 1 || (sliceBytes == srcSlicePitch && sliceBytes == dstSlicePitch)) {
      std::memcpy(dst, src, sliceBytes * slices);
      return;
    }
    for (uint32_t s = 0; s < slices; ++s) std::memcpy(dst + s * dstSlicePitch, src + s * srcSlicePitch, sliceBytes);
    return;
  }
  for (uint32_t s = 0; s < slices; ++s)
    for (uint32_t r = 0; r < rows; ++r)
      std::memcpy(dst + s * dstSlicePitch + r * dstRowPitch, src + s * srcSlicePitch + r * srcRowPitch, rowBytes);
}

void FillPattern(std::byte* dst, VkDeviceSize bytes, const std::byte* pattern, uint32_t patternSize) {
  if (bytes == 0 || patternSize == 0) return;
  if (std::all_of(pattern, pattern + patternSize, [&](std::byte b) { return b == pattern[0]; })) {
    std::memset(dst, static_cast<int>(pattern[0]), bytes);
    return;
  }
  // Write the pattern once, then double the written prefix: O(log n) memcpy calls, each at memcpy speed.
  VkDeviceSize filled = std::min<VkDeviceSize>(patternSize, bytes);
  std::memcpy(dst, pattern, filled);
  while (filled < bytes) {
    VkDeviceSize chunk = std::min(filled, bytes - filled);
    std::memcpy(dst + filled, dst, chunk);
    filled += chunk;
  }
}

}  // namespace crashtest::transfer
