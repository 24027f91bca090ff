// Destroying what pending work uses, and destroying twice (issue 18). A GPU answers a use after free with a page
// fault, not a crashed process: crashtest keeps the storage until the work is done, logs the VUID and raises a
// device fault (READ_INVALID / WRITE_INVALID at the buffer's address) when the work touches the destroyed object.
// A second destruction of the same handle is logged and ignored.
#include <string>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

constexpr uint64_t kTenSeconds = 10'000'000'000ull;

class UseAfterFreeTest : public WorkTest {
 protected:
  VkEvent CreateEvent() {
    VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateEvent(device_, &info, nullptr, &event), VK_SUCCESS);
    return event;
  }
  VkFence CreateFence() {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device_, &info, nullptr, &fence), VK_SUCCESS);
    return fence;
  }
  // Submits a copy of `size` bytes from `src` to `dst`, after a wait on `event` when it is given (the submission
  // then stays pending until the test sets it).
  VkResult SubmitCopy(VkEvent event, VkBuffer src, VkBuffer dst, VkDeviceSize size, VkFence fence) {
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    if (event != VK_NULL_HANDLE)
      vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
                      nullptr, 0, nullptr);
    VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cb, src, dst, 1, &region);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    return vkQueueSubmit(queues_[0].queue, 1, &submit, fence);
  }
};

// The source buffer of a pending copy is destroyed: the copy faults (a read of a destroyed buffer).
TEST_F(UseAfterFreeTest, DestroyingTheSourceOfAPendingCopyRaisesAReadFault) {
  HostBuffer* src = CreateHostBuffer(4096);
  HostBuffer* dst = CreateHostBuffer(4096);
  VkEvent event = CreateEvent();
  VkFence fence = CreateFence();
  ASSERT_EQ(SubmitCopy(event, src->buffer, dst->buffer, 4096, fence), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyBuffer(device_, src->buffer, nullptr);
  src->buffer = VK_NULL_HANDLE;
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kTenSeconds), VK_ERROR_DEVICE_LOST);
  vkDeviceWaitIdle(device_);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("use after free: read of buffer"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkDestroyBuffer-buffer-00922"), std::string::npos) << log;
  vkDestroyFence(device_, fence, nullptr);
  vkDestroyEvent(device_, event, nullptr);
}

// The memory under the destination of a pending copy is freed (its storage unmapped: SIGSEGV in the copy before).
TEST_F(UseAfterFreeTest, FreeingTheMemoryUnderAPendingCopyRaisesAWriteFault) {
  HostBuffer* src = CreateHostBuffer(1 << 20);
  HostBuffer* dst = CreateHostBuffer(1 << 20);
  VkEvent event = CreateEvent();
  VkFence fence = CreateFence();
  ASSERT_EQ(SubmitCopy(event, src->buffer, dst->buffer, 1 << 20, fence), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkFreeMemory(device_, dst->memory, nullptr);
  dst->memory = VK_NULL_HANDLE;
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kTenSeconds), VK_ERROR_DEVICE_LOST);
  vkDeviceWaitIdle(device_);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("use after free: write of buffer"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkFreeMemory-memory-00677"), std::string::npos) << log;
  vkDestroyFence(device_, fence, nullptr);
  vkDestroyEvent(device_, event, nullptr);
}

// A buffer whose memory was freed before the work was even submitted.
TEST_F(UseAfterFreeTest, CopyingFromABufferWhoseMemoryWasFreedRaisesAFault) {
  HostBuffer* src = CreateHostBuffer(1 << 20);
  HostBuffer* dst = CreateHostBuffer(1 << 20);
  vkFreeMemory(device_, src->memory, nullptr);
  src->memory = VK_NULL_HANDLE;
  VkFence fence = CreateFence();
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(SubmitCopy(VK_NULL_HANDLE, src->buffer, dst->buffer, 1 << 20, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kTenSeconds), VK_ERROR_DEVICE_LOST);
  vkDeviceWaitIdle(device_);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("use after free: read of buffer"), std::string::npos) << log;
  vkDestroyFence(device_, fence, nullptr);
}

// A fence destroyed while its submission is pending: logged; the queue signals it safely later.
TEST_F(UseAfterFreeTest, DestroyingAPendingFenceIsLogged) {
  VkEvent event = CreateEvent();
  VkFence fence = CreateFence();
  HostBuffer* src = CreateHostBuffer(256);
  HostBuffer* dst = CreateHostBuffer(256);
  ASSERT_EQ(SubmitCopy(event, src->buffer, dst->buffer, 256, fence), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkDestroyFence(device_, fence, nullptr);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkDestroyFence-fence-01120"), std::string::npos) << log;
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  EXPECT_EQ(vkQueueWaitIdle(queues_[0].queue), VK_SUCCESS);
  vkDestroyEvent(device_, event, nullptr);
}

// Destroying a fence, a buffer or a memory object twice (SIGABRT before: a double free).
TEST_F(UseAfterFreeTest, DoubleDestructionIsLoggedAndIgnored) {
  HostBuffer* host = CreateHostBuffer(256);
  VkFence fence = CreateFence();
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 2; ++i) {
    vkDestroyFence(device_, fence, nullptr);
    vkDestroyBuffer(device_, host->buffer, nullptr);
    vkFreeMemory(device_, host->memory, nullptr);
  }
  host->buffer = VK_NULL_HANDLE;
  host->memory = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkDestroyFence-fence-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkDestroyBuffer-buffer-parameter"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkFreeMemory-memory-parameter"), std::string::npos) << log;
  // The device still works.
  HostBuffer* a = CreateHostBuffer(256);
  HostBuffer* b = CreateHostBuffer(256);
  std::memset(a->mapped, 0x5a, 256);
  Run([&](VkCommandBuffer cb) {
    VkBufferCopy region{0, 0, 256};
    vkCmdCopyBuffer(cb, a->buffer, b->buffer, 1, &region);
  });
  EXPECT_EQ(b->At<uint8_t>(255), 0x5a);
}

}  // namespace
}  // namespace crashtest::test
