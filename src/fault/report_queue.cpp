#include "fault/report_queue.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "common/spin_wait.h"

namespace crashtest {

void FaultReport::SetDescription(const char* text) {
  std::strncpy(description, text != nullptr ? text : "", sizeof(description) - 1);
  description[sizeof(description) - 1] = '\0';
}

FaultReportQueue::FaultReportQueue(uint32_t capacity) : ring_(std::max<uint32_t>(capacity, 1)) {}

uint64_t FaultReportQueue::NextGroupId() {
  std::lock_guard lock(mutex_);
  return nextGroupId_++;
}

void FaultReportQueue::Push(std::span<const FaultReport> reports) {
  bool wake;
  {
    std::lock_guard lock(mutex_);
    for (const FaultReport& report : reports) {
      if (size_ == ring_.size()) {
        // "OVERFLOW: earlier faults were lost": the ring keeps the newest maxDeviceFaultCount reports.
        head_ = (head_ + 1) % ring_.size();
        --size_;
        overflowed_ = true;
      }
      ring_[(head_ + size_) % ring_.size()] = report;
      ++size_;
    }
    pushes_.fetch_add(1, std::memory_order_release);
    wake = waiters_ > 0;
  }
  // Only readers blocked in Take need the (system-call) wake-up; a producer with nobody waiting pays nothing.
  if (wake) arrived_.notify_all();
}

uint32_t FaultReportQueue::Available() const {
  std::lock_guard lock(mutex_);
  return static_cast<uint32_t>(size_);
}

bool FaultReportQueue::WaitForReport(std::unique_lock<std::mutex>& lock, uint64_t timeoutNs) {
  if (size_ > 0) return true;
  if (timeoutNs == 0) return false;
  // Spin before sleeping only where it pays (common/spin_wait.h): nothing on a machine without an idle core, else
  // at most the expected wake-up cost.
  const auto start = std::chrono::steady_clock::now();
  if (const auto budget = SpinBudget(); budget.count() > 0) {
    const auto limit = std::chrono::nanoseconds(std::min(timeoutNs, static_cast<uint64_t>(budget.count())));
    const uint64_t seen = pushes_.load(std::memory_order_acquire);
    lock.unlock();
    SpinUntil(start + limit,
              [&] { return pushes_.load(std::memory_order_acquire) != seen; });
    lock.lock();
    if (size_ > 0) return true;
  }
  ++waiters_;
  // UINT64_MAX means "wait forever"; any other value is a relative timeout in nanoseconds.
  if (timeoutNs == UINT64_MAX) {
    arrived_.wait(lock, [&] { return size_ > 0; });
  } else {
    auto deadline = start + std::chrono::nanoseconds(timeoutNs);
    arrived_.wait_until(lock, deadline, [&] { return size_ > 0; });
  }
  --waiters_;
  return size_ > 0;
}

VkResult FaultReportQueue::Take(uint64_t timeoutNs, uint32_t* count, VkDeviceFaultInfoKHR* out) {
  std::unique_lock lock(mutex_);
  // "If no fault reports are available, ... blocks until ... or timeout ... VK_TIMEOUT": a success code, so a
  // zero-timeout poll with nothing queued returns VK_TIMEOUT, not VK_SUCCESS with a zero count.
  if (!WaitForReport(lock, timeoutNs)) {
    *count = 0;
    return VK_TIMEOUT;
  }
  if (out == nullptr) {
    *count = static_cast<uint32_t>(size_);  // a count query consumes nothing
    return VK_SUCCESS;
  }
  const uint32_t taken = static_cast<uint32_t>(std::min<size_t>(*count, size_));
  constexpr size_t kHeader = offsetof(VkDeviceFaultInfoKHR, flags);
  for (uint32_t i = 0; i < taken; ++i) {
    FaultReport& report = ring_[head_];
    if (overflowed_) {
      report.flags |= VK_DEVICE_FAULT_FLAG_OVERFLOW_BIT_KHR;
      overflowed_ = false;
    }
    VkDeviceFaultInfoKHR& info = out[i];
    info.flags = report.flags;
    info.groupId = report.groupId;
    std::memcpy(info.description, report.description, sizeof(info.description));
    info.faultAddressInfo = report.faultAddressInfo;
    info.instructionAddressInfo = report.instructionAddressInfo;
    info.vendorInfo = report.vendorInfo;
    static_assert(kHeader == 16);
    head_ = (head_ + 1) % ring_.size();
    --size_;
  }
  *count = taken;
  return size_ > 0 ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace crashtest
