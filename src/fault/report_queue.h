// The per-device queue of fault reports behind vkGetDeviceFaultReportsKHR (VK_KHR_device_fault): a ring of
// maxDeviceFaultCount reports in order of occurrence, each delivered exactly once, drained by any number of threads
// (each call takes a disjoint run), with blocking reads that wake when a report arrives.
#pragma once

#include <crashtest/vulkan_compat.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

namespace crashtest {

// One report, as vkGetDeviceFaultReportsKHR writes it (everything of VkDeviceFaultInfoKHR after sType/pNext).
struct FaultReport {
  VkDeviceFaultFlagsKHR flags = 0;
  uint64_t groupId = 0;
  char description[VK_MAX_DESCRIPTION_SIZE] = {};
  VkDeviceFaultAddressInfoKHR faultAddressInfo{};
  VkDeviceFaultAddressInfoKHR instructionAddressInfo{};
  VkDeviceFaultVendorInfoKHR vendorInfo{};

  void SetDescription(const char* text);  // truncated to fit, always NUL-terminated
};

class FaultReportQueue {
 public:
  // capacity = maxDeviceFaultCount (at least 1: "limittype max", required >= 1).
  explicit FaultReportQueue(uint32_t capacity);

  // Appends the reports of one fault (one group) in order, atomically with respect to readers. When the ring is
  // full the oldest report is overwritten and the next report a reader takes carries
  // VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR ("earlier faults were lost"). Wakes blocked readers.
  void Push(std::span<const FaultReport> reports);
  void Push(const FaultReport& report) { Push(std::span<const FaultReport>(&report, 1)); }

  // A group id for the next fault: monotonically increasing, shared by the entries of one error.
  uint64_t NextGroupId();

  // vkGetDeviceFaultReportsKHR: if no report is available, waits up to timeoutNs (0: not at all) for one; then
  // VK_TIMEOUT with *count = 0 if none arrived. With out == nullptr, *count = reports available and nothing is
  // consumed. Otherwise takes min(*count, available) reports in order into out (keeping each struct's sType and
  // pNext), sets *count to that number, and returns VK_INCOMPLETE when reports remain.
  VkResult Take(uint64_t timeoutNs, uint32_t* count, VkDeviceFaultInfoKHR* out);

  uint32_t Available() const;
  uint32_t capacity() const { return static_cast<uint32_t>(ring_.size()); }

 private:
  bool WaitForReport(std::unique_lock<std::mutex>& lock, uint64_t timeoutNs);

  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::atomic<uint64_t> pushes_{0};  // counts Push calls, for readers that spin before sleeping
  std::vector<FaultReport> ring_;
  size_t head_ = 0;   // oldest report
  size_t size_ = 0;   // reports queued
  bool overflowed_ = false;
  uint32_t waiters_ = 0;
  uint64_t nextGroupId_ = 1;
};

}  // namespace crashtest
