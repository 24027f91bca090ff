// Runs one queue's submissions in order, like a GPU would: waiting on semaphores, executing command buffers,
// signalling semaphores and the fence. A submission that has nothing to wait for, on an idle queue, runs on the
// submitting thread inside vkQueueSubmit (queue/inline_submit.h); every other one goes to the queue's worker
// thread, started at the first such submit and joined when the queue is destroyed. Either way one thread at a
// time runs the queue's work (the Executor), and submissions complete in order. Idle waits spin only where it
// pays (common/spin_wait.h), then block.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "queue/executor.h"
#include "queue/submission.h"

namespace crashtest {

class Queue;

class QueueWorker {
 public:
  explicit QueueWorker(Queue& queue);
  ~QueueWorker();
  QueueWorker(const QueueWorker&) = delete;
  QueueWorker& operator=(const QueueWorker&) = delete;

  // vkQueueSubmit / vkQueueSubmit2 (host access to the queue is externally synchronised, so one thread at a
  // time): runs the submission now, or hands it to the worker.
  VkResult Submit(Submission&& submission);
  // Until every submission so far has completed.
  void WaitIdle();
  // The executor that runs this queue's submissions (crash dumps read where it is).
  const Executor& executor() const { return executor_; }
  // For a crash dump: appends the submissions queued behind the running one (not started), in order.
  void DescribeQueued(std::vector<dump::QueuedSubmission>& out) const;

 private:
  VkResult Enqueue(Submission&& submission);
  // Reserves room for the holds of the secondaries the submission executes (may throw; nothing taken yet).
  static void ReserveSecondaries(Submission& submission);
  // Holds every command buffer the submission executes (CommandBuffer::Hold); cannot fail.
  static void TakeHolds(Submission& submission);
  void Run();
  // Runs a submission the executor has begun (Executor::BeginSubmission).
  void Process(Submission& submission);

  Queue& queue_;
  Executor executor_;
  mutable std::mutex mutex_;  // guards pending_, stop_ and the taking of a submission (BeginSubmission)
  std::condition_variable wake_;
  std::deque<Submission> pending_;
  bool stop_ = false;
  std::thread thread_;
  uint64_t nextSerial_ = 1;  // the submitting thread only
  // Submissions so far (inline or not) and those completed: the queue is idle when they are equal. Process
  // increments completed_ after its last use of the Executor, so an acquire load of it that sees the queue idle
  // also sees the worker's work with the Executor done.
  std::atomic<uint64_t> submitted_{0};
  std::atomic<uint64_t> completed_{0};
  std::atomic<uint64_t> enqueued_{0};  // submissions handed to the worker
  uint64_t taken_ = 0;  // submissions the worker has taken from pending_ (worker thread only, under mutex_)
};

}  // namespace crashtest
