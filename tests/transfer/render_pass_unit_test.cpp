// RenderPass objects built directly: vkCreateRenderPass's structures convert to the "2" form, multiview masks and
// input-attachment aspects included; first uses are found for load-op clears.
#include <gtest/gtest.h>

#include "common/allocation.h"
#include "common/handle.h"
#include "transfer/render_pass.h"

namespace crashtest {
namespace {

TEST(RenderPass, FirstApiConvertsToTheSecond) {
  VkAttachmentDescription attachments[3] = {};
  for (auto& a : attachments) a.samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[1].format = VK_FORMAT_D24_UNORM_S8_UINT;
  attachments[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[2].format = VK_FORMAT_R32_SFLOAT;
  VkAttachmentReference color0{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference color1{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference input{2, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkAttachmentReference depth{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].colorAttachmentCount = 1;
  subpasses[0].pColorAttachments = &color0;
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &input;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &color1;
  subpasses[1].pDepthStencilAttachment = &depth;
  uint32_t viewMasks[2] = {0b11, 0b01};
  VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
  multiview.subpassCount = 2;
  multiview.pViewMasks = viewMasks;
  VkInputAttachmentAspectReference aspect{1, 0, VK_IMAGE_ASPECT_COLOR_BIT};
  VkRenderPassInputAttachmentAspectCreateInfo aspects{VK_STRUCTURE_TYPE_RENDER_PASS_INPUT_ATTACHMENT_ASPECT_CREATE_INFO,
                                                      &multiview, 1, &aspect};
  VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, &aspects};
  info.attachmentCount = 3;
  info.pAttachments = attachments;
  info.subpassCount = 2;
  info.pSubpasses = subpasses;
  VkRenderPass handle = VK_NULL_HANDLE;
  ASSERT_EQ(RenderPass::Create(info, nullptr, &handle), VK_SUCCESS);
  RenderPass* pass = FromHandle(handle);
  ASSERT_EQ(pass->attachments().size(), 3u);
  EXPECT_EQ(pass->attachments()[1].sType, VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2);
  EXPECT_EQ(pass->attachments()[1].stencilLoadOp, VK_ATTACHMENT_LOAD_OP_CLEAR);
  ASSERT_EQ(pass->subpassCount(), 2u);
  EXPECT_EQ(pass->viewMask(0), 0b11u);
  EXPECT_EQ(pass->viewMask(1), 0b01u);
  EXPECT_EQ(pass->colorAttachments(1)[0].attachment, 0u);
  EXPECT_EQ(pass->depthStencilAttachment(1).attachment, 1u);
  EXPECT_EQ(pass->depthStencilAttachment(0).attachment, VK_ATTACHMENT_UNUSED);
  EXPECT_EQ(pass->subpass(1).inputAttachments[0].aspectMask, static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_COLOR_BIT));
  EXPECT_EQ(pass->firstUse(2), 0u);
  EXPECT_EQ(pass->firstUse(0), 1u);
  EXPECT_EQ(pass->firstUse(1), 1u);
  DeleteObject(static_cast<const VkAllocationCallbacks*>(nullptr), pass);
}

TEST(RenderPass, SecondApiKeepsDepthStencilResolveAndRejectsBadIndices) {
  VkAttachmentDescription2 attachments[2] = {{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2},
                                             {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2}};
  attachments[0].format = attachments[1].format = VK_FORMAT_D32_SFLOAT;
  attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
  attachments[1].samples = VK_SAMPLE_COUNT_1_BIT;
  VkAttachmentReference2 depth{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0,
                               VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 0};
  VkAttachmentReference2 resolve = depth;
  resolve.attachment = 1;
  VkSubpassDescriptionDepthStencilResolve resolveInfo{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
  resolveInfo.depthResolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  resolveInfo.pDepthStencilResolveAttachment = &resolve;
  VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &resolveInfo};
  subpass.viewMask = 0b101;
  subpass.pDepthStencilAttachment = &depth;
  VkRenderPassCreateInfo2 info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  info.attachmentCount = 2;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  VkRenderPass handle = VK_NULL_HANDLE;
  ASSERT_EQ(RenderPass::Create(info, nullptr, &handle), VK_SUCCESS);
  RenderPass* pass = FromHandle(handle);
  EXPECT_EQ(pass->viewMask(0), 0b101u);
  EXPECT_EQ(pass->subpass(0).depthStencilResolveAttachment.attachment, 1u);
  EXPECT_EQ(pass->subpass(0).depthResolveMode, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
  EXPECT_EQ(pass->firstUse(1), 0u);
  DeleteObject(static_cast<const VkAllocationCallbacks*>(nullptr), pass);

  depth.attachment = 5;  // beyond attachmentCount
  EXPECT_EQ(RenderPass::Create(info, nullptr, &handle), VK_ERROR_INITIALIZATION_FAILED);
}

}  // namespace
}  // namespace crashtest
