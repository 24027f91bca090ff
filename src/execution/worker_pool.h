// The threads that run a dispatch's workgroups: the queue's own worker plus `threads - 1` helpers, started on the
// first dispatch that can use them. One dispatch uses the pool at a time (dispatches of several queues take turns),
// so a workgroup never waits behind another queue's work for a core it already has.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace crashtest::execution {

class WorkerPool {
 public:
  explicit WorkerPool(uint32_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t threads() const { return threads_; }
  // Calls job(i) for every i in [0, participants) (participants <= threads()), job(0) on the calling thread, and
  // returns when every call has returned.
  void Run(uint32_t participants, const std::function<void(uint32_t)>& job);

 private:
  void HelperLoop(uint32_t index);
  void StartHelpers();  // lock held

  const uint32_t threads_;
  std::mutex runMutex_;  // one dispatch at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> helpers_;
  const std::function<void(uint32_t)>* job_ = nullptr;
  uint32_t participants_ = 0;
  uint64_t generation_ = 0;
  uint32_t remaining_ = 0;
  bool stopping_ = false;
};

}  // namespace crashtest::execution
