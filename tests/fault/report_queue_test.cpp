// FaultReportQueue: the rules of vkGetDeviceFaultReportsKHR (ordering, exactly once, disjoint parallel readers,
// VK_INCOMPLETE, VK_TIMEOUT, blocking, overflow) on the queue itself.
#include "fault/report_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace crashtest {
namespace {

FaultReport Numbered(uint64_t n) {
  FaultReport r;
  r.groupId = n;
  r.flags = VK_DEVICE_FAULT_FLAG_VENDOR_BIT_KHR;
  r.vendorInfo.vendorFaultCode = n;
  r.SetDescription(("fault " + std::to_string(n)).c_str());
  return r;
}

std::vector<VkDeviceFaultInfoKHR> Infos(size_t n) {
  return std::vector<VkDeviceFaultInfoKHR>(n, VkDeviceFaultInfoKHR{VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR, nullptr, 0,
                                                                   0, {}, {}, {}, {}});
}

TEST(FaultReportQueue, ZeroTimeoutWithNothingQueuedIsTimeout) {
  FaultReportQueue queue(4);
  uint32_t count = 7;
  EXPECT_EQ(queue.Take(0, &count, nullptr), VK_TIMEOUT);
  EXPECT_EQ(count, 0u);
  auto infos = Infos(1);
  count = 1;
  EXPECT_EQ(queue.Take(0, &count, infos.data()), VK_TIMEOUT);
  EXPECT_EQ(count, 0u);
}

TEST(FaultReportQueue, CountQueryDoesNotConsume) {
  FaultReportQueue queue(4);
  queue.Push(Numbered(1));
  queue.Push(Numbered(2));
  uint32_t count = 0;
  EXPECT_EQ(queue.Take(0, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(queue.Take(0, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 2u);
}

TEST(FaultReportQueue, IncompleteKeepsTheRestInOrderAndKeepsCallerHeader) {
  FaultReportQueue queue(8);
  for (uint64_t i = 1; i <= 3; ++i) queue.Push(Numbered(i));
  auto infos = Infos(2);
  int marker = 0;
  infos[1].pNext = &marker;
  uint32_t count = 2;
  EXPECT_EQ(queue.Take(0, &count, infos.data()), VK_INCOMPLETE);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(infos[0].groupId, 1u);
  EXPECT_EQ(infos[1].groupId, 2u);
  EXPECT_STREQ(infos[1].description, "fault 2");
  EXPECT_EQ(infos[1].sType, VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR);
  EXPECT_EQ(infos[1].pNext, &marker);
  count = 2;
  EXPECT_EQ(queue.Take(0, &count, infos.data()), VK_SUCCESS);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(infos[0].groupId, 3u);
  EXPECT_EQ(queue.Available(), 0u);
}

TEST(FaultReportQueue, OverflowKeepsTheNewestAndFlagsTheNextRead) {
  FaultReportQueue queue(2);
  for (uint64_t i = 1; i <= 5; ++i) queue.Push(Numbered(i));
  auto infos = Infos(4);
  uint32_t count = 4;
  EXPECT_EQ(queue.Take(0, &count, infos.data()), VK_SUCCESS);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(infos[0].groupId, 4u);
  EXPECT_EQ(infos[1].groupId, 5u);
  EXPECT_NE(infos[0].flags & VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, 0u);
  EXPECT_EQ(infos[1].flags & VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, 0u);
  queue.Push(Numbered(6));
  count = 1;
  EXPECT_EQ(queue.Take(0, &count, infos.data()), VK_SUCCESS);
  EXPECT_EQ(infos[0].flags & VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR, 0u) << "only the first read after a loss";
}

TEST(FaultReportQueue, TimeoutIsHonoured) {
  FaultReportQueue queue(1);
  uint32_t count = 1;
  auto infos = Infos(1);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(queue.Take(20'000'000, &count, infos.data()), VK_TIMEOUT);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));  // lower bound only
}

TEST(FaultReportQueue, BlockedReaderWakesWhenAFaultArrives) {
  FaultReportQueue queue(4);
  std::atomic<bool> taken{false};
  std::thread reader([&] {
    auto infos = Infos(1);
    uint32_t count = 1;
    EXPECT_EQ(queue.Take(UINT64_MAX, &count, infos.data()), VK_SUCCESS);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(infos[0].groupId, 42u);
    taken = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(taken.load());
  queue.Push(Numbered(42));
  reader.join();
  EXPECT_TRUE(taken.load());
}

// 8 readers drain while 2 producers push at a high rate: every report is delivered exactly once, none is lost,
// and each reader sees its reports in order of occurrence.
TEST(FaultReportQueue, ParallelReadersGetDisjointOrderedSets) {
  constexpr uint64_t kPerProducer = 20000;
  constexpr int kReaders = 8;
  FaultReportQueue queue(1u << 20);
  std::atomic<int> producersDone{0};
  std::vector<std::vector<uint64_t>> seen(kReaders);
  std::vector<std::thread> threads;
  for (int p = 0; p < 2; ++p)
    threads.emplace_back([&, p] {
      for (uint64_t i = 0; i < kPerProducer; ++i) queue.Push(Numbered((static_cast<uint64_t>(p) << 32) | i));
      ++producersDone;
    });
  for (int r = 0; r < kReaders; ++r)
    threads.emplace_back([&, r] {
      auto infos = Infos(64);
      for (;;) {
        uint32_t count = static_cast<uint32_t>(infos.size());
        VkResult result = queue.Take(1'000'000, &count, infos.data());
        for (uint32_t i = 0; i < count; ++i) seen[r].push_back(infos[i].groupId);
        if (result == VK_TIMEOUT && producersDone.load() == 2 && queue.Available() == 0) break;
      }
    });
  for (auto& t : threads) t.join();
  std::vector<uint64_t> all;
  for (int r = 0; r < kReaders; ++r) {
    // Within one reader, each producer's reports come in increasing order.
    uint64_t last[2] = {0, 0};
    bool first[2] = {true, true};
    for (uint64_t id : seen[r]) {
      int p = static_cast<int>(id >> 32);
      uint64_t n = id & 0xffffffffu;
      if (!first[p]) {
        EXPECT_GT(n, last[p]);
      }
      first[p] = false;
      last[p] = n;
    }
    all.insert(all.end(), seen[r].begin(), seen[r].end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), 2 * kPerProducer);
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a report was delivered twice";
}

TEST(FaultReportQueue, GroupIdsIncrease) {
  FaultReportQueue queue(1);
  uint64_t a = queue.NextGroupId();
  uint64_t b = queue.NextGroupId();
  EXPECT_LT(a, b);
}

}  // namespace
}  // namespace crashtest
