// Fences, semaphores and events as internal classes over one DeviceExecution: timeline wait-before-signal from
// several threads, any/all waits with timeouts that really time out, binary payloads consumed once, events
// releasing a blocked waiter. (Run under ThreadSanitizer with -Db_sanitize=thread.)
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "queue/device_execution.h"
#include "queue/event.h"
#include "queue/fence.h"
#include "queue/semaphore.h"

namespace crashtest {
namespace {

using Clock = std::chrono::steady_clock;

TEST(SyncPrimitives, TimelineWaitBeforeSignalAcrossThreads) {
  DeviceExecution execution;
  Semaphore timeline(execution, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  std::vector<uint64_t> order;
  std::mutex orderMutex;
  // Three "queues": each waits for value i and signals i + 1, started in reverse order.
  std::vector<std::thread> queues;
  for (int i = 3; i >= 1; --i)
    queues.emplace_back([&, i] {
      ASSERT_TRUE(timeline.WaitOnQueue(static_cast<uint64_t>(i)));
      {
        std::lock_guard lock(orderMutex);
        order.push_back(static_cast<uint64_t>(i));
      }
      timeline.Signal(static_cast<uint64_t>(i) + 1);
    });
  Semaphore* one[] = {&timeline};
  const uint64_t four[] = {4};
  EXPECT_EQ(WaitSemaphores(one, four, false, 20'000'000), VK_TIMEOUT);
  timeline.Signal(1);  // the host starts the chain
  EXPECT_EQ(WaitSemaphores(one, four, false, 5'000'000'000ull), VK_SUCCESS);
  for (std::thread& queue : queues) queue.join();
  EXPECT_EQ(order, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(timeline.value(), 4u);
}

TEST(SyncPrimitives, WaitAnyAndAllWithTimeouts) {
  DeviceExecution execution;
  Semaphore a(execution, VK_SEMAPHORE_TYPE_TIMELINE, 5), b(execution, VK_SEMAPHORE_TYPE_TIMELINE, 0);
  Semaphore* both[] = {&a, &b};
  const uint64_t values[] = {5, 1};
  EXPECT_EQ(WaitSemaphores(both, values, true, 0), VK_SUCCESS);
  auto start = Clock::now();
  EXPECT_EQ(WaitSemaphores(both, values, false, 25'000'000), VK_TIMEOUT);
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(25));

  Fence signalled(execution, true), unsignalled(execution, false);
  Fence* fences[] = {&signalled, &unsignalled};
  EXPECT_EQ(WaitForFences(fences, false, 0), VK_SUCCESS);
  start = Clock::now();
  EXPECT_EQ(WaitForFences(fences, true, 25'000'000), VK_TIMEOUT);
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(25));
  std::thread signaller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    unsignalled.Signal();
  });
  EXPECT_EQ(WaitForFences(fences, true, 5'000'000'000ull), VK_SUCCESS);
  signaller.join();
}

TEST(SyncPrimitives, BinarySignalIsConsumedByOneWaiter) {
  DeviceExecution execution;
  Semaphore binary(execution, VK_SEMAPHORE_TYPE_BINARY, 0);
  std::atomic<int> woken{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 2; ++i)
    waiters.emplace_back([&] {
      if (binary.WaitOnQueue(0)) ++woken;
    });
  binary.Signal(0);
  while (woken.load() == 0) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(woken.load(), 1);  // one signal, one wait
  binary.Signal(0);
  for (std::thread& waiter : waiters) waiter.join();
  EXPECT_EQ(woken.load(), 2);
  EXPECT_EQ(binary.value(), 0u);
}

TEST(SyncPrimitives, EventReleasesABlockedQueueAndStopReleasesEverything) {
  DeviceExecution execution;
  Event event(execution);
  std::thread queue([&] { EXPECT_TRUE(event.WaitOnQueue()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  event.Set();
  queue.join();
  event.Reset();
  EXPECT_FALSE(event.isSet());
  // A device being destroyed releases a queue stuck on an event nobody sets.
  std::thread stuck([&] { EXPECT_FALSE(event.WaitOnQueue()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  execution.Stop();
  stuck.join();
}

}  // namespace
}  // namespace crashtest
