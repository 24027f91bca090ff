// Queue waits nobody satisfies (issue 18): after options.stuckWaitMs the queue logs an error naming the semaphore
// and the submission; with "stuckWaits": "lose" the device is then lost as by a GPU hang, so a CI job fails fast.
#include <gtest/gtest.h>

#include <string>

#include "fault_loader_fixture.h"

namespace crashtest::test {
namespace {

class StuckWaitTest : public FaultLoaderTest {
 protected:
  void StartWith(const std::string& options) {
    config_ = std::make_unique<TempConfig>(R"({"devices": ["builtin:default"], "options": )" + options + "}");
    instance_ = MakeInstance();
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    uint32_t count = 1;
    gpus_.resize(1);
    vkEnumeratePhysicalDevices(instance_, &count, gpus_.data());
    ASSERT_EQ(count, 1u);
  }
};

// A binary semaphore nobody signals: the device is lost instead of the fence wait blocking forever.
TEST_F(StuckWaitTest, AWaitNobodySignalsLosesTheDeviceWhenAsked) {
  StartWith(R"({"stuckWaitMs": 50, "stuckWaits": "lose"})");
  TestDevice d(gpus_[0]);
  VkSemaphore semaphore = d.Semaphore(false);
  VkFence fence = d.Fence();
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(d.Submit(0, fence, &semaphore), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_ERROR_DEVICE_LOST);
  vkDeviceWaitIdle(d.device);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("stuck wait: submission"), std::string::npos) << log;
  EXPECT_NE(log.find("has waited 50 ms for binary semaphore"), std::string::npos) << log;
  EXPECT_NE(log.find("the device is lost as by a GPU hang"), std::string::npos) << log;
  vkDestroyFence(d.device, fence, nullptr);
  vkDestroySemaphore(d.device, semaphore, nullptr);
}

// By default the error is logged and the queue goes on waiting: a late signal still completes the work.
TEST_F(StuckWaitTest, AStuckWaitIsLoggedAndALateSignalStillCompletesIt) {
  StartWith(R"({"stuckWaitMs": 20})");
  TestDevice d(gpus_[0]);
  if (!d.timeline) GTEST_SKIP() << "no timeline semaphores";
  VkSemaphore semaphore = d.Semaphore(true);
  VkFence fence = d.Fence();
  const uint64_t value = 7;
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = 1;
  timeline.pWaitSemaphoreValues = &value;
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &timeline};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &semaphore;
  submit.pWaitDstStageMask = &stage;
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(vkQueueSubmit(d.queues[0], 1, &submit, fence), VK_SUCCESS);
  // Far longer than stuckWaitMs: the report is written meanwhile; the wait goes on.
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, 3'000'000'000ull), VK_TIMEOUT);
  VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  signal.semaphore = semaphore;
  signal.value = value;
  ASSERT_EQ(vkSignalSemaphore(d.device, &signal), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(d.device, 1, &fence, VK_TRUE, UINT64_MAX), VK_SUCCESS);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("has waited 20 ms for timeline semaphore"), std::string::npos) << log;
  EXPECT_NE(log.find("to reach 7 (it is at 0)"), std::string::npos) << log;
  vkDestroyFence(d.device, fence, nullptr);
  vkDestroySemaphore(d.device, semaphore, nullptr);
}

}  // namespace
}  // namespace crashtest::test
