// VkRenderPass and VkFramebuffer. Both creation paths (vkCreateRenderPass and vkCreateRenderPass2) end in the
// same form, the "2" structures, so the execution engine reads one representation: attachments, and per subpass
// its attachment references and view mask. Objects are immutable after creation.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;

class ImageView;
CT_DEFINE_HANDLE(RenderPass, VkRenderPass, VK_OBJECT_TYPE_RENDER_PASS);
CT_DEFINE_HANDLE(Framebuffer, VkFramebuffer, VK_OBJECT_TYPE_FRAMEBUFFER);

// One subpass. References keep attachment and layout (and aspectMask for input attachments); their pNext is
// cleared. An absent depth/stencil (resolve) attachment has attachment == VK_ATTACHMENT_UNUSED.
struct Subpass {
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  uint32_t viewMask = 0;
  std::vector<VkAttachmentReference2> inputAttachments;
  std::vector<VkAttachmentReference2> colorAttachments;
  std::vector<VkAttachmentReference2> resolveAttachments;  // empty, or one per colour attachment
  VkAttachmentReference2 depthStencilAttachment{};
  VkAttachmentReference2 depthStencilResolveAttachment{};
  VkResolveModeFlagBits depthResolveMode = VK_RESOLVE_MODE_NONE;
  VkResolveModeFlagBits stencilResolveMode = VK_RESOLVE_MODE_NONE;
  std::vector<uint32_t> preserveAttachments;
};

class RenderPass : public Object {
 public:
  // vkCreateRenderPass2. `allocator` is the call's, else the device's.
  static VkResult Create(const VkRenderPassCreateInfo2& info, const VkAllocationCallbacks* allocator,
                         VkRenderPass* out);
  // vkCreateRenderPass: converted to the "2" form, with VkRenderPassMultiviewCreateInfo's view masks and
  // VkRenderPassInputAttachmentAspectCreateInfo's aspects folded in.
  static VkResult Create(const VkRenderPassCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkRenderPass* out);
  // A second destruction is logged and ignored (VUID-vkDestroyRenderPass-renderPass-parameter); work in flight keeps
  // the storage (VUID-vkDestroyRenderPass-renderPass-00873: queue/resource_liveness.h faults on it).
  static void Destroy(Device& device, RenderPass* pass, const VkAllocationCallbacks* allocator);

  // pNext of each description cleared.
  std::span<const VkAttachmentDescription2> attachments() const { return attachments_; }
  uint32_t subpassCount() const { return static_cast<uint32_t>(subpasses_.size()); }
  const Subpass& subpass(uint32_t index) const { return subpasses_[index]; }
  std::span<const VkAttachmentReference2> colorAttachments(uint32_t subpass) const {
    return subpasses_[subpass].colorAttachments;
  }
  const VkAttachmentReference2& depthStencilAttachment(uint32_t subpass) const {
    return subpasses_[subpass].depthStencilAttachment;
  }
  uint32_t viewMask(uint32_t subpass) const { return subpasses_[subpass].viewMask; }
  // The first subpass that uses the attachment (as input, colour, resolve or depth/stencil), where its load op
  // applies ("the first subpass in which the attachment is used", Vulkan 1.3, 8.1 "Render Pass Creation");
  // VK_SUBPASS_EXTERNAL if no subpass uses it.
  uint32_t firstUse(uint32_t attachment) const { return firstUse_[attachment]; }
  uint32_t dependencyCount() const { return dependencyCount_; }

  RenderPass() : Object(VK_OBJECT_TYPE_RENDER_PASS) {}

 private:
  static VkResult Publish(RenderPass* pass, const VkAllocationCallbacks* allocator, VkRenderPass* out);
  void AssignFirstUses();

  std::vector<VkAttachmentDescription2> attachments_;
  std::vector<Subpass> subpasses_;
  std::vector<uint32_t> firstUse_;
  uint32_t dependencyCount_ = 0;
};

class Framebuffer : public Object {
 public:
  static VkResult Create(const VkFramebufferCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkFramebuffer* out);
  // As RenderPass::Destroy (VUID-vkDestroyFramebuffer-framebuffer-parameter, -framebuffer-00892).
  static void Destroy(Device& device, Framebuffer* framebuffer, const VkAllocationCallbacks* allocator);

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t layers() const { return layers_; }
  // VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT: attachments() is empty and the views come from
  // VkRenderPassAttachmentBeginInfo at vkCmdBeginRenderPass.
  bool imageless() const { return imageless_; }
  // The number of attachments, also for imageless framebuffers.
  uint32_t attachmentCount() const { return attachmentCount_; }
  std::span<ImageView* const> attachments() const { return attachments_; }

  explicit Framebuffer(const VkFramebufferCreateInfo& info);

 private:
  uint32_t width_, height_, layers_;
  bool imageless_;
  uint32_t attachmentCount_;
  std::vector<ImageView*> attachments_;
};

}  // namespace crashtest
