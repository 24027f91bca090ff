// The transfer operations on plain-memory surfaces (surface.h). transfer_ops.h offers the same operations on
// Buffer, Image and ImageView objects. Valid usage is the caller's business, but a region that would reach outside
// a buffer or image is skipped with a warning rather than corrupt the host process.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <span>

#include "transfer/surface.h"

namespace crashtest::transfer {

void CopyBuffer(BufferBytes src, BufferBytes dst, std::span<const VkBufferCopy2> regions);
void FillBuffer(BufferBytes dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data);
void UpdateBuffer(BufferBytes dst, VkDeviceSize offset, std::span<const std::byte> data);

void CopyBufferToImage(BufferBytes src, const ImageSurface& dst, std::span<const VkBufferImageCopy2> regions);
void CopyImageToBuffer(const ImageSurface& src, BufferBytes dst, std::span<const VkBufferImageCopy2> regions);
void CopyImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageCopy2> regions);

void BlitImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageBlit2> regions,
               VkFilter filter);
void ResolveImage(const ImageSurface& src, const ImageSurface& dst, std::span<const VkImageResolve2> regions);

void ClearColorImage(const ImageSurface& image, const VkClearColorValue& color,
                     std::span<const VkImageSubresourceRange> ranges);
void ClearDepthStencilImage(const ImageSurface& image, const VkClearDepthStencilValue& value,
                            std::span<const VkImageSubresourceRange> ranges);

// What an attachment clear needs of an image view: its image, the format it is viewed as, its type and its
// subresource range (levelCount 1 for attachments; layer counts resolved).
struct AttachmentView {
  const ImageSurface* image;
  VkFormat format;
  VkImageViewType viewType;
  VkImageSubresourceRange range;
};

// rect.baseArrayLayer is relative to the view's first layer. Layers of a 2D (array) view of a 3D image are the
// depth slices of the viewed level (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT).
void ClearAttachment(const AttachmentView& view, VkImageAspectFlags aspects, const VkClearValue& value,
                     const VkClearRect& rect);

}  // namespace crashtest::transfer
