#include "transfer/render_pass.h"

#include <algorithm>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "memory/views.h"

namespace crashtest {

namespace {

VkAttachmentReference2 UnusedReference() {
  return {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_UNDEFINED, 0};
}

VkAttachmentReference2 Reference(const VkAttachmentReference2& ref) {
  return {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, ref.attachment, ref.layout, ref.aspectMask};
}

VkAttachmentReference2 Reference(const VkAttachmentReference& ref) {
  return {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, ref.attachment, ref.layout, 0};
}

template <typename Ref>
std::vector<VkAttachmentReference2> References(const Ref* refs, uint32_t count) {
  std::vector<VkAttachmentReference2> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(Reference(refs[i]));
  return out;
}

// Fields shared by VkSubpassDescription and VkSubpassDescription2.
template <typename Description>
Subpass CommonSubpass(const Description& d) {
  Subpass s;
  s.bindPoint = d.pipelineBindPoint;
  s.inputAttachments = References(d.pInputAttachments, d.inputAttachmentCount);
  s.colorAttachments = References(d.pColorAttachments, d.colorAttachmentCount);
  if (d.pResolveAttachments != nullptr) s.resolveAttachments = References(d.pResolveAttachments, d.colorAttachmentCount);
  s.depthStencilAttachment = d.pDepthStencilAttachment != nullptr ? Reference(*d.pDepthStencilAttachment) : UnusedReference();
  s.depthStencilResolveAttachment = UnusedReference();
  s.preserveAttachments.assign(d.pPreserveAttachments, d.pPreserveAttachments + d.preserveAttachmentCount);
  return s;
}

}  // namespace

VkResult RenderPass::Publish(RenderPass* pass, const VkAllocationCallbacks* allocator, VkRenderPass* out) {
  for (const Subpass& subpass : pass->subpasses_) {
    auto check = [&](const VkAttachmentReference2& ref) {
      return ref.attachment == VK_ATTACHMENT_UNUSED || ref.attachment < pass->attachments_.size();
    };
    bool valid = std::all_of(subpass.inputAttachments.begin(), subpass.inputAttachments.end(), check) &&
                 std::all_of(subpass.colorAttachments.begin(), subpass.colorAttachments.end(), check) &&
                 std::all_of(subpass.resolveAttachments.begin(), subpass.resolveAttachments.end(), check) &&
                 check(subpass.depthStencilAttachment) && check(subpass.depthStencilResolveAttachment);
    if (!valid) {
      DeleteObject(allocator, pass);
      // VUID-VkRenderPassCreateInfo2-attachment-03051 and its siblings: every reference names an attachment.
      return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                         "vkCreateRenderPass: a subpass references an attachment index beyond attachmentCount");
    }
  }
  pass->AssignFirstUses();
  live_objects::Add(pass, {VK_OBJECT_TYPE_RENDER_PASS, pass->header.id, 0});
  *out = ToHandle(pass);
  return VK_SUCCESS;
}

void RenderPass::Destroy(Device& device, RenderPass* pass, const VkAllocationCallbacks* allocator) {
  if (pass == nullptr) return;
  if (!live_objects::Remove(pass, VK_OBJECT_TYPE_RENDER_PASS)) {
    CT_ERROR("vkDestroyRenderPass: %p is not a live render pass (destroyed already?) "
             "(VUID-vkDestroyRenderPass-renderPass-parameter); ignored", static_cast<void*>(ToHandle(pass)));
    return;
  }
  device.deferredDestruction().DestroyWhenIdle(
      pass, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<RenderPass*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

void RenderPass::AssignFirstUses() {
  firstUse_.assign(attachments_.size(), VK_SUBPASS_EXTERNAL);
  for (uint32_t i = static_cast<uint32_t>(subpasses_.size()); i-- > 0;) {
    const Subpass& s = subpasses_[i];
    auto mark = [&](const VkAttachmentReference2& ref) {
      if (ref.attachment != VK_ATTACHMENT_UNUSED) firstUse_[ref.attachment] = i;
    };
    std::for_each(s.inputAttachments.begin(), s.inputAttachments.end(), mark);
    std::for_each(s.colorAttachments.begin(), s.colorAttachments.end(), mark);
    std::for_each(s.resolveAttachments.begin(), s.resolveAttachments.end(), mark);
    mark(s.depthStencilAttachment);
    mark(s.depthStencilResolveAttachment);
  }
}

VkResult RenderPass::Create(const VkRenderPassCreateInfo2& info, const VkAllocationCallbacks* allocator,
                            VkRenderPass* out) {
  auto* pass = NewObject<RenderPass>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (pass == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateRenderPass2: allocation failed");
  try {
    for (uint32_t i = 0; i < info.attachmentCount; ++i) {
      pass->attachments_.push_back(info.pAttachments[i]);
      pass->attachments_.back().pNext = nullptr;
    }
    for (uint32_t i = 0; i < info.subpassCount; ++i) {
      const VkSubpassDescription2& d = info.pSubpasses[i];
      Subpass s = CommonSubpass(d);
      s.viewMask = d.viewMask;
      if (const auto* resolve = FindInChain<VkSubpassDescriptionDepthStencilResolve>(d.pNext)) {
        if (resolve->pDepthStencilResolveAttachment != nullptr)
          s.depthStencilResolveAttachment = Reference(*resolve->pDepthStencilResolveAttachment);
        s.depthResolveMode = resolve->depthResolveMode;
        s.stencilResolveMode = resolve->stencilResolveMode;
      }
      pass->subpasses_.push_back(std::move(s));
    }
    pass->dependencyCount_ = info.dependencyCount;
  } catch (...) {
    DeleteObject(allocator, pass);
    throw;
  }
  return Publish(pass, allocator, out);
}

VkResult RenderPass::Create(const VkRenderPassCreateInfo& info, const VkAllocationCallbacks* allocator,
                            VkRenderPass* out) {
  auto* pass = NewObject<RenderPass>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (pass == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateRenderPass: allocation failed");
  try {
    for (uint32_t i = 0; i < info.attachmentCount; ++i) {
      const VkAttachmentDescription& a = info.pAttachments[i];
      pass->attachments_.push_back({VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, nullptr, a.flags, a.format, a.samples,
                                    a.loadOp, a.storeOp, a.stencilLoadOp, a.stencilStoreOp, a.initialLayout,
                                    a.finalLayout});
    }
    const auto* multiview = FindInChain<VkRenderPassMultiviewCreateInfo>(info.pNext);
    for (uint32_t i = 0; i < info.subpassCount; ++i) {
      Subpass s = CommonSubpass(info.pSubpasses[i]);
      if (multiview != nullptr && i < multiview->subpassCount) s.viewMask = multiview->pViewMasks[i];
      pass->subpasses_.push_back(std::move(s));
    }
    // "aspectMask of an input attachment reference ... VkRenderPassInputAttachmentAspectCreateInfo" is how the
    // first API states what the second puts in VkAttachmentReference2::aspectMask.
    if (const auto* aspects = FindInChain<VkRenderPassInputAttachmentAspectCreateInfo>(info.pNext)) {
      for (uint32_t i = 0; i < aspects->aspectReferenceCount; ++i) {
        const VkInputAttachmentAspectReference& r = aspects->pAspectReferences[i];
        if (r.subpass < pass->subpasses_.size() && r.inputAttachmentIndex < pass->subpasses_[r.subpass].inputAttachments.size())
          pass->subpasses_[r.subpass].inputAttachments[r.inputAttachmentIndex].aspectMask = r.aspectMask;
      }
    }
    pass->dependencyCount_ = info.dependencyCount;
  } catch (...) {
    DeleteObject(allocator, pass);
    throw;
  }
  return Publish(pass, allocator, out);
}

Framebuffer::Framebuffer(const VkFramebufferCreateInfo& info)
    : Object(VK_OBJECT_TYPE_FRAMEBUFFER),
      width_(info.width),
      height_(info.height),
      layers_(info.layers),
      imageless_((info.flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0),
      attachmentCount_(info.attachmentCount) {
  // "If flags includes VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT, pAttachments is ignored" (VkFramebufferCreateInfo).
  if (!imageless_) {
    attachments_.reserve(info.attachmentCount);
    for (uint32_t i = 0; i < info.attachmentCount; ++i) attachments_.push_back(FromHandle(info.pAttachments[i]));
  }
}

VkResult Framebuffer::Create(const VkFramebufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                             VkFramebuffer* out) {
  if (info.width == 0 || info.height == 0 || info.layers == 0)
    // VUID-VkFramebufferCreateInfo-width-00885, -height-00887, -layers-00889: each must be greater than 0.
    return ReportError(VK_ERROR_INITIALIZATION_FAILED, "vkCreateFramebuffer: width, height and layers must be > 0 "
                       "(got %ux%ux%u)", info.width, info.height, info.layers);
  auto* framebuffer = NewObject<Framebuffer>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, info);
  if (framebuffer == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateFramebuffer: allocation failed");
  live_objects::Add(framebuffer, {VK_OBJECT_TYPE_FRAMEBUFFER, framebuffer->header.id, 0});
  *out = ToHandle(framebuffer);
  return VK_SUCCESS;
}

void Framebuffer::Destroy(Device& device, Framebuffer* framebuffer, const VkAllocationCallbacks* allocator) {
  if (framebuffer == nullptr) return;
  if (!live_objects::Remove(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER)) {
    CT_ERROR("vkDestroyFramebuffer: %p is not a live framebuffer (destroyed already?) "
             "(VUID-vkDestroyFramebuffer-framebuffer-parameter); ignored", static_cast<void*>(ToHandle(framebuffer)));
    return;
  }
  device.deferredDestruction().DestroyWhenIdle(
      framebuffer, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<Framebuffer*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

}  // namespace crashtest
