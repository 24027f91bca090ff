// Clears: vkCmdClearColorImage, vkCmdClearDepthStencilImage, and the attachment clears behind render-pass load
// ops and vkCmdClearAttachments. The clear value is encoded once into one texel block, then replicated.
#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "format/format_info.h"
#include "format/color_codec.h"
#include "transfer/surface_ops.h"
#include "format/texel_codec.h"

namespace crashtest::transfer {

using format::ColorCodec;
using format::EncodeDepth;

namespace {

constexpr uint32_t kMaxBlockSize = 32;  // R64G64B64A64 is the largest uncompressed texel block

struct BlockBox {
  uint32_t x, y, z;           // first block
  uint32_t width, height, depth;  // in blocks
};

// Every sample of every block of `box` receives `block`.
void FillBox(const PlaneView& plane, const BlockBox& box, const std::byte* block) {
  VkDeviceSize rowBytes = static_cast<VkDeviceSize>(box.width) * plane.blockSize * plane.samples;
  if (box.x == 0 && box.width == plane.BlocksWide() && rowBytes == plane.rowPitch) {
    // Whole rows without padding: each slice is one run.
    for (uint32_t z = 0; z < box.depth; ++z)
      FillPattern(plane.Block(0, box.y, box.z + z), rowBytes * box.height, block, plane.blockSize);
    return;
  }
  for (uint32_t z = 0; z < box.depth; ++z)
    for (uint32_t y = 0; y < box.height; ++y)
      FillPattern(plane.Block(box.x, box.y + y, box.z + z), rowBytes, block, plane.blockSize);
}

BlockBox WholePlane(const PlaneView& plane) { return {0, 0, 0, plane.BlocksWide(), plane.BlocksHigh(), plane.extent.depth}; }

// Encodes the part of a clear value an aspect takes into one block of that aspect's plane. False if the format
// cannot be cleared through this aspect.
bool EncodeClearBlock(VkFormat format, VkImageAspectFlagBits aspect, const VkClearValue& value, std::byte* block) {
  std::memset(block, 0, kMaxBlockSize);
  switch (aspect) {
    case VK_IMAGE_ASPECT_DEPTH_BIT:
      if (!HasDepth(format)) return false;
      EncodeDepth(format, value.depthStencil.depth, block);
      return true;
    case VK_IMAGE_ASPECT_STENCIL_BIT:
      if (!HasStencil(format)) return false;
      // The stencil plane is 8 bits: "uint32_t stencil ... the low-order bits" are the ones stored.
      block[0] = static_cast<std::byte>(value.depthStencil.stencil & 0xffu);
      return true;
    default: {
      ColorCodec codec(format);
      if (!codec.valid()) return false;
      codec.Encode(value.color, block);
      return true;
    }
  }
}

void ClearRanges(const ImageSurface& image, const VkClearValue& value, std::span<const VkImageSubresourceRange> ranges,
                 VkImageAspectFlags allowedAspects, const char* command) {
  std::byte block[kMaxBlockSize];
  for (const VkImageSubresourceRange& range : ranges) {
    uint32_t levels = ResolveLevelCount(image, range.baseMipLevel, range.levelCount);
    uint32_t layers = ResolveLayerCount(image, range.baseArrayLayer, range.layerCount);
    for (VkImageAspectFlags rest = range.aspectMask & allowedAspects; rest != 0; rest &= rest - 1) {
      auto aspect = static_cast<VkImageAspectFlagBits>(rest & ~(rest - 1));
      if (!EncodeClearBlock(image.format, aspect, value, block)) {
        CT_WARN("%s: cannot clear aspect 0x%x of %s; skipped", command, aspect, FormatName(image.format));
        continue;
      }
      for (uint32_t level = range.baseMipLevel; level < range.baseMipLevel + levels; ++level) {
        for (uint32_t layer = range.baseArrayLayer; layer < range.baseArrayLayer + layers; ++layer) {
          PlaneView plane = PlaneAt(image, aspect, level, layer);
          if (plane.base == nullptr) {
            CT_WARN("%s: mip %u layer %u of %s is outside the image or it is unbound; skipped", command, level, layer,
                    FormatName(image.format));
            break;
          }
          FillBox(plane, WholePlane(plane), block);
        }
      }
    }
  }
}

}  // namespace

void ClearColorImage(const ImageSurface& image, const VkClearColorValue& color,
                     std::span<const VkImageSubresourceRange> ranges) {
  VkClearValue value;
  value.color = color;
  ClearRanges(image, value, ranges, VK_IMAGE_ASPECT_COLOR_BIT, "vkCmdClearColorImage");
}

void ClearDepthStencilImage(const ImageSurface& image, const VkClearDepthStencilValue& depthStencil,
                            std::span<const VkImageSubresourceRange> ranges) {
  VkClearValue value;
  value.depthStencil = depthStencil;
  ClearRanges(image, value, ranges, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT,
              "vkCmdClearDepthStencilImage");
}

void ClearAttachment(const AttachmentView& view, VkImageAspectFlags aspects, const VkClearValue& value,
                     const VkClearRect& rect) {
  const ImageSurface& image = *view.image;
  uint32_t layerCount = rect.layerCount == VK_REMAINING_ARRAY_LAYERS && view.range.layerCount > rect.baseArrayLayer
                            ? view.range.layerCount - rect.baseArrayLayer
                            : rect.layerCount;
  // A 2D or 2D-array view of a 3D image addresses the depth slices of its level as layers.
  bool slicesAsLayers = image.type == VK_IMAGE_TYPE_3D;
  std::byte block[kMaxBlockSize];
  for (VkImageAspectFlags rest = aspects; rest != 0; rest &= rest - 1) {
    auto aspect = static_cast<VkImageAspectFlagBits>(rest & ~(rest - 1));
    // Colour is encoded in the view's format, which may reinterpret the image's (same block size).
    VkFormat format = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? view.format : image.format;
    if (!EncodeClearBlock(format, aspect, value, block)) {
      CT_WARN("ClearAttachment: cannot clear aspect 0x%x of a %s view; skipped", aspect, FormatName(format));
      continue;
    }
    for (uint32_t i = 0; i < layerCount; ++i) {
      uint32_t layer = view.range.baseArrayLayer + rect.baseArrayLayer + i;
      PlaneView plane = PlaneAt(image, aspect, view.range.baseMipLevel, slicesAsLayers ? 0 : layer);
      bool inside = plane.base != nullptr && plane.blockExtent.width == 1 && plane.blockExtent.height == 1 &&
                    (!slicesAsLayers || layer < plane.extent.depth) &&
                    (aspect != VK_IMAGE_ASPECT_COLOR_BIT || plane.blockSize == ColorCodec(format).blockSize());
      if (!inside) {
        CT_WARN("ClearAttachment: layer %u of the %s view is outside its image or the image is unbound; skipped", layer,
                FormatName(format));
        break;
      }
      // Clip to the attachment: the render area and clear rects are inside it by valid usage.
      int64_t x0 = std::max<int64_t>(rect.rect.offset.x, 0), y0 = std::max<int64_t>(rect.rect.offset.y, 0);
      int64_t x1 = std::min<int64_t>(static_cast<int64_t>(rect.rect.offset.x) + rect.rect.extent.width, plane.extent.width);
      int64_t y1 = std::min<int64_t>(static_cast<int64_t>(rect.rect.offset.y) + rect.rect.extent.height, plane.extent.height);
      if (x1 <= x0 || y1 <= y0) continue;
      BlockBox box{static_cast<uint32_t>(x0), static_cast<uint32_t>(y0), slicesAsLayers ? layer : 0,
                   static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0), 1};
      FillBox(plane, box, block);
    }
  }
}

}  // namespace crashtest::transfer
