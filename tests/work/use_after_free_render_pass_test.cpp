// Render passes and framebuffers destroyed while a render pass instance that uses them is pending (issue 18),
// through the real loader. The queue reads both as the instance begins (the attachments, their load operations);
// destroyed since the recording (VUID-vkDestroyRenderPass-renderPass-00873,
// VUID-vkDestroyFramebuffer-framebuffer-00892), they raise a use-after-free device fault there instead (at 0: they
// have no device address), and the instance does not begin. Before, both were freed at once and the queue read them
// (ASan: heap-use-after-free; plain builds: a silently successful submission or a crash). The attachments' views
// were already checked as the instance begins (use_after_free_resources_test.cpp).
#include <string>

#include "use_after_free_fixture.h"

namespace crashtest::test {
namespace {

class UseAfterFreeRenderPassTest : public UseAfterFreeResourcesTest {
 protected:
  void SetUp() override {
    UseAfterFreeResourcesTest::SetUp();
    if (device_ == VK_NULL_HANDLE) return;
    target_ = CreateImage(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkAttachmentDescription color{};
    color.format = VK_FORMAT_R8G8B8A8_UNORM;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 1;
    info.pAttachments = &color;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    ASSERT_EQ(vkCreateRenderPass(device_, &info, nullptr, &pass_), VK_SUCCESS);
    VkFramebufferCreateInfo framebufferInfo{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    framebufferInfo.renderPass = pass_;
    framebufferInfo.attachmentCount = 1;
    framebufferInfo.pAttachments = &target_->view;
    framebufferInfo.width = framebufferInfo.height = 16;
    framebufferInfo.layers = 1;
    ASSERT_EQ(vkCreateFramebuffer(device_, &framebufferInfo, nullptr, &framebuffer_), VK_SUCCESS);
  }
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      vkDestroyFramebuffer(device_, framebuffer_, nullptr);
      vkDestroyRenderPass(device_, pass_, nullptr);
    }
    UseAfterFreeResourcesTest::TearDown();
  }
  // Records a render pass instance that clears the target.
  void RecordInstance(VkCommandBuffer cb) const {
    VkClearValue clear{};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass_;
    begin.framebuffer = framebuffer_;
    begin.renderArea = {{0, 0}, {16, 16}};
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(cb);
  }
  ImageResource* target_ = nullptr;
  VkRenderPass pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

TEST_F(UseAfterFreeRenderPassTest, DestroyingThePendingRenderPassRaisesAFault) {
  ExpectFaultWhenDestroyedWhilePending([&](VkCommandBuffer cb) { RecordInstance(cb); },
                                       [&] {
                                         vkDestroyRenderPass(device_, pass_, nullptr);
                                         pass_ = VK_NULL_HANDLE;
                                       },
                                       {"use after free: write of render pass",
                                        "VUID-vkDestroyRenderPass-renderPass-00873", "(vkCmdBeginRenderPass)"});
}

TEST_F(UseAfterFreeRenderPassTest, DestroyingThePendingFramebufferRaisesAFault) {
  ExpectFaultWhenDestroyedWhilePending([&](VkCommandBuffer cb) { RecordInstance(cb); },
                                       [&] {
                                         vkDestroyFramebuffer(device_, framebuffer_, nullptr);
                                         framebuffer_ = VK_NULL_HANDLE;
                                       },
                                       {"use after free: write of framebuffer",
                                        "VUID-vkDestroyFramebuffer-framebuffer-00892", "(vkCmdBeginRenderPass)"});
}

// A second destruction of either is logged and ignored (a double free before).
TEST_F(UseAfterFreeRenderPassTest, DestroyingTwiceIsLoggedAndIgnored) {
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 2; ++i) {
    vkDestroyFramebuffer(device_, framebuffer_, nullptr);
    vkDestroyRenderPass(device_, pass_, nullptr);
  }
  framebuffer_ = VK_NULL_HANDLE;
  pass_ = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkDestroyFramebuffer-framebuffer-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkDestroyRenderPass-renderPass-parameter"), std::string::npos) << log;
}

}  // namespace
}  // namespace crashtest::test
