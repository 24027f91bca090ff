// The present modes and acquire timeouts on a virtual display of 1 Hz (data/slow_refresh.json), so every
// expectation holds with a margin of a second, and FIFO's pacing at 50 Hz (a lower bound only: a slow machine can
// only make it slower).
#include <chrono>

#include "wsi_env.h"

namespace crashtest::test {
namespace {

class SlowDisplay : public WsiTest {
 protected:
  const char* ConfigFile() const override { return "slow_refresh.json"; }

  uint32_t Acquire(VkSwapchainKHR swapchain, uint64_t timeout = 0, VkResult expected = VK_SUCCESS) {
    uint32_t index = UINT32_MAX;
    EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, timeout, VK_NULL_HANDLE, VK_NULL_HANDLE, &index), expected);
    return index;
  }
};

TEST_F(SlowDisplay, ImmediateGivesTheReplacedImageBackAtOnce) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_IMMEDIATE_KHR, 2);
  uint32_t a = Acquire(swapchain);
  uint32_t b = Acquire(swapchain);
  ASSERT_NE(a, b);
  Acquire(swapchain, 0, VK_NOT_READY);  // both acquired
  ASSERT_EQ(Present(swapchain, a), VK_SUCCESS);
  ASSERT_EQ(Present(swapchain, b), VK_SUCCESS);  // replaces a on screen at once
  EXPECT_EQ(Acquire(swapchain), a);
}

TEST_F(SlowDisplay, FifoKeepsTheImageUntilTheNextBlank) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  uint32_t a = Acquire(swapchain);
  uint32_t b = Acquire(swapchain);
  ASSERT_EQ(Present(swapchain, a), VK_SUCCESS);
  ASSERT_EQ(Present(swapchain, b), VK_SUCCESS);  // b is shown one blank after a: a is busy until then
  Acquire(swapchain, 0, VK_NOT_READY);
  Acquire(swapchain, 1000000, VK_TIMEOUT);  // 1 ms
}

TEST_F(SlowDisplay, FifoRelaxedWaitsLikeFifoWhenOnTime) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_RELAXED_KHR, 2);
  uint32_t a = Acquire(swapchain);
  uint32_t b = Acquire(swapchain);
  ASSERT_EQ(Present(swapchain, a), VK_SUCCESS);
  ASSERT_EQ(Present(swapchain, b), VK_SUCCESS);
  Acquire(swapchain, 0, VK_NOT_READY);
}

TEST_F(SlowDisplay, MailboxReplacesThePendingImage) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_MAILBOX_KHR, 3);
  uint32_t a = Acquire(swapchain);
  uint32_t b = Acquire(swapchain);
  ASSERT_EQ(Present(swapchain, a), VK_SUCCESS);  // pending until the next blank
  ASSERT_EQ(Present(swapchain, b), VK_SUCCESS);  // replaces a before it was shown: a is free now
  uint32_t c = Acquire(swapchain);               // the third image, never used
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_EQ(Acquire(swapchain), a);
}

TEST_F(SlowDisplay, AcquireSignalsTheSemaphoreAndFence) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence), VK_SUCCESS);
  VkSemaphoreCreateInfo semaphoreInfo{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore semaphore = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSemaphore(device_, &semaphoreInfo, nullptr, &semaphore), VK_SUCCESS);
  uint32_t index = 0;
  ASSERT_EQ(vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, semaphore, fence, &index), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_SUCCESS);
  // The semaphore is signalled: a submission waiting on it completes.
  VkFence done = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &done), VK_SUCCESS);
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &semaphore;
  submit.pWaitDstStageMask = &stage;
  ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, done), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &done, VK_TRUE, 5000000000ull), VK_SUCCESS);
  vkDestroyFence(device_, done, nullptr);
  vkDestroyFence(device_, fence, nullptr);
  vkDestroySemaphore(device_, semaphore, nullptr);
}

TEST_F(SlowDisplay, AnInfiniteWaitThatCannotEndIsRefused) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  Acquire(swapchain);
  Acquire(swapchain);
  Acquire(swapchain, UINT64_MAX, VK_ERROR_VALIDATION_FAILED_EXT);
}

TEST_F(SlowDisplay, PresentingAnImageNotAcquiredIsRefused) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  EXPECT_EQ(Present(swapchain, 0), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(Present(swapchain, 7), VK_ERROR_VALIDATION_FAILED_EXT);
}

TEST_F(SlowDisplay, ARetiredSwapchainIsOutOfDate) {
  VkSwapchainKHR old = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  uint32_t acquired = Acquire(old);
  VkSwapchainCreateInfoKHR info = SwapchainInfo(VK_PRESENT_MODE_FIFO_KHR, 2);
  info.oldSwapchain = old;
  VkSwapchainKHR fresh = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &fresh), VK_SUCCESS);
  swapchains_.push_back(fresh);
  Acquire(old, 0, VK_ERROR_OUT_OF_DATE_KHR);
  // An image acquired before retirement may still be presented.
  EXPECT_EQ(Present(old, acquired), VK_SUCCESS);
  Acquire(fresh);
}

class Display50Hz : public WsiTest {
 protected:
  const char* ConfigFile() const override { return "refresh_50hz.json"; }
};

TEST_F(Display50Hz, FifoPacesPresentsToTheRefreshRate) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  const auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < 8; ++frame) {
    uint32_t index = 0;
    ASSERT_EQ(vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
              VK_SUCCESS);
    ASSERT_EQ(Present(swapchain, index), VK_SUCCESS);
  }
  // Eight presents are shown on eight successive blanks, 20 ms apart; the eighth acquire waited for the sixth
  // frame's replacement, shown at least 5 blanks after the first.
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
}

}  // namespace
}  // namespace crashtest::test
