// The submit fast path's edges (issue 21, docs/execution.md "Threads"): an idle queue runs a submission with
// nothing to wait for before vkQueueSubmit returns; a submission that waits for a semaphore signalled later (by
// another queue or the host, binary or timeline), one behind such a submission on the same queue, and one whose
// command buffers may block (vkCmdWaitEvents, also in a secondary) go to the queue's worker, so vkQueueSubmit
// returns before they run. Had any of those run on the submitting thread, the submit would block on a signal that
// only comes after it returns, and the test would hang instead of passing.
#include "work_test_env.h"

namespace crashtest::test {
namespace {

class InlineSubmitTest : public WorkTest {
 protected:
  VkFence Fence() {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device_, &info, nullptr, &fence), VK_SUCCESS);
    fences_.push_back(fence);
    return fence;
  }
  VkSemaphore Semaphore(VkSemaphoreType type) {
    VkSemaphoreTypeCreateInfo typeInfo{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    typeInfo.semaphoreType = type;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    if (type == VK_SEMAPHORE_TYPE_TIMELINE) info.pNext = &typeInfo;
    VkSemaphore semaphore = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device_, &info, nullptr, &semaphore), VK_SUCCESS);
    semaphores_.push_back(semaphore);
    return semaphore;
  }
  // A command buffer of `family` filling `size` bytes of `buffer` at `offset` with `value`.
  VkCommandBuffer Fill(uint32_t family, const HostBuffer* buffer, VkDeviceSize offset, VkDeviceSize size,
                       uint32_t value) {
    VkCommandBuffer commandBuffer = AllocateCommandBuffer(family);
    Begin(commandBuffer);
    vkCmdFillBuffer(commandBuffer, buffer->buffer, offset, size, value);
    EXPECT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
    return commandBuffer;
  }
  // One batch: waits on `wait` (if any) at `waitValue`, runs `commandBuffer` (if any), signals `signal` (if any)
  // with `signalValue`.
  VkResult Submit(VkQueue queue, VkCommandBuffer commandBuffer, VkFence fence, VkSemaphore wait = VK_NULL_HANDLE,
                  uint64_t waitValue = 0, VkSemaphore signal = VK_NULL_HANDLE, uint64_t signalValue = 0) {
    VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    values.waitSemaphoreValueCount = wait != VK_NULL_HANDLE ? 1 : 0;
    values.pWaitSemaphoreValues = &waitValue;
    values.signalSemaphoreValueCount = signal != VK_NULL_HANDLE ? 1 : 0;
    values.pSignalSemaphoreValues = &signalValue;
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO, &values};
    info.waitSemaphoreCount = values.waitSemaphoreValueCount;
    info.pWaitSemaphores = &wait;
    info.pWaitDstStageMask = &stage;
    info.commandBufferCount = commandBuffer != VK_NULL_HANDLE ? 1 : 0;
    info.pCommandBuffers = &commandBuffer;
    info.signalSemaphoreCount = values.signalSemaphoreValueCount;
    info.pSignalSemaphores = &signal;
    return vkQueueSubmit(queue, 1, &info, fence);
  }
  VkResult WaitFence(VkFence fence) { return vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull); }

  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (VkFence fence : fences_) vkDestroyFence(device_, fence, nullptr);
      for (VkSemaphore semaphore : semaphores_) vkDestroySemaphore(device_, semaphore, nullptr);
    }
    WorkTest::TearDown();
  }

  std::vector<VkFence> fences_;
  std::vector<VkSemaphore> semaphores_;
};

TEST_F(InlineSubmitTest, IdleQueueHasRunTheSubmissionWhenSubmitReturns) {
  HostBuffer* target = CreateHostBuffer(16);
  VkCommandBuffer fill = Fill(queues_[0].family, target, 0, 16, 0x5a5a5a5a);
  for (int round = 0; round < 3; ++round) {
    VkFence fence = Fence();
    ASSERT_EQ(Submit(queues_[0].queue, fill, fence), VK_SUCCESS);
    // The fast path: no hand-off, so the fence is already signalled and the fill done.
    EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_SUCCESS) << "round " << round;
    EXPECT_EQ(target->At<uint32_t>(12), 0x5a5a5a5au);
    EXPECT_EQ(vkQueueWaitIdle(queues_[0].queue), VK_SUCCESS);
  }
}

TEST_F(InlineSubmitTest, WaitOnABinarySemaphoreSignalledLaterByAnotherQueue) {
  ASSERT_GE(queues_.size(), 2u);
  HostBuffer* target = CreateHostBuffer(16);
  const QueueRef& waiter = queues_[0];
  const QueueRef& signaller = queues_[1];
  VkSemaphore semaphore = Semaphore(VK_SEMAPHORE_TYPE_BINARY);
  VkCommandBuffer second = Fill(waiter.family, target, 0, 8, 0x22222222);
  VkCommandBuffer first = Fill(signaller.family, target, 0, 16, 0x11111111);
  VkFence waited = Fence();
  ASSERT_EQ(Submit(waiter.queue, second, waited, semaphore), VK_SUCCESS) << "returns before the signal exists";
  EXPECT_EQ(vkGetFenceStatus(device_, waited), VK_NOT_READY);
  EXPECT_EQ(target->At<uint32_t>(0), 0u) << "nothing ran before the signal";
  ASSERT_EQ(Submit(signaller.queue, first, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, semaphore), VK_SUCCESS);
  ASSERT_EQ(WaitFence(waited), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x22222222u) << "the waiting submission ran after the signalling one";
  EXPECT_EQ(target->At<uint32_t>(12), 0x11111111u);
}

TEST_F(InlineSubmitTest, WaitOnATimelineValueTheHostSignalsLater) {
  if (!timelineSupported()) GTEST_SKIP() << "no timeline semaphores";
  auto signalSemaphore = reinterpret_cast<PFN_vkSignalSemaphore>(DeviceCommand("vkSignalSemaphore"));
  HostBuffer* target = CreateHostBuffer(16);
  VkSemaphore timeline = Semaphore(VK_SEMAPHORE_TYPE_TIMELINE);
  VkCommandBuffer fill = Fill(queues_[0].family, target, 0, 16, 0x33333333);
  VkFence fence = Fence();
  ASSERT_EQ(Submit(queues_[0].queue, fill, fence, timeline, 1), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_NOT_READY);
  EXPECT_EQ(target->At<uint32_t>(0), 0u);
  VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  signal.semaphore = timeline;
  signal.value = 1;
  ASSERT_EQ(signalSemaphore(device_, &signal), VK_SUCCESS);
  ASSERT_EQ(WaitFence(fence), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x33333333u);

  // Already reached: the next submission waiting on it has nothing to wait for and runs before submit returns.
  VkFence again = Fence();
  ASSERT_EQ(Submit(queues_[0].queue, fill, again, timeline, 1), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, again), VK_SUCCESS);
}

TEST_F(InlineSubmitTest, TimelineWaitBeforeSignalKeepsTheQueueBusyForLaterSubmissions) {
  if (!timelineSupported()) GTEST_SKIP() << "no timeline semaphores";
  ASSERT_GE(queues_.size(), 2u);
  HostBuffer* target = CreateHostBuffer(16);
  const QueueRef& waiter = queues_[0];
  const QueueRef& signaller = queues_[1];
  VkSemaphore timeline = Semaphore(VK_SEMAPHORE_TYPE_TIMELINE);
  VkCommandBuffer waiting = Fill(waiter.family, target, 0, 4, 0x44444444);
  VkCommandBuffer behind = Fill(waiter.family, target, 4, 4, 0x55555555);
  VkCommandBuffer signalling = Fill(signaller.family, target, 8, 4, 0x66666666);
  VkFence waitingFence = Fence(), behindFence = Fence(), signallingFence = Fence();
  // Wait for 2 before anything signals it.
  ASSERT_EQ(Submit(waiter.queue, waiting, waitingFence, timeline, 2), VK_SUCCESS);
  // Nothing to wait for, but the queue is not idle: it must run after the waiting one, so not before submit
  // returns.
  ASSERT_EQ(Submit(waiter.queue, behind, behindFence), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, behindFence), VK_NOT_READY) << "ran ahead of an earlier submission";
  EXPECT_EQ(target->At<uint32_t>(4), 0u);
  ASSERT_EQ(Submit(signaller.queue, signalling, signallingFence, VK_NULL_HANDLE, 0, timeline, 2), VK_SUCCESS);
  ASSERT_EQ(WaitFence(behindFence), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, waitingFence), VK_SUCCESS) << "in order: the earlier one completed first";
  EXPECT_EQ(target->At<uint32_t>(0), 0x44444444u);
  EXPECT_EQ(target->At<uint32_t>(4), 0x55555555u);
  EXPECT_EQ(target->At<uint32_t>(8), 0x66666666u);
}

TEST_F(InlineSubmitTest, WaitEventsInASecondaryKeepsTheSubmissionOffTheSubmittingThread) {
  HostBuffer* target = CreateHostBuffer(16);
  VkEventCreateInfo eventInfo{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateEvent(device_, &eventInfo, nullptr, &event), VK_SUCCESS);
  VkCommandBuffer secondary = AllocateCommandBuffer(queues_[0].family, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.pInheritanceInfo = &inheritance;
  ASSERT_EQ(vkBeginCommandBuffer(secondary, &begin), VK_SUCCESS);
  vkCmdWaitEvents(secondary, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0,
                  nullptr, 0, nullptr);
  vkCmdFillBuffer(secondary, target->buffer, 0, 16, 0x77777777);
  ASSERT_EQ(vkEndCommandBuffer(secondary), VK_SUCCESS);
  VkCommandBuffer primary = AllocateCommandBuffer(queues_[0].family);
  Begin(primary);
  vkCmdExecuteCommands(primary, 1, &secondary);
  ASSERT_EQ(vkEndCommandBuffer(primary), VK_SUCCESS);

  VkFence fence = Fence();
  ASSERT_EQ(Submit(queues_[0].queue, primary, fence), VK_SUCCESS) << "returns before the host sets the event";
  EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_NOT_READY);
  EXPECT_EQ(target->At<uint32_t>(0), 0u);
  ASSERT_EQ(vkSetEvent(device_, event), VK_SUCCESS);
  ASSERT_EQ(WaitFence(fence), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x77777777u);
  vkDestroyEvent(device_, event, nullptr);
}

TEST_F(InlineSubmitTest, SignalsOfAnInlineSubmissionReleaseAnotherQueue) {
  ASSERT_GE(queues_.size(), 2u);
  HostBuffer* target = CreateHostBuffer(16);
  VkSemaphore semaphore = Semaphore(VK_SEMAPHORE_TYPE_BINARY);
  VkCommandBuffer first = Fill(queues_[0].family, target, 0, 16, 0x88888888);
  VkCommandBuffer second = Fill(queues_[1].family, target, 0, 4, 0x99999999);
  VkFence firstFence = Fence(), secondFence = Fence();
  ASSERT_EQ(Submit(queues_[0].queue, first, firstFence, VK_NULL_HANDLE, 0, semaphore), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, firstFence), VK_SUCCESS) << "idle queue, nothing to wait for: ran inline";
  // Its wait is satisfied already: it consumes the signal and runs at once too.
  ASSERT_EQ(Submit(queues_[1].queue, second, secondFence, semaphore), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, secondFence), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x99999999u);
  EXPECT_EQ(target->At<uint32_t>(4), 0x88888888u);
  // The payload was consumed: a third wait on it must wait for a new signal.
  VkFence third = Fence();
  ASSERT_EQ(Submit(queues_[1].queue, VK_NULL_HANDLE, third, semaphore), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, third), VK_NOT_READY) << "a binary signal is consumed by one wait";
  ASSERT_EQ(Submit(queues_[0].queue, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, semaphore), VK_SUCCESS);
  EXPECT_EQ(WaitFence(third), VK_SUCCESS);
}

}  // namespace
}  // namespace crashtest::test
