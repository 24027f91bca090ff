// The clears a render pass instance performs on the CPU: load-op clears at the first use of each attachment
// (render passes 1 and 2, framebuffers with or without images, dynamic rendering) and vkCmdClearAttachments.
#include <algorithm>
#include <span>

#include "command/command_records.h"
#include "format/format_info.h"
#include "memory/views.h"
#include "queue/executor.h"
#include "queue/resource_liveness.h"
#include "transfer/render_pass.h"
#include "transfer/transfer_ops.h"

namespace crashtest {

namespace {

const VkClearValue* ClearValuesOf(const record::BeginRenderPass& begin) { return PayloadOf<VkClearValue>(&begin); }

const ImageView* const* ImagelessViewsOf(const record::BeginRenderPass& begin) {
  return reinterpret_cast<const ImageView* const*>(ClearValuesOf(begin) + begin.clearValueCount);
}

const record::RenderingAttachment* AttachmentsOf(const record::BeginRendering& begin) {
  return PayloadOf<record::RenderingAttachment>(&begin);
}

// Clears `rect` of `view`; with multiview, once per view of `viewMask`, at the layer of that view ("... the
// rectangles ... are cleared in each of the views", vkCmdClearAttachments with multiview).
void ClearRect(const ImageView& view, VkImageAspectFlags aspects, const VkClearValue& value, VkClearRect rect,
               uint32_t viewMask) {
  if (viewMask == 0) {
    transfer::ClearAttachment(view, aspects, value, rect);
    return;
  }
  for (uint32_t bit = 0; bit < 32; ++bit) {
    if ((viewMask & (1u << bit)) == 0) continue;
    VkClearRect layer = rect;
    layer.baseArrayLayer = rect.baseArrayLayer + bit;
    layer.layerCount = 1;
    transfer::ClearAttachment(view, aspects, value, layer);
  }
}

}  // namespace

const ImageView* Executor::RenderPassView(uint32_t attachment) const {
  const record::BeginRenderPass& begin = *rendering_.renderPass;
  if (attachment == VK_ATTACHMENT_UNUSED) return nullptr;
  if (begin.viewCount > 0) return attachment < begin.viewCount ? ImagelessViewsOf(begin)[attachment] : nullptr;
  std::span<ImageView* const> views = begin.framebuffer->attachments();
  return attachment < views.size() ? views[attachment] : nullptr;
}

DrawAttachments Executor::CurrentAttachments() const {
  DrawAttachments out;
  if (!rendering_.active) return out;
  out.active = true;
  if (rendering_.renderPass != nullptr) {
    const record::BeginRenderPass& begin = *rendering_.renderPass;
    const RenderPass& pass = *begin.renderPass;
    out.renderArea = begin.renderArea;
    if (rendering_.subpass >= pass.subpassCount()) return out;
    for (const VkAttachmentReference2& colour : pass.colorAttachments(rendering_.subpass))
      out.colors.push_back(RenderPassView(colour.attachment));
    const uint32_t depthStencil = pass.depthStencilAttachment(rendering_.subpass).attachment;
    if (const ImageView* view = RenderPassView(depthStencil)) {
      const VkFormat format = pass.attachments()[depthStencil].format;
      if (HasDepth(format)) out.depth = view;
      if (HasStencil(format)) out.stencil = view;
    }
    return out;
  }
  const record::BeginRendering& begin = *rendering_.rendering;
  out.renderArea = begin.renderArea;
  const record::RenderingAttachment* attachments = AttachmentsOf(begin);
  for (uint32_t i = 0; i < begin.colorCount; ++i) out.colors.push_back(attachments[i].view);
  out.depth = attachments[begin.colorCount].view;
  out.stencil = attachments[begin.colorCount + 1].view;
  return out;
}

bool Executor::BeginRenderPass(const record::BeginRenderPass& begin, const std::string& where) {
  // The render pass and framebuffer themselves first: destroyed since the recording, they are not read. Destroyed
  // while the instance runs, their storage stays until the submission ends (RenderPass::Destroy).
  if (!RenderPassInstanceLive(queue_, begin.renderPass, begin.framebuffer, where)) return false;
  rendering_ = RenderingState{true, &begin, nullptr, 0};
  // The instance loads, stores or resolves every attachment: each view (and its image and memory) must be alive
  // (VUID-vkDestroyImageView-imageView-01026, VUID-vkDestroyImage-image-01000).
  for (uint32_t a = 0; a < begin.renderPass->attachments().size(); ++a)
    if (!ImageViewLive(queue_, RenderPassView(a), ResourceAccess::Write, where)) {
      rendering_ = RenderingState{};
      return false;
    }
  LoadOpClears(0);
  return true;
}

void Executor::NextSubpass() {
  if (rendering_.renderPass == nullptr) return;
  ResolveSubpass(rendering_.subpass);
  ++rendering_.subpass;
  LoadOpClears(rendering_.subpass);
}

void Executor::LoadOpClears(uint32_t subpass) {
  const record::BeginRenderPass& begin = *rendering_.renderPass;
  const RenderPass& pass = *begin.renderPass;
  if (subpass >= pass.subpassCount()) return;
  std::span<const VkAttachmentDescription2> attachments = pass.attachments();
  for (uint32_t a = 0; a < attachments.size(); ++a) {
    // "The load operation for each sample in an attachment happens-before any recorded command which accesses the
    // sample in the first subpass where the attachment is used" (Vulkan 1.3, 8.1); only the render area is
    // affected ("... within the render area").
    if (pass.firstUse(a) != subpass) continue;
    const VkAttachmentDescription2& description = attachments[a];
    VkImageAspectFlags aspects = 0;
    if (IsDepthOrStencil(description.format)) {
      if (HasDepth(description.format) && description.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
      if (HasStencil(description.format) && description.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
    } else if (description.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) {
      aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    }
    const ImageView* view = RenderPassView(a);
    if (aspects == 0 || view == nullptr || a >= begin.clearValueCount) continue;
    uint32_t viewMask = pass.viewMask(subpass);
    uint32_t layers = viewMask != 0 ? 1 : begin.framebuffer->layers();
    if (layers > view->subresourceRange().layerCount) layers = view->subresourceRange().layerCount;
    ClearRect(*view, aspects, ClearValuesOf(begin)[a], VkClearRect{begin.renderArea, 0, layers}, viewMask);
  }
}

void Executor::EndRenderPass() {
  if (rendering_.renderPass != nullptr) ResolveSubpass(rendering_.subpass);
  rendering_ = RenderingState{};
}

// "...at the end of each subpass, multisample resolve operations are executed" for its resolve attachments (Vulkan
// 1.3, 8.1 "Render Pass Creation"), within the render area; with multiview, for each view of the subpass.
void Executor::ResolveSubpass(uint32_t subpass) {
  const record::BeginRenderPass& begin = *rendering_.renderPass;
  const RenderPass& pass = *begin.renderPass;
  if (subpass >= pass.subpassCount()) return;
  const Subpass& s = pass.subpass(subpass);
  const uint32_t viewMask = s.viewMask;
  auto layersOf = [&](const ImageView& view) {
    return std::min(begin.framebuffer->layers(), view.subresourceRange().layerCount);
  };
  for (size_t i = 0; i < s.resolveAttachments.size() && i < s.colorAttachments.size(); ++i) {
    const ImageView* from = RenderPassView(s.colorAttachments[i].attachment);
    const ImageView* to = RenderPassView(s.resolveAttachments[i].attachment);
    if (from == nullptr || to == nullptr) continue;
    // The spec's colour rule: average for float/normalized formats, sample 0 for integer formats.
    transfer::ResolveAttachment(*from, *to, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, begin.renderArea,
                                layersOf(*from), viewMask);
  }
  const ImageView* depthFrom = RenderPassView(s.depthStencilAttachment.attachment);
  const ImageView* depthTo = RenderPassView(s.depthStencilResolveAttachment.attachment);
  if (depthFrom == nullptr || depthTo == nullptr) return;
  const VkFormat format = depthFrom->format();
  if (HasDepth(format))
    transfer::ResolveAttachment(*depthFrom, *depthTo, VK_IMAGE_ASPECT_DEPTH_BIT, s.depthResolveMode, begin.renderArea,
                                layersOf(*depthFrom), viewMask);
  if (HasStencil(format))
    transfer::ResolveAttachment(*depthFrom, *depthTo, VK_IMAGE_ASPECT_STENCIL_BIT, s.stencilResolveMode,
                                begin.renderArea, layersOf(*depthFrom), viewMask);
}

// "If resolveMode is not VK_RESOLVE_MODE_NONE ... values in imageView will be resolved to resolveImageView at the
// end of rendering" (VkRenderingAttachmentInfo) — unless the instance is suspended (VK_RENDERING_SUSPENDING_BIT):
// the resolve then happens when the resumed instance ends.
void Executor::EndRendering() {
  const record::BeginRendering* begin = rendering_.rendering;
  rendering_ = RenderingState{};
  if (begin == nullptr || (begin->flags & VK_RENDERING_SUSPENDING_BIT) != 0) return;
  const record::RenderingAttachment* attachments = AttachmentsOf(*begin);
  auto resolve = [&](const record::RenderingAttachment& a, VkImageAspectFlagBits aspect) {
    if (a.view == nullptr || a.resolveView == nullptr || a.resolveMode == VK_RESOLVE_MODE_NONE) return;
    transfer::ResolveAttachment(*a.view, *a.resolveView, aspect, a.resolveMode, begin->renderArea, begin->layerCount,
                                begin->viewMask);
  };
  for (uint32_t i = 0; i < begin->colorCount; ++i) resolve(attachments[i], VK_IMAGE_ASPECT_COLOR_BIT);
  resolve(attachments[begin->colorCount], VK_IMAGE_ASPECT_DEPTH_BIT);
  resolve(attachments[begin->colorCount + 1], VK_IMAGE_ASPECT_STENCIL_BIT);
}

bool Executor::BeginRendering(const record::BeginRendering& begin, const std::string& where) {
  const record::RenderingAttachment* attachments = AttachmentsOf(begin);
  // Every attachment and resolve attachment, as for render passes.
  for (uint32_t i = 0; i < begin.colorCount + 2; ++i)
    if (!ImageViewLive(queue_, attachments[i].view, ResourceAccess::Write, where) ||
        !ImageViewLive(queue_, attachments[i].resolveView, ResourceAccess::Write, where)) {
      rendering_ = RenderingState{};
      return false;
    }
  rendering_ = RenderingState{true, nullptr, &begin, 0};
  // "VK_RENDERING_RESUMING_BIT specifies that the render pass instance is resuming an earlier suspended render
  // pass instance": its load operations do not happen again.
  if ((begin.flags & VK_RENDERING_RESUMING_BIT) != 0) return true;
  VkClearRect rect{begin.renderArea, 0, begin.viewMask != 0 ? 1 : begin.layerCount};
  auto clear = [&](const record::RenderingAttachment& attachment, VkImageAspectFlags aspects) {
    if (attachment.view != nullptr && attachment.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      ClearRect(*attachment.view, aspects, attachment.clearValue, rect, begin.viewMask);
  };
  for (uint32_t i = 0; i < begin.colorCount; ++i) clear(attachments[i], VK_IMAGE_ASPECT_COLOR_BIT);
  const record::RenderingAttachment& depth = attachments[begin.colorCount];
  const record::RenderingAttachment& stencil = attachments[begin.colorCount + 1];
  clear(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  clear(stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
  return true;
}

void Executor::ClearAttachments(const record::ClearAttachments& clear) {
  if (!rendering_.active) return;
  const VkClearAttachment* attachments = PayloadOf<VkClearAttachment>(&clear);
  const auto* rects = reinterpret_cast<const VkClearRect*>(attachments + clear.attachmentCount);
  uint32_t viewMask = 0;
  auto clearView = [&](const ImageView* view, VkImageAspectFlags aspects, const VkClearValue& value) {
    if (view == nullptr || aspects == 0) return;
    for (uint32_t r = 0; r < clear.rectCount; ++r) ClearRect(*view, aspects, value, rects[r], viewMask);
  };
  for (uint32_t i = 0; i < clear.attachmentCount; ++i) {
    const VkClearAttachment& attachment = attachments[i];
    const bool color = (attachment.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) != 0;
    const VkImageAspectFlags depthStencil =
        attachment.aspectMask & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
    if (rendering_.renderPass != nullptr) {
      const RenderPass& pass = *rendering_.renderPass->renderPass;
      viewMask = pass.viewMask(rendering_.subpass);
      if (color) {
        std::span<const VkAttachmentReference2> colors = pass.colorAttachments(rendering_.subpass);
        // "If the colorAttachment is VK_ATTACHMENT_UNUSED then the clear has no effect."
        if (attachment.colorAttachment < colors.size())
          clearView(RenderPassView(colors[attachment.colorAttachment].attachment), VK_IMAGE_ASPECT_COLOR_BIT,
                    attachment.clearValue);
      } else {
        clearView(RenderPassView(pass.depthStencilAttachment(rendering_.subpass).attachment), depthStencil,
                  attachment.clearValue);
      }
    } else {
      const record::BeginRendering& begin = *rendering_.rendering;
      const record::RenderingAttachment* views = AttachmentsOf(begin);
      viewMask = begin.viewMask;
      if (color) {
        if (attachment.colorAttachment < begin.colorCount)
          clearView(views[attachment.colorAttachment].view, VK_IMAGE_ASPECT_COLOR_BIT, attachment.clearValue);
      } else {
        const ImageView* depth = views[begin.colorCount].view;
        const ImageView* stencil = views[begin.colorCount + 1].view;
        if (depth != nullptr && depth == stencil) {
          clearView(depth, depthStencil, attachment.clearValue);
        } else {
          clearView(depth, depthStencil & VK_IMAGE_ASPECT_DEPTH_BIT, attachment.clearValue);
          clearView(stencil, depthStencil & VK_IMAGE_ASPECT_STENCIL_BIT, attachment.clearValue);
        }
      }
    }
  }
}

}  // namespace crashtest
