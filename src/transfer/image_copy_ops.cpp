// Copies that move texel blocks unchanged: vkCmdCopyBufferToImage2, vkCmdCopyImageToBuffer2, vkCmdCopyImage2.
// Every copy is a set of rows of whole blocks moved with memcpy (CopyBox merges contiguous rows and slices).
#include <algorithm>

#include "common/checked_math.h"
#include "common/log.h"
#include "format/format_info.h"
#include "transfer/surface_ops.h"

namespace crashtest::transfer {

namespace {

uint32_t CeilDiv(uint32_t value, uint32_t divisor) { return (value + divisor - 1) / divisor; }

// Offset and extent (in texels) lie inside the plane; offsets are whole blocks, as the copy VUs require.
bool BoxInPlane(const PlaneView& plane, const VkOffset3D& offset, const VkExtent3D& extent) {
  if (offset.x < 0 || offset.y < 0 || offset.z < 0) return false;
  auto end = [](int32_t start, uint32_t size) { return static_cast<int64_t>(start) + size; };
  return end(offset.x, extent.width) <= plane.extent.width && end(offset.y, extent.height) <= plane.extent.height &&
         end(offset.z, extent.depth) <= plane.extent.depth &&
         static_cast<uint32_t>(offset.x) % plane.blockExtent.width == 0 &&
         static_cast<uint32_t>(offset.y) % plane.blockExtent.height == 0;
}

// The destination of an image copy, counted in blocks: the last block of a compressed region at the image edge
// stands for fewer texels than a whole block, so the texel extent cannot be checked directly.
bool BlocksInPlane(const PlaneView& plane, const VkOffset3D& offset, uint32_t blocksX, uint32_t blocksY) {
  if (plane.base == nullptr || offset.x < 0 || offset.y < 0 || offset.z < 0) return false;
  auto x = static_cast<uint32_t>(offset.x), y = static_cast<uint32_t>(offset.y);
  return x % plane.blockExtent.width == 0 && y % plane.blockExtent.height == 0 &&
         static_cast<uint64_t>(x / plane.blockExtent.width) + blocksX <= plane.BlocksWide() &&
         static_cast<uint64_t>(y / plane.blockExtent.height) + blocksY <= plane.BlocksHigh();
}

// One region of a buffer <-> image copy. The buffer side is laid out as "Copying Data Between Buffers and Images"
// (Vulkan 1.3, 20.4) says: rows of bufferRowLength texels (0 = tightly packed), bufferImageHeight rows per slice,
// array layers after the depth slices, texel blocks of the aspect's size (D24 in 4 bytes, S8 in 1, planes as their
// compatible format).
void CopyBufferImageRegion(BufferBytes buffer, const ImageSurface& image, const VkBufferImageCopy2& region,
                           bool toImage, const char* command) {
  const VkImageSubresourceLayers& sub = region.imageSubresource;
  auto aspect = static_cast<VkImageAspectFlagBits>(sub.aspectMask);
  uint32_t layers = ResolveLayerCount(image, sub.baseArrayLayer, sub.layerCount);
  PlaneView plane = PlaneAt(image, aspect, sub.mipLevel, sub.baseArrayLayer);
  if (buffer.data == nullptr || plane.base == nullptr || layers == 0 ||
      static_cast<uint64_t>(sub.baseArrayLayer) + layers > image.arrayLayers ||
      !BoxInPlane(plane, region.imageOffset, region.imageExtent)) {
    CT_WARN("%s: region (aspect 0x%x, mip %u, layers %u+%u) is outside %s image or a resource is unbound; skipped",
            command, sub.aspectMask, sub.mipLevel, sub.baseArrayLayer, layers, FormatName(image.format));
    return;
  }
  const VkExtent3D& block = plane.blockExtent;
  uint32_t blocksX = CeilDiv(region.imageExtent.width, block.width);
  uint32_t blocksY = CeilDiv(region.imageExtent.height, block.height);
  uint32_t depth = region.imageExtent.depth;
  if (blocksX == 0 || blocksY == 0 || depth == 0) return;
  uint32_t rowLength = region.bufferRowLength != 0 ? region.bufferRowLength : region.imageExtent.width;
  uint32_t imageHeight = region.bufferImageHeight != 0 ? region.bufferImageHeight : region.imageExtent.height;
  // Saturating: a bufferOffset near 2^64 or pitches of 2^32-texel rows must not wrap to a small last byte.
  VkDeviceSize bufferRowPitch = static_cast<VkDeviceSize>(CeilDiv(rowLength, block.width)) * plane.blockSize;
  VkDeviceSize bufferSlicePitch = SaturatingMul(bufferRowPitch, CeilDiv(imageHeight, block.height));
  VkDeviceSize bufferLayerPitch = SaturatingMul(bufferSlicePitch, depth);
  VkDeviceSize rowBytes = static_cast<VkDeviceSize>(blocksX) * plane.blockSize;
  VkDeviceSize lastByte = SaturatingAdd(
      SaturatingAdd(SaturatingAdd(region.bufferOffset, SaturatingMul(layers - 1, bufferLayerPitch)),
                    SaturatingAdd(SaturatingMul(depth - 1, bufferSlicePitch), SaturatingMul(blocksY - 1, bufferRowPitch))),
      rowBytes);
  if (lastByte > buffer.size) {
    CT_WARN("%s: region reaches byte %llu of a %llu-byte buffer; skipped", command,
            static_cast<unsigned long long>(lastByte), static_cast<unsigned long long>(buffer.size));
    return;
  }
  uint32_t bx = static_cast<uint32_t>(region.imageOffset.x) / block.width;
  uint32_t by = static_cast<uint32_t>(region.imageOffset.y) / block.height;
  auto z = static_cast<uint32_t>(region.imageOffset.z);
  for (uint32_t layer = 0; layer < layers; ++layer) {
    PlaneView layerPlane = layer == 0 ? plane : PlaneAt(image, aspect, sub.mipLevel, sub.baseArrayLayer + layer);
    std::byte* texels = layerPlane.Block(bx, by, z);
    std::byte* bytes = buffer.data + region.bufferOffset + layer * bufferLayerPitch;
    if (toImage)
      CopyBox(bytes, bufferRowPitch, bufferSlicePitch, texels, layerPlane.rowPitch, layerPlane.depthPitch, rowBytes,
              blocksY, depth);
    else
      CopyBox(texels, layerPlane.rowPitch, layerPlane.depthPitch, bytes, bufferRowPitch, bufferSlicePitch, rowBytes,
              blocksY, depth);
  }
}

// The aspect of the destination that receives `srcAspect`: the same one when both masks agree (colour, depth,
// stencil), otherwise the single destination aspect (a plane copied to or from a colour image).
VkImageAspectFlagBits DestinationAspect(VkImageAspectFlags srcMask, VkImageAspectFlags dstMask,
                                        VkImageAspectFlagBits srcAspect) {
  return srcMask == dstMask ? srcAspect : static_cast<VkImageAspectFlagBits>(dstMask);
}

void CopyImageAspect(const ImageSurface& src, const ImageSurface& dst, const VkImageCopy2& region,
                     VkImageAspectFlagBits srcAspect, VkImageAspectFlagBits dstAspect) {
  const VkImageSubresourceLayers& s = region.srcSubresource;
  const VkImageSubresourceLayers& d = region.dstSubresource;
  bool src3D = src.type == VK_IMAGE_TYPE_3D, dst3D = dst.type == VK_IMAGE_TYPE_3D;
  uint32_t srcLayers = ResolveLayerCount(src, s.baseArrayLayer, s.layerCount);
  uint32_t dstLayers = ResolveLayerCount(dst, d.baseArrayLayer, d.layerCount);
  // Between a 3D image and a 2D array the depth slices pair with the layers (VK_KHR_maintenance1, core in 1.1).
  uint32_t slices = src3D ? region.extent.depth : srcLayers;
  PlaneView srcPlane = PlaneAt(src, srcAspect, s.mipLevel, s.baseArrayLayer);
  PlaneView dstPlane = PlaneAt(dst, dstAspect, d.mipLevel, d.baseArrayLayer);
  VkExtent3D srcExtent = region.extent;
  if (!src3D) srcExtent.depth = 1;
  // "If either image is block-compressed the extent is in source texels and the destination region covers the
  // same number of blocks" (vkCmdCopyImage, size-compatible formats).
  uint32_t blocksX = CeilDiv(region.extent.width, srcPlane.blockExtent.width);
  uint32_t blocksY = CeilDiv(region.extent.height, srcPlane.blockExtent.height);
  bool valid = srcPlane.base != nullptr && dstPlane.base != nullptr && slices != 0 &&
               srcPlane.blockSize == dstPlane.blockSize && srcPlane.samples == dstPlane.samples &&
               (src3D || static_cast<uint64_t>(s.baseArrayLayer) + srcLayers <= src.arrayLayers) &&
               (dst3D || (dstLayers == slices && static_cast<uint64_t>(d.baseArrayLayer) + dstLayers <= dst.arrayLayers)) &&
               BoxInPlane(srcPlane, region.srcOffset, srcExtent) && BlocksInPlane(dstPlane, region.dstOffset, blocksX, blocksY) &&
               (!src3D || region.srcOffset.z + static_cast<int64_t>(slices) <= srcPlane.extent.depth) &&
               (!dst3D || region.dstOffset.z + static_cast<int64_t>(slices) <= dstPlane.extent.depth);
  if (!valid) {
    CT_WARN("vkCmdCopyImage: region (%s aspect 0x%x mip %u -> %s aspect 0x%x mip %u, %ux%ux%u) is outside an image, "
            "has incompatible block sizes or sample counts, or an image is unbound; skipped",
            FormatName(src.format), srcAspect, s.mipLevel, FormatName(dst.format), dstAspect, d.mipLevel,
            region.extent.width, region.extent.height, region.extent.depth);
    return;
  }
  uint32_t sbx = static_cast<uint32_t>(region.srcOffset.x) / srcPlane.blockExtent.width;
  uint32_t sby = static_cast<uint32_t>(region.srcOffset.y) / srcPlane.blockExtent.height;
  uint32_t dbx = static_cast<uint32_t>(region.dstOffset.x) / dstPlane.blockExtent.width;
  uint32_t dby = static_cast<uint32_t>(region.dstOffset.y) / dstPlane.blockExtent.height;
  VkDeviceSize rowBytes = static_cast<VkDeviceSize>(blocksX) * srcPlane.blockSize * srcPlane.samples;
  if (src3D && dst3D) {
    CopyBox(srcPlane.Block(sbx, sby, static_cast<uint32_t>(region.srcOffset.z)), srcPlane.rowPitch,
            srcPlane.depthPitch, dstPlane.Block(dbx, dby, static_cast<uint32_t>(region.dstOffset.z)),
            dstPlane.rowPitch, dstPlane.depthPitch, rowBytes, blocksY, slices);
    return;
  }
  for (uint32_t slice = 0; slice < slices; ++slice) {
    PlaneView from = src3D ? srcPlane : PlaneAt(src, srcAspect, s.mipLevel, s.baseArrayLayer + slice);
    PlaneView to = dst3D ? dstPlane : PlaneAt(dst, dstAspect, d.mipLevel, d.baseArrayLayer + slice);
    uint32_t srcZ = src3D ? static_cast<uint32_t>(region.srcOffset.z) + slice : 0;
    uint32_t dstZ = dst3D ? static_cast<uint32_t>(region.dstOffset.z) + slice : 0;
    CopyBox(from.Block(sbx, sby, srcZ), from.rowPitch, 0, to.Block(dbx, dby, dstZ), to.rowPitch, 0, rowBytes,
            blocksY, 1);
  }
}

}  // namespace

void CopyBufferToImage(BufferBytes src, const ImageSurface& dst, std::span<const VkBufferImageCopy2> regions) {
  for (const VkBufferImageCopy2& region : regions)
    CopyBufferImageRegion(src, dst, region, true, "vkCmdCopyBufferToImage");
}

void CopyImageToBuffer(const ImageSurface& src, BufferBytes dst, std::span<const VkBufferImageCopy2> regions) {
  for (const VkBufferImageCopy2& region : regions)
    CopyBufferImageRegion(dst, src, region, false, "vkCmdCopyImageToBuffer");
}

void CopyImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageCopy2> regions) {
  for (const VkImageCopy2& region : regions) {
    VkImageAspectFlags srcMask = region.srcSubresource.aspectMask;
    for (VkImageAspectFlags rest = srcMask; rest != 0; rest &= rest - 1) {
      auto aspect = static_cast<VkImageAspectFlagBits>(rest & ~(rest - 1));
      CopyImageAspect(src, dst, region, aspect, DestinationAspect(srcMask, region.dstSubresource.aspectMask, aspect));
    }
  }
}

}  // namespace crashtest::transfer
