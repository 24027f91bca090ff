// The object-level transfer entry points: each builds the plain-memory views of its resources (no allocation) and
// runs the operation of surface_ops.h.
#include "transfer/transfer_ops.h"

#include "transfer/attachment_resolve.h"

#include <algorithm>

#include "device/resources.h"
#include "memory/views.h"
#include "transfer/surface_ops.h"

namespace crashtest::transfer {

namespace {

BufferBytes BytesOf(const Buffer& buffer) { return {buffer.data(), buffer.size()}; }

ImageSurface SurfaceOf(const Image& image) {
  const VkImageCreateInfo& info = image.info();
  return {image.data(), info.format, info.imageType, info.extent, std::max(info.mipLevels, 1u),
          std::max(info.arrayLayers, 1u), info.samples, &image.layout()};
}

}  // namespace

void CopyBuffer(const Buffer& src, const Buffer& dst, std::span<const VkBufferCopy2> regions) {
  CopyBuffer(BytesOf(src), BytesOf(dst), regions);
}

void FillBuffer(const Buffer& dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data) {
  FillBuffer(BytesOf(dst), offset, size, data);
}

void UpdateBuffer(const Buffer& dst, VkDeviceSize offset, std::span<const std::byte> data) {
  UpdateBuffer(BytesOf(dst), offset, data);
}

void CopyBufferToImage(const Buffer& src, const Image& dst, std::span<const VkBufferImageCopy2> regions) {
  CopyBufferToImage(BytesOf(src), SurfaceOf(dst), regions);
}

void CopyImageToBuffer(const Image& src, const Buffer& dst, std::span<const VkBufferImageCopy2> regions) {
  CopyImageToBuffer(SurfaceOf(src), BytesOf(dst), regions);
}

void CopyImage(const Image& src, const Image& dst, std::span<const VkImageCopy2> regions) {
  CopyImage(SurfaceOf(src), SurfaceOf(dst), regions);
}

void BlitImage(const Image& src, const Image& dst, std::span<const VkImageBlit2> regions, VkFilter filter) {
  BlitImage(SurfaceOf(src), SurfaceOf(dst), regions, filter);
}

void ResolveImage(const Image& src, const Image& dst, std::span<const VkImageResolve2> regions) {
  ResolveImage(SurfaceOf(src), SurfaceOf(dst), regions);
}

void ClearColorImage(const Image& image, const VkClearColorValue& color,
                     std::span<const VkImageSubresourceRange> ranges) {
  ClearColorImage(SurfaceOf(image), color, ranges);
}

void ClearDepthStencilImage(const Image& image, const VkClearDepthStencilValue& value,
                            std::span<const VkImageSubresourceRange> ranges) {
  ClearDepthStencilImage(SurfaceOf(image), value, ranges);
}

void ClearAttachment(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value,
                     const VkClearRect& rect) {
  ImageSurface image = SurfaceOf(view.image());
  ClearAttachment(AttachmentView{&image, view.format(), view.viewType(), view.subresourceRange()}, aspects, value,
                  rect);
}

void ResolveAttachment(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect,
                       VkResolveModeFlagBits mode, const VkRect2D& area, uint32_t layerCount, uint32_t viewMask) {
  ImageSurface from = SurfaceOf(src.image());
  ImageSurface to = SurfaceOf(dst.image());
  ResolveAttachment(AttachmentView{&from, src.format(), src.viewType(), src.subresourceRange()},
                    AttachmentView{&to, dst.format(), dst.viewType(), dst.subresourceRange()}, aspect, mode, area,
                    layerCount, viewMask);
}

}  // namespace crashtest::transfer
