// What the queues of one device share: the lock and condition variable every synchronisation primitive of the
// device (fences, semaphores, events, query availability, queue progress) changes state under, and the debug
// names of its objects. One per device, owned jointly by its queues (every device has at least one queue), so a
// host wait on several fences or semaphores of the device — any or all — is one condition-variable wait (after a
// spin only where it pays, common/spin_wait.h), with no process-wide lock.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "common/spin_wait.h"
#include "execution/worker_pool.h"
#include "queue/object_names.h"

namespace crashtest {

class Device;

class DeviceExecution {
 public:
  // Changes shared state under the lock and wakes every waiter.
  template <typename Change>
  void Publish(Change&& change) {
    {
      std::lock_guard lock(mutex_);
      change();
      Changed();
    }
    changed_.notify_all();
  }

  // Waits until `ready()` holds (checked under the lock), for at most `timeoutNs` nanoseconds (UINT64_MAX: no
  // limit). Returns whether it holds. A device that is being destroyed releases every waiter (returns false unless
  // ready).
  template <typename Ready>
  bool Wait(uint64_t timeoutNs, Ready&& ready) {
    std::unique_lock lock(mutex_);
    // ready() may consume what it waits for (a binary semaphore's payload): call it until it first holds, never
    // after.
    bool ok = ready();
    if (ok || timeoutNs == 0) return ok;
    auto done = [&] {
      ok = ok || ready();
      return ok || stopping_ || lost_.load(std::memory_order_relaxed);
    };
    // Deadlines past a century are "forever": steady_clock arithmetic would overflow.
    constexpr uint64_t kForever = 100ull * 365 * 24 * 3600 * 1000000000ull;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::nanoseconds(std::min(timeoutNs, kForever));
    // Spin first, only where it pays (common/spin_wait.h): re-check whenever a Publish happened, without the lock
    // in between. No spin at all on a machine without an idle core.
    if (const auto budget = SpinBudget(); budget.count() > 0) {
      const auto spinDeadline = std::min(deadline, start + budget);
      for (;;) {
        const uint64_t seen = generation_.load(std::memory_order_acquire);
        lock.unlock();
        const bool changed = SpinUntil(
            spinDeadline, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        lock.lock();
        if (!changed) break;
        if (done()) return ok;
      }
    }
    ++sleepers_;
    if (timeoutNs >= kForever)
      changed_.wait(lock, done);
    else
      changed_.wait_until(lock, deadline, done);
    --sleepers_;
    // How late this sleeper woke after the change it waited for: the spin budget's estimate (spin_policy.h).
    if (ok && changeWhileAsleep_ != std::chrono::steady_clock::time_point{})
      RecordWakeup(std::chrono::steady_clock::now() - changeWhileAsleep_);
    return ok;
  }

  // Called once the device is being destroyed: wakes and releases every waiter.
  void Stop() {
    Publish([this] { stopping_ = true; });
  }

  // The device is lost (VK_ERROR_DEVICE_LOST): every waiter is released and sees lost() ("commands that wait
  // ... must return in finite time even in the case of a lost device", Vulkan 1.3, 5.2.3 Lost Device).
  // `alsoUnderLock` publishes the fault engine's side of the loss in the same critical section, so the loss
  // becomes visible everywhere at once (see PublishUnlessLost).
  template <typename Also>
  void MarkLost(Also&& alsoUnderLock) {
    Publish([&] {
      lost_.store(true, std::memory_order_release);
      alsoUnderLock();
    });
  }

  // Publish, unless the device is lost. The queues signal fences and semaphores and complete command buffers
  // through this: once the application can see the loss it may destroy those objects at once, and the check and
  // the change happen under the lock that makes the loss visible. Returns whether `change` ran.
  template <typename Change>
  bool PublishUnlessLost(Change&& change) {
    {
      std::lock_guard lock(mutex_);
      if (lost_.load(std::memory_order_relaxed)) return false;
      change();
      Changed();
    }
    changed_.notify_all();
    return true;
  }
  // The same for a change nobody waits for (a command buffer leaving the pending state): no wake-up.
  template <typename Change>
  bool RunUnlessLost(Change&& change) {
    std::lock_guard lock(mutex_);
    if (lost_.load(std::memory_order_relaxed)) return false;
    change();
    return true;
  }
  // Runs `change(lost)` under the lock, waking nobody: what must not race with a loss becoming visible (the
  // queues' holds on command buffers, CommandBuffer::ReleaseLocked). Returns what `change` returns.
  template <typename Change>
  auto RunLocked(Change&& change) {
    std::lock_guard lock(mutex_);
    return change(lost_.load(std::memory_order_relaxed));
  }
  // Waits until `ready()` holds, also on a lost device; only a device being destroyed ends it early. Once the
  // device is lost the queues drain quickly — each of their waits ends at the loss — so this returns in finite
  // time (vkQueueWaitIdle, vkDeviceWaitIdle: after them no queue touches anything, even on a lost device).
  template <typename Ready>
  void WaitEvenIfLost(Ready&& ready) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || ready(); });
  }
  bool lost() const { return lost_.load(std::memory_order_acquire); }

  ObjectNames& names() { return names_; }
  const ObjectNames& names() const { return names_; }

  // Set once the device is lost: a running dispatch looks at it between workgroups and in loops.
  const std::atomic<bool>* lostFlag() const { return &lost_; }
  // The worker pool that runs the device's dispatches (execution/worker_pool.h), started on first use with
  // `threads` threads (0: the machine's cores).
  execution::WorkerPool& computePool(uint32_t threads) {
    std::call_once(poolCreated_, [&] {
      const uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
      pool_ = std::make_unique<execution::WorkerPool>(threads != 0 ? threads : cores);
    });
    return *pool_;
  }

 private:
  // Under the lock, after a change: counts it for spinning waiters, and notes when it happened if a waiter sleeps.
  void Changed() {
    generation_.fetch_add(1, std::memory_order_release);
    changeWhileAsleep_ = sleepers_ != 0 ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::atomic<uint64_t> generation_{0};  // counts Publish calls, for waiters that spin before sleeping
  uint32_t sleepers_ = 0;                // waiters blocked in changed_ (under mutex_)
  std::chrono::steady_clock::time_point changeWhileAsleep_{};  // the last change while someone slept
  bool stopping_ = false;
  std::atomic<bool> lost_{false};
  ObjectNames names_;
  std::once_flag poolCreated_;
  std::unique_ptr<execution::WorkerPool> pool_;
};

// The shared state of `device` (held by its queues).
DeviceExecution& ExecutionOf(const Device& device);

}  // namespace crashtest
