// The worker thread of one queue: takes submissions in order and runs them like a GPU would — asynchronously,
// waiting on semaphores, executing command buffers, signalling semaphores and the fence. Started at the first
// submit, joined when the queue is destroyed. Idle waits are condition-variable waits; nothing polls.
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

  VkResult Enqueue(Submission&& submission);
  // Until every submission so far has completed.
  void WaitIdle();

 private:
  void Run();
  void Process(Submission& submission);

  Queue& queue_;
  Executor executor_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Submission> pending_;
  bool stop_ = false;
  std::thread thread_;
  uint64_t nextSerial_ = 1;
  std::atomic<uint64_t> submitted_{0};
  uint64_t taken_ = 0;  // submissions the worker has taken from pending_ (worker thread only, under mutex_)
  std::atomic<uint64_t> completed_{0};
};

}  // namespace crashtest
