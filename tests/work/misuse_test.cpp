// Misuse the driver detects cheaply (issue 18): each broken valid-usage rule is logged with its VUID and answered
// with VK_ERROR_VALIDATION_FAILED_EXT — by the command itself when it returns a result, else by
// vkEndCommandBuffer — and never executes.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

class MisuseTest : public WorkTest {
 protected:
  // Records `record` into a fresh command buffer; returns vkEndCommandBuffer's result and the log in `log`.
  template <typename Record>
  VkResult RecordAndEnd(Record&& record, std::string* log) {
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    ::testing::internal::CaptureStderr();
    record(cb);
    const VkResult result = vkEndCommandBuffer(cb);
    *log = ::testing::internal::GetCapturedStderr();
    vkFreeCommandBuffers(device_, pools_[0], 1, &cb);
    return result;
  }
  VkFence CreateFence(bool signaled) {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (signaled) info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VkFence fence = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device_, &info, nullptr, &fence), VK_SUCCESS);
    return fence;
  }
  VkResult Submit(VkCommandBuffer cb, VkFence fence) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = cb != VK_NULL_HANDLE ? 1 : 0;
    submit.pCommandBuffers = &cb;
    return vkQueueSubmit(queues_[0].queue, 1, &submit, fence);
  }
  // A command buffer that waits on a host event, so its submission stays pending until the test sets it.
  VkCommandBuffer WaitingOn(VkEvent event, VkCommandBufferUsageFlags usage = 0) {
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb, usage);
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr,
                    0, nullptr);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    return cb;
  }
  VkEvent CreateEvent() {
    VkEventCreateInfo info{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateEvent(device_, &info, nullptr, &event), VK_SUCCESS);
    return event;
  }
};

TEST_F(MisuseTest, FillBufferRules) {
  HostBuffer* target = CreateHostBuffer(256);
  HostBuffer* sourceOnly = CreateHostBuffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memset(target->mapped, 0, 256);
  const struct {
    VkBuffer buffer;
    VkDeviceSize offset, size;
    const char* vuid;
  } cases[] = {{target->buffer, 2, 16, "VUID-vkCmdFillBuffer-dstOffset-00025"},
               {target->buffer, 0, 0, "VUID-vkCmdFillBuffer-size-00026"},
               {target->buffer, 0, 6, "VUID-vkCmdFillBuffer-size-00028"},
               {sourceOnly->buffer, 0, 16, "VUID-vkCmdFillBuffer-dstBuffer-00029"}};
  for (const auto& c : cases) {
    std::string log;
    EXPECT_EQ(RecordAndEnd([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, c.buffer, c.offset, c.size, 0xffffffff); },
                           &log),
              VK_ERROR_VALIDATION_FAILED_EXT)
        << c.vuid;
    EXPECT_NE(log.find(c.vuid), std::string::npos) << log;
  }
  std::string log;
  EXPECT_EQ(RecordAndEnd([&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, target->buffer, 4, VK_WHOLE_SIZE, 1); }, &log),
            VK_SUCCESS)
      << log;
}

TEST_F(MisuseTest, CopyAndUpdateBufferRules) {
  HostBuffer* a = CreateHostBuffer(256);
  HostBuffer* b = CreateHostBuffer(256);
  HostBuffer* storageOnly = CreateHostBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const VkBufferCopy empty{0, 0, 0};
  const VkBufferCopy overlapping{0, 8, 16};
  const VkBufferCopy fine{0, 0, 16};
  const uint32_t words[3] = {1, 2, 3};
  const struct {
    std::function<void(VkCommandBuffer)> record;
    const char* vuid;
  } cases[] = {
      {[&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, a->buffer, b->buffer, 1, &empty); }, "VUID-VkBufferCopy-size-01988"},
      {[&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, a->buffer, a->buffer, 1, &overlapping); },
       "VUID-vkCmdCopyBuffer-pRegions-00117"},
      {[&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, storageOnly->buffer, b->buffer, 1, &fine); },
       "VUID-vkCmdCopyBuffer-srcBuffer-00118"},
      {[&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, a->buffer, storageOnly->buffer, 1, &fine); },
       "VUID-vkCmdCopyBuffer-dstBuffer-00120"},
      {[&](VkCommandBuffer cb) { vkCmdUpdateBuffer(cb, b->buffer, 2, 4, words); },
       "VUID-vkCmdUpdateBuffer-dstOffset-00036"},
      {[&](VkCommandBuffer cb) { vkCmdUpdateBuffer(cb, b->buffer, 0, 6, words); },
       "VUID-vkCmdUpdateBuffer-dataSize-00037, -00038"},
  };
  for (const auto& c : cases) {
    std::string log;
    EXPECT_EQ(RecordAndEnd(c.record, &log), VK_ERROR_VALIDATION_FAILED_EXT) << c.vuid;
    EXPECT_NE(log.find(c.vuid), std::string::npos) << log;
  }
  // Disjoint ranges of one buffer are fine.
  const VkBufferCopy disjoint{0, 64, 64};
  std::string log;
  EXPECT_EQ(RecordAndEnd([&](VkCommandBuffer cb) { vkCmdCopyBuffer(cb, a->buffer, a->buffer, 1, &disjoint); }, &log),
            VK_SUCCESS)
      << log;
}

// A fence that is signalled, or that a submission still holds, cannot be submitted or reset.
TEST_F(MisuseTest, FenceRules) {
  VkFence signaled = CreateFence(true);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Submit(VK_NULL_HANDLE, signaled), VK_ERROR_VALIDATION_FAILED_EXT);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkQueueSubmit-fence-00063"), std::string::npos) << log;

  VkEvent event = CreateEvent();
  VkCommandBuffer waiting = WaitingOn(event);
  VkFence pending = CreateFence(false);
  ASSERT_EQ(Submit(waiting, pending), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(vkResetFences(device_, 1, &pending), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(Submit(VK_NULL_HANDLE, pending), VK_ERROR_VALIDATION_FAILED_EXT);
  log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkResetFences-pFences-01123"), std::string::npos) << log;
  EXPECT_NE(log.find("VUID-vkQueueSubmit-fence-00064"), std::string::npos) << log;
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  // The refused reset left the fence alone: its submission signals it.
  EXPECT_EQ(vkWaitForFences(device_, 1, &pending, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(vkResetFences(device_, 1, &pending), VK_SUCCESS);
  EXPECT_EQ(vkResetFences(device_, 1, &signaled), VK_SUCCESS);
  EXPECT_EQ(Submit(VK_NULL_HANDLE, signaled), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &signaled, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
  vkDestroyFence(device_, signaled, nullptr);
  vkDestroyFence(device_, pending, nullptr);
  vkDestroyEvent(device_, event, nullptr);
}

// A pending command buffer is submitted again only if it was recorded with SIMULTANEOUS_USE.
TEST_F(MisuseTest, ResubmittingAPendingCommandBufferNeedsSimultaneousUse) {
  VkEvent event = CreateEvent();
  VkCommandBuffer once = WaitingOn(event);
  VkCommandBuffer simultaneous = WaitingOn(event, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  ASSERT_EQ(Submit(once, VK_NULL_HANDLE), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Submit(once, VK_NULL_HANDLE), VK_ERROR_VALIDATION_FAILED_EXT);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkQueueSubmit-pCommandBuffers-00071"), std::string::npos) << log;
  EXPECT_EQ(Submit(simultaneous, VK_NULL_HANDLE), VK_SUCCESS);
  EXPECT_EQ(Submit(simultaneous, VK_NULL_HANDLE), VK_SUCCESS);
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  ASSERT_EQ(vkQueueWaitIdle(queues_[0].queue), VK_SUCCESS);
  // Completed: it may be submitted again.
  EXPECT_EQ(Submit(once, VK_NULL_HANDLE), VK_SUCCESS);
  ASSERT_EQ(vkQueueWaitIdle(queues_[0].queue), VK_SUCCESS);
  vkDestroyEvent(device_, event, nullptr);
}

// A dispatch with no compute pipeline bound (VUID-vkCmdDispatch-None-02700) is logged with the VUID when the queue
// reaches it and skipped; the rest of the submission runs and the fence signals (it read a null pipeline before).
TEST_F(MisuseTest, DispatchingWithoutABoundPipelineIsLoggedAndSkipped) {
  HostBuffer* target = CreateHostBuffer(256);
  std::memset(target->mapped, 0, 256);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb);
  vkCmdDispatch(cb, 1, 1, 1);
  vkCmdFillBuffer(cb, target->buffer, 0, 256, 0x01020304u);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFence fence = CreateFence(false);
  ::testing::internal::CaptureStderr();
  ASSERT_EQ(Submit(cb, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkCmdDispatch-None-02700"), std::string::npos) << log;
  EXPECT_EQ(target->At<uint32_t>(252), 0x01020304u) << "the commands after the dispatch ran";
  vkDestroyFence(device_, fence, nullptr);
}

// Freeing or resetting a command buffer while its submission is pending (VUID-vkFreeCommandBuffers-pCommandBuffers-
// 00047, VUID-vkResetCommandPool-commandPool-00040) is logged with the VUID; the submission holds the stream
// (docs/execution.md, "Command buffer lifetime"), so the work completes as recorded and no freed memory is read.
TEST_F(MisuseTest, FreeingOrResettingAPendingCommandBufferIsLoggedAndTheWorkCompletes) {
  for (const bool free : {true, false}) {
    HostBuffer* target = CreateHostBuffer(256);
    std::memset(target->mapped, 0, 256);
    VkEvent event = CreateEvent();
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb);
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr,
                    0, nullptr);
    vkCmdFillBuffer(cb, target->buffer, 0, 256, 0x0a0b0c0du);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkFence fence = CreateFence(false);
    ASSERT_EQ(Submit(cb, fence), VK_SUCCESS);
    ::testing::internal::CaptureStderr();
    if (free)
      vkFreeCommandBuffers(device_, pools_[0], 1, &cb);
    else
      ASSERT_EQ(vkResetCommandPool(device_, pools_[0], VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT), VK_SUCCESS);
    const std::string log = ::testing::internal::GetCapturedStderr();
    const char* vuid =
        free ? "VUID-vkFreeCommandBuffers-pCommandBuffers-00047" : "VUID-vkResetCommandPool-commandPool-00040";
    EXPECT_NE(log.find(vuid), std::string::npos) << log;
    ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
    EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
    EXPECT_EQ(target->At<uint32_t>(252), 0x0a0b0c0du) << (free ? "free" : "reset");
    if (!free) vkFreeCommandBuffers(device_, pools_[0], 1, &cb);
    vkDestroyFence(device_, fence, nullptr);
    vkDestroyEvent(device_, event, nullptr);
  }
}

// Command pools and their buffers: a second vkFreeCommandBuffers of a buffer or vkDestroyCommandPool of a pool is
// logged and ignored (a double free before), and a destroyed pool is an error for every command that names it,
// without reading its freed memory.
TEST_F(MisuseTest, StaleCommandPoolsAndBuffers) {
  VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  info.queueFamilyIndex = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateCommandPool(device_, &info, nullptr, &pool), VK_SUCCESS);
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2};
  VkCommandBuffer buffers[2] = {};
  ASSERT_EQ(vkAllocateCommandBuffers(device_, &allocate, buffers), VK_SUCCESS);
  ::testing::internal::CaptureStderr();
  vkFreeCommandBuffers(device_, pool, 1, &buffers[0]);
  vkFreeCommandBuffers(device_, pool, 1, &buffers[0]);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkFreeCommandBuffers-pCommandBuffers-00048"), std::string::npos) << log;

  vkDestroyCommandPool(device_, pool, nullptr);  // frees buffers[1] with it
  ::testing::internal::CaptureStderr();
  vkDestroyCommandPool(device_, pool, nullptr);
  vkFreeCommandBuffers(device_, pool, 1, &buffers[1]);
  vkTrimCommandPool(device_, pool, 0);
  EXPECT_EQ(vkResetCommandPool(device_, pool, 0), VK_ERROR_VALIDATION_FAILED_EXT);
  VkCommandBuffer fresh = reinterpret_cast<VkCommandBuffer>(uintptr_t{0x1234});
  allocate.commandBufferCount = 1;
  EXPECT_EQ(vkAllocateCommandBuffers(device_, &allocate, &fresh), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(fresh, VK_NULL_HANDLE);
  log = ::testing::internal::GetCapturedStderr();
  for (const char* vuid : {"VUID-vkDestroyCommandPool-commandPool-parameter",
                           "VUID-vkFreeCommandBuffers-commandPool-parameter",
                           "VUID-vkTrimCommandPool-commandPool-parameter",
                           "VUID-vkResetCommandPool-commandPool-parameter",
                           "VUID-VkCommandBufferAllocateInfo-commandPool-parameter"})
    EXPECT_NE(log.find(vuid), std::string::npos) << vuid << "\n" << log;
}

}  // namespace
}  // namespace crashtest::test
