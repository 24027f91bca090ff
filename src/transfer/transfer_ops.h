// What transfers, clears, blits and resolves do to the bytes of buffers and images. Called by the execution engine
// on a queue's worker thread: synchronous, no locking, no allocation (the resources are externally synchronised by
// the submission that uses them). Each function forwards to its plain-memory form in surface_ops.h.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <span>

namespace crashtest {
class Buffer;
class Image;
class ImageView;
}  // namespace crashtest

namespace crashtest::transfer {

void CopyBuffer(const Buffer& src, const Buffer& dst, std::span<const VkBufferCopy2> regions);
// size may be VK_WHOLE_SIZE.
void FillBuffer(const Buffer& dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data);
void UpdateBuffer(const Buffer& dst, VkDeviceSize offset, std::span<const std::byte> data);
void CopyBufferToImage(const Buffer& src, const Image& dst, std::span<const VkBufferImageCopy2> regions);
void CopyImageToBuffer(const Image& src, const Buffer& dst, std::span<const VkBufferImageCopy2> regions);
void CopyImage(const Image& src, const Image& dst, std::span<const VkImageCopy2> regions);
void BlitImage(const Image& src, const Image& dst, std::span<const VkImageBlit2> regions, VkFilter filter);
void ResolveImage(const Image& src, const Image& dst, std::span<const VkImageResolve2> regions);
void ClearColorImage(const Image& image, const VkClearColorValue& color,
                     std::span<const VkImageSubresourceRange> ranges);
void ClearDepthStencilImage(const Image& image, const VkClearDepthStencilValue& value,
                            std::span<const VkImageSubresourceRange> ranges);
// One rect of vkCmdClearAttachments or of a load-op clear: rect.baseArrayLayer is relative to the view.
void ClearAttachment(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value,
                     const VkClearRect& rect);
// The end-of-subpass / end-of-rendering multisample resolve of one aspect (transfer/attachment_resolve.h).
void ResolveAttachment(const ImageView& src, const ImageView& dst, VkImageAspectFlagBits aspect,
                       VkResolveModeFlagBits mode, const VkRect2D& area, uint32_t layerCount, uint32_t viewMask);

}  // namespace crashtest::transfer
