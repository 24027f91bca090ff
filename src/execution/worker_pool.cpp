#include "execution/worker_pool.h"

#include <system_error>

namespace crashtest::execution {

WorkerPool::WorkerPool(uint32_t threads) : threads_(threads == 0 ? 1 : threads) {}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void WorkerPool::StartHelpers() {
  for (uint32_t i = static_cast<uint32_t>(helpers_.size()) + 1; i < threads_; ++i) {
    try {
      helpers_.emplace_back([this, i] { HelperLoop(i); });
    } catch (const std::system_error&) {
      break;  // fewer helpers: the dispatch still runs, on fewer cores
    }
  }
}

void WorkerPool::Run(uint32_t participants, const std::function<void(uint32_t)>& job) {
  std::lock_guard run(runMutex_);
  uint32_t helpers = 0;
  {
    std::lock_guard lock(mutex_);
    if (participants > 1 && helpers_.size() + 1 < threads_) StartHelpers();
    helpers = std::min<uint32_t>(participants > 0 ? participants - 1 : 0, static_cast<uint32_t>(helpers_.size()));
    if (helpers > 0) {
      job_ = &job;
      participants_ = helpers + 1;
      remaining_ = helpers;
      ++generation_;
    }
  }
  if (helpers > 0) wake_.notify_all();
  job(0);
  if (helpers > 0) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return remaining_ == 0; });
    job_ = nullptr;
  }
}

void WorkerPool::HelperLoop(uint32_t index) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(uint32_t)>* job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      if (index >= participants_) continue;
      job = job_;
    }
    (*job)(index);
    {
      std::lock_guard lock(mutex_);
      if (--remaining_ == 0) done_.notify_one();
    }
  }
}

}  // namespace crashtest::execution
