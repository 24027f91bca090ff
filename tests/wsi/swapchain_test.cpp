// Swapchains through the real loader on a headless surface: acquire and present with semaphores and fences,
// captured frames holding what was cleared, the present modes on a slow virtual display, timeouts, retirement.
#include <chrono>
#include <algorithm>
#include <filesystem>

#include "wsi_env.h"

namespace crashtest::test {
namespace {

// Clears swapchain images to a colour per frame and presents them, with the semaphores and fences a render loop
// uses.
class FrameLoop {
 public:
  FrameLoop(VkDevice device, VkQueue queue) : device_(device), queue_(queue) {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    EXPECT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &pool_), VK_SUCCESS);
    VkCommandBufferAllocateInfo allocInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocInfo.commandPool = pool_;
    allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocInfo.commandBufferCount = 1;
    EXPECT_EQ(vkAllocateCommandBuffers(device, &allocInfo, &commandBuffer_), VK_SUCCESS);
    VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    EXPECT_EQ(vkCreateSemaphore(device, &semaphoreInfo, nullptr, &acquired_), VK_SUCCESS);
    EXPECT_EQ(vkCreateSemaphore(device, &semaphoreInfo, nullptr, &rendered_), VK_SUCCESS);
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    EXPECT_EQ(vkCreateFence(device, &fenceInfo, nullptr, &acquireFence_), VK_SUCCESS);
    EXPECT_EQ(vkCreateFence(device, &fenceInfo, nullptr, &frameFence_), VK_SUCCESS);
  }
  ~FrameLoop() {
    vkDeviceWaitIdle(device_);
    vkDestroyFence(device_, acquireFence_, nullptr);
    vkDestroyFence(device_, frameFence_, nullptr);
    vkDestroySemaphore(device_, acquired_, nullptr);
    vkDestroySemaphore(device_, rendered_, nullptr);
    vkDestroyCommandPool(device_, pool_, nullptr);
  }

  // One frame: acquire (semaphore and fence), clear to `color`, submit waiting on the acquire semaphore, present
  // waiting on the render semaphore. Returns the present's result.
  VkResult Frame(VkSwapchainKHR swapchain, const std::vector<VkImage>& images, VkClearColorValue color) {
    uint32_t index = 0;
    VkResult acquire = vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, acquired_, acquireFence_, &index);
    if (acquire != VK_SUCCESS) return acquire;
    EXPECT_EQ(vkWaitForFences(device_, 1, &acquireFence_, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    EXPECT_EQ(vkResetFences(device_, 1, &acquireFence_), VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    EXPECT_EQ(vkBeginCommandBuffer(commandBuffer_, &begin), VK_SUCCESS);
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(commandBuffer_, images[index], VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
    EXPECT_EQ(vkEndCommandBuffer(commandBuffer_), VK_SUCCESS);
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &acquired_;
    submit.pWaitDstStageMask = &stage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer_;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered_;
    EXPECT_EQ(vkQueueSubmit(queue_, 1, &submit, frameFence_), VK_SUCCESS);
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &rendered_;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &index;
    VkResult result = VK_RESULT_MAX_ENUM;
    present.pResults = &result;
    VkResult overall = vkQueuePresentKHR(queue_, &present);
    EXPECT_EQ(overall, result);
    // The command buffer is reused next frame.
    EXPECT_EQ(vkWaitForFences(device_, 1, &frameFence_, VK_TRUE, UINT64_MAX), VK_SUCCESS);
    EXPECT_EQ(vkResetFences(device_, 1, &frameFence_), VK_SUCCESS);
    return overall;
  }

 private:
  VkDevice device_;
  VkQueue queue_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  VkSemaphore acquired_ = VK_NULL_HANDLE;
  VkSemaphore rendered_ = VK_NULL_HANDLE;
  VkFence acquireFence_ = VK_NULL_HANDLE;
  VkFence frameFence_ = VK_NULL_HANDLE;
};

std::vector<VkImage> Images(VkDevice device, VkSwapchainKHR swapchain) {
  uint32_t count = 0;
  vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr);
  std::vector<VkImage> images(count);
  vkGetSwapchainImagesKHR(device, swapchain, &count, images.data());
  return images;
}

class CapturedSwapchain : public WsiTest {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("crashtest-capture-" + std::to_string(getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
    env_ = std::make_unique<ScopedEnv>("CRASHTEST_CAPTURE_DIR", directory_.string());
    WsiTest::SetUp();
  }
  void TearDown() override {
    WsiTest::TearDown();
    std::filesystem::remove_all(directory_);
  }
  std::vector<std::filesystem::path> Captured() const {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::exists(directory_))
      for (const auto& entry : std::filesystem::directory_iterator(directory_)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
  }
  std::filesystem::path directory_;
  std::unique_ptr<ScopedEnv> env_;
};

TEST_F(CapturedSwapchain, HundredFramesAreAcquiredPresentedAndCaptured) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3, {16, 8});
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  const std::vector<VkImage> images = Images(device_, swapchain);
  {
    FrameLoop loop(device_, queue_);
    for (uint32_t frame = 1; frame <= 100; ++frame) {
      // Frame n is cleared to (n, 255 - n, 7) / 255 in RGB.
      VkClearColorValue color{{frame / 255.0f, (255 - frame) / 255.0f, 7 / 255.0f, 1.0f}};
      ASSERT_EQ(loop.Frame(swapchain, images, color), VK_SUCCESS) << "frame " << frame;
    }
  }
  const auto files = Captured();
  ASSERT_EQ(files.size(), 100u);
  for (uint32_t frame : {1u, 2u, 50u, 100u}) {
    const auto& path = files[frame - 1];
    EXPECT_NE(path.filename().string().find("frame" + std::string(frame < 10 ? "00000" : frame < 100 ? "0000" : "000") +
                                            std::to_string(frame)),
              std::string::npos)
        << path;
    PngPixels png;
    ASSERT_TRUE(ReadPng(path.string(), png)) << path;
    ASSERT_EQ(png.width, 16u);
    ASSERT_EQ(png.height, 8u);
    for (size_t p = 0; p < png.rgb.size(); p += 3) {
      ASSERT_EQ(png.rgb[p + 0], frame) << path << " texel " << p / 3;
      ASSERT_EQ(png.rgb[p + 1], 255 - frame);
      ASSERT_EQ(png.rgb[p + 2], 7);
    }
  }
}


}  // namespace
}  // namespace crashtest::test
