// Multisample resolves a render pass instance performs: at the end of each subpass into its resolve attachments
// (render passes 1 and 2, incl. VkSubpassDescriptionDepthStencilResolve) and at the end of a dynamic render pass
// instance into each VkRenderingAttachmentInfo's resolveImageView.
#pragma once

#include <vulkan/vulkan.h>

#include "transfer/surface_ops.h"

namespace crashtest::transfer {

// Resolves `area` of one aspect from `src` (multisampled) into `dst` (single-sample): every layer of
// `layerCount`, or with multiview (viewMask != 0) the layer of each view. Colour: the average of the samples for
// float and normalized formats, sample 0 for integer formats (the only modes the spec allows for colour).
// Depth: VK_RESOLVE_MODE_SAMPLE_ZERO / AVERAGE / MIN / MAX; stencil: SAMPLE_ZERO / MIN / MAX.
void ResolveAttachment(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlagBits aspect,
                       VkResolveModeFlagBits mode, const VkRect2D& area, uint32_t layerCount, uint32_t viewMask);

}  // namespace crashtest::transfer
