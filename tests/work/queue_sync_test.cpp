// Queues, fences and semaphores through the real loader: asynchronous in-order execution, fence status and
// timeouts, binary semaphores between queues, timeline semaphores with wait-before-signal, idle waits, and a
// multi-threaded submit stress test.
#include <chrono>
#include <thread>

#include "work_test_env.h"

namespace crashtest::test {
namespace {

using Clock = std::chrono::steady_clock;
using QueueSyncTest = WorkTest;

VkFence CreateFence(VkDevice device, bool signaled) {
  VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  info.flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0;
  VkFence fence = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateFence(device, &info, nullptr, &fence), VK_SUCCESS);
  return fence;
}

VkSemaphore CreateSemaphore(VkDevice device, VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY, uint64_t initial = 0) {
  VkSemaphoreTypeCreateInfo typeInfo{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  typeInfo.semaphoreType = type;
  typeInfo.initialValue = initial;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  if (type == VK_SEMAPHORE_TYPE_TIMELINE) info.pNext = &typeInfo;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSemaphore(device, &info, nullptr, &semaphore), VK_SUCCESS);
  return semaphore;
}

TEST_F(QueueSyncTest, FenceCreatedSignalledAndReset) {
  VkFence fence = CreateFence(device_, true);
  EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 0), VK_SUCCESS);
  ASSERT_EQ(vkResetFences(device_, 1, &fence), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, fence), VK_NOT_READY);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 0), VK_TIMEOUT);
  vkDestroyFence(device_, fence, nullptr);
}

TEST_F(QueueSyncTest, FenceWaitTimesOutAfterTheRequestedTime) {
  VkFence fences[2] = {CreateFence(device_, false), CreateFence(device_, false)};
  for (VkBool32 waitAll : {VK_TRUE, VK_FALSE}) {
    auto start = Clock::now();
    EXPECT_EQ(vkWaitForFences(device_, 2, fences, waitAll, 50'000'000), VK_TIMEOUT);
    EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(50));
  }
  vkDestroyFence(device_, fences[0], nullptr);
  vkDestroyFence(device_, fences[1], nullptr);
}

TEST_F(QueueSyncTest, EmptySubmitSignalsTheFenceAndWaitAnyReturnsForOne) {
  VkFence fences[2] = {CreateFence(device_, false), CreateFence(device_, false)};
  ASSERT_EQ(vkQueueSubmit(queues_[0].queue, 0, nullptr, fences[1]), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 2, fences, VK_FALSE, 5'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device_, fences[1]), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 2, fences, VK_TRUE, 1'000'000), VK_TIMEOUT);
  EXPECT_EQ(vkQueueWaitIdle(queues_[0].queue), VK_SUCCESS);
  EXPECT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);
  vkDestroyFence(device_, fences[0], nullptr);
  vkDestroyFence(device_, fences[1], nullptr);
}

// Work runs asynchronously: a submission waiting on a semaphore nobody has signalled yet does not block
// vkQueueSubmit, and runs once the other queue signals it.
TEST_F(QueueSyncTest, BinarySemaphoreOrdersTwoQueues) {
  ASSERT_GE(queues_.size(), 2u);
  HostBuffer* target = CreateHostBuffer(16);
  const QueueRef& first = queues_[0];
  const QueueRef& second = queues_[1];
  VkSemaphore semaphore = CreateSemaphore(device_);
  VkCommandBuffer write = AllocateCommandBuffer(first.family);
  Begin(write);
  vkCmdFillBuffer(write, target->buffer, 0, 16, 0x11111111);
  ASSERT_EQ(vkEndCommandBuffer(write), VK_SUCCESS);
  VkCommandBuffer overwrite = AllocateCommandBuffer(second.family);
  Begin(overwrite);
  vkCmdFillBuffer(overwrite, target->buffer, 0, 8, 0x22222222);
  ASSERT_EQ(vkEndCommandBuffer(overwrite), VK_SUCCESS);

  VkFence fence = CreateFence(device_, false);
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo waiting{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  waiting.waitSemaphoreCount = 1;
  waiting.pWaitSemaphores = &semaphore;
  waiting.pWaitDstStageMask = &stage;
  waiting.commandBufferCount = 1;
  waiting.pCommandBuffers = &overwrite;
  ASSERT_EQ(vkQueueSubmit(second.queue, 1, &waiting, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 20'000'000), VK_TIMEOUT);
  VkSubmitInfo signaling{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  signaling.commandBufferCount = 1;
  signaling.pCommandBuffers = &write;
  signaling.signalSemaphoreCount = 1;
  signaling.pSignalSemaphores = &semaphore;
  ASSERT_EQ(vkQueueSubmit(first.queue, 1, &signaling, VK_NULL_HANDLE), VK_SUCCESS);
  ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0x22222222u);
  EXPECT_EQ(target->At<uint32_t>(8), 0x11111111u);
  ASSERT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);
  vkDestroyFence(device_, fence, nullptr);
  vkDestroySemaphore(device_, semaphore, nullptr);
}

class TimelineTest : public WorkTest {
 protected:
  void SetUp() override {
    WorkTest::SetUp();
    if (HasFatalFailure()) return;
    if (!timelineSupported())
      FAIL() << "the device does not advertise timeline semaphores (Vulkan 1.2 or VK_KHR_timeline_semaphore) (the default device must offer it)";
    waitSemaphores_ = reinterpret_cast<PFN_vkWaitSemaphores>(DeviceCommand("vkWaitSemaphores"));
    signalSemaphore_ = reinterpret_cast<PFN_vkSignalSemaphore>(DeviceCommand("vkSignalSemaphore"));
    counterValue_ = reinterpret_cast<PFN_vkGetSemaphoreCounterValue>(DeviceCommand("vkGetSemaphoreCounterValue"));
  }
  uint64_t Value(VkSemaphore semaphore) {
    uint64_t value = 0;
    EXPECT_EQ(counterValue_(device_, semaphore, &value), VK_SUCCESS);
    return value;
  }
  VkResult Wait(VkSemaphore semaphore, uint64_t value, uint64_t timeout) {
    VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.semaphoreCount = 1;
    info.pSemaphores = &semaphore;
    info.pValues = &value;
    return waitSemaphores_(device_, &info, timeout);
  }
  PFN_vkWaitSemaphores waitSemaphores_ = nullptr;
  PFN_vkSignalSemaphore signalSemaphore_ = nullptr;
  PFN_vkGetSemaphoreCounterValue counterValue_ = nullptr;
};

TEST_F(TimelineTest, HostSignalWaitAndCounterValue) {
  VkSemaphore semaphore = CreateSemaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, 5);
  EXPECT_EQ(Value(semaphore), 5u);
  EXPECT_EQ(Wait(semaphore, 5, 0), VK_SUCCESS);
  auto start = Clock::now();
  EXPECT_EQ(Wait(semaphore, 6, 30'000'000), VK_TIMEOUT);
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(30));
  std::thread signaller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = semaphore;
    info.value = 9;
    EXPECT_EQ(signalSemaphore_(device_, &info), VK_SUCCESS);
  });
  EXPECT_EQ(Wait(semaphore, 8, 5'000'000'000ull), VK_SUCCESS);
  signaller.join();
  EXPECT_EQ(Value(semaphore), 9u);

  // Wait any: one of two reaching its value is enough.
  VkSemaphore other = CreateSemaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  VkSemaphore both[2] = {semaphore, other};
  uint64_t values[2] = {9, 1};
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
  info.semaphoreCount = 2;
  info.pSemaphores = both;
  info.pValues = values;
  EXPECT_EQ(waitSemaphores_(device_, &info, 0), VK_SUCCESS);
  info.flags = 0;
  EXPECT_EQ(waitSemaphores_(device_, &info, 1'000'000), VK_TIMEOUT);
  vkDestroySemaphore(device_, semaphore, nullptr);
  vkDestroySemaphore(device_, other, nullptr);
}

// Wait-before-signal across two queues: queue B waits for value 2 that queue A signals only after A itself waited
// for value 1 from the host.
TEST_F(TimelineTest, WaitBeforeSignalAcrossTwoQueues) {
  ASSERT_GE(queues_.size(), 2u);
  HostBuffer* target = CreateHostBuffer(16);
  VkSemaphore timeline = CreateSemaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  const QueueRef& a = queues_[0];
  const QueueRef& b = queues_[1];
  VkCommandBuffer first = AllocateCommandBuffer(a.family);
  Begin(first);
  vkCmdFillBuffer(first, target->buffer, 0, 16, 0xaaaaaaaa);
  ASSERT_EQ(vkEndCommandBuffer(first), VK_SUCCESS);
  VkCommandBuffer second = AllocateCommandBuffer(b.family);
  Begin(second);
  vkCmdFillBuffer(second, target->buffer, 0, 4, 0xbbbbbbbb);
  ASSERT_EQ(vkEndCommandBuffer(second), VK_SUCCESS);

  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  // B first: waits for 2, signals 3.
  uint64_t bWait = 2, bSignal = 3;
  VkTimelineSemaphoreSubmitInfo bValues{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  bValues.waitSemaphoreValueCount = 1;
  bValues.pWaitSemaphoreValues = &bWait;
  bValues.signalSemaphoreValueCount = 1;
  bValues.pSignalSemaphoreValues = &bSignal;
  VkSubmitInfo bSubmit{VK_STRUCTURE_TYPE_SUBMIT_INFO, &bValues};
  bSubmit.waitSemaphoreCount = 1;
  bSubmit.pWaitSemaphores = &timeline;
  bSubmit.pWaitDstStageMask = &stage;
  bSubmit.commandBufferCount = 1;
  bSubmit.pCommandBuffers = &second;
  bSubmit.signalSemaphoreCount = 1;
  bSubmit.pSignalSemaphores = &timeline;
  ASSERT_EQ(vkQueueSubmit(b.queue, 1, &bSubmit, VK_NULL_HANDLE), VK_SUCCESS);
  // Then A: waits for 1 (from the host), signals 2.
  uint64_t aWait = 1, aSignal = 2;
  VkTimelineSemaphoreSubmitInfo aValues{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  aValues.waitSemaphoreValueCount = 1;
  aValues.pWaitSemaphoreValues = &aWait;
  aValues.signalSemaphoreValueCount = 1;
  aValues.pSignalSemaphoreValues = &aSignal;
  VkSubmitInfo aSubmit = bSubmit;
  aSubmit.pNext = &aValues;
  aSubmit.pCommandBuffers = &first;
  ASSERT_EQ(vkQueueSubmit(a.queue, 1, &aSubmit, VK_NULL_HANDLE), VK_SUCCESS);

  EXPECT_EQ(Wait(timeline, 3, 20'000'000), VK_TIMEOUT);  // nothing can run before the host signals 1
  EXPECT_EQ(Value(timeline), 0u);
  VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  signal.semaphore = timeline;
  signal.value = 1;
  ASSERT_EQ(signalSemaphore_(device_, &signal), VK_SUCCESS);
  ASSERT_EQ(Wait(timeline, 3, 5'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(0), 0xbbbbbbbbu);  // B ran after A
  EXPECT_EQ(target->At<uint32_t>(4), 0xaaaaaaaau);
  ASSERT_EQ(vkDeviceWaitIdle(device_), VK_SUCCESS);
  vkDestroySemaphore(device_, timeline, nullptr);
}

TEST_F(TimelineTest, QueueSubmit2SignalsTimelineValues) {
  auto submit2 = reinterpret_cast<PFN_vkQueueSubmit2>(DeviceCommand("vkQueueSubmit2"));
  if (submit2 == nullptr || sync2_.synchronization2 != VK_TRUE)
    FAIL() << "the device does not advertise synchronization2 (the default device must offer it)";
  HostBuffer* target = CreateHostBuffer(16);
  VkSemaphore timeline = CreateSemaphore(device_, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  VkCommandBuffer commandBuffer = AllocateCommandBuffer();
  Begin(commandBuffer);
  vkCmdFillBuffer(commandBuffer, target->buffer, 0, 16, 0x5a5a5a5a);
  ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait.semaphore = timeline;
  wait.value = 1;
  wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkSemaphoreSubmitInfo signal = wait;
  signal.value = 7;
  VkCommandBufferSubmitInfo cbInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cbInfo.commandBuffer = commandBuffer;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.waitSemaphoreInfoCount = 1;
  submit.pWaitSemaphoreInfos = &wait;
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cbInfo;
  submit.signalSemaphoreInfoCount = 1;
  submit.pSignalSemaphoreInfos = &signal;
  ASSERT_EQ(submit2(queues_[0].queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  VkSemaphoreSignalInfo host{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  host.semaphore = timeline;
  host.value = 1;
  ASSERT_EQ(signalSemaphore_(device_, &host), VK_SUCCESS);
  ASSERT_EQ(Wait(timeline, 7, 5'000'000'000ull), VK_SUCCESS);
  EXPECT_EQ(target->At<uint32_t>(12), 0x5a5a5a5au);
  vkDestroySemaphore(device_, timeline, nullptr);
}

// Several threads submit to several queues at once; every submission runs once, in order per queue.
TEST_F(QueueSyncTest, MultiThreadedSubmitStress) {
  constexpr int kSubmitsPerThread = 200;
  const size_t threadCount = queues_.size();
  std::vector<HostBuffer*> counters;
  for (size_t t = 0; t < threadCount; ++t) counters.push_back(CreateHostBuffer(4 * kSubmitsPerThread));
  // One pool per thread: pools are externally synchronised.
  std::vector<std::thread> threads;
  std::vector<int> failures(threadCount, 0);
  for (size_t t = 0; t < threadCount; ++t) {
    threads.emplace_back([&, t] {
      const QueueRef& queue = queues_[t];
      VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      poolInfo.queueFamilyIndex = queue.family;
      VkCommandPool pool = VK_NULL_HANDLE;
      if (vkCreateCommandPool(device_, &poolInfo, nullptr, &pool) != VK_SUCCESS) {
        ++failures[t];
        return;
      }
      std::vector<VkCommandBuffer> buffers(kSubmitsPerThread);
      VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      info.commandPool = pool;
      info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      info.commandBufferCount = kSubmitsPerThread;
      vkAllocateCommandBuffers(device_, &info, buffers.data());
      VkFence fence = CreateFence(device_, false);
      for (int i = 0; i < kSubmitsPerThread; ++i) {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(buffers[i], &begin);
        // Each submission writes its index into its own slot and into slot 0 of every later one: in-order
        // execution leaves slot i holding i for all i, and the last value written at 0 last.
        vkCmdFillBuffer(buffers[i], counters[t]->buffer, 4 * static_cast<VkDeviceSize>(i), 4 * (kSubmitsPerThread - i),
                        static_cast<uint32_t>(i));
        vkEndCommandBuffer(buffers[i]);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &buffers[i];
        if (vkQueueSubmit(queue.queue, 1, &submit, i == kSubmitsPerThread - 1 ? fence : VK_NULL_HANDLE) != VK_SUCCESS)
          ++failures[t];
      }
      if (vkWaitForFences(device_, 1, &fence, VK_TRUE, 30'000'000'000ull) != VK_SUCCESS) ++failures[t];
      vkDestroyFence(device_, fence, nullptr);
      vkDestroyCommandPool(device_, pool, nullptr);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < threadCount; ++t) {
    EXPECT_EQ(failures[t], 0) << "thread " << t;
    for (int i = 0; i < kSubmitsPerThread; ++i)
      ASSERT_EQ(counters[t]->At<uint32_t>(4 * static_cast<VkDeviceSize>(i)), static_cast<uint32_t>(i))
          << "thread " << t << " slot " << i;
  }
}

TEST_F(QueueSyncTest, QueueBindSparseIsReportedUnsupported) {
  VkBindSparseInfo info{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
  EXPECT_NE(vkQueueBindSparse(queues_[0].queue, 1, &info, VK_NULL_HANDLE), VK_SUCCESS);
}

}  // namespace
}  // namespace crashtest::test
