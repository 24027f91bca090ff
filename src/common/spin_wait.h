// Busy-waiting before a blocking wait, only where it pays (issue 21). Work on a CPU queue often finishes within
// microseconds, while a futex sleep and wake-up costs several microseconds of scheduler latency on an idle
// machine. But a spinning thread holds a core: on a busy machine (a CI runner with a process per core, a build
// beside the tests) it takes the time the thread it waits for needs, and the wait gets longer, not shorter.
//
// So a thread about to block asks SpinBudget() (spin_policy.h) how long it may spin: nothing when the machine has
// no idle core, otherwise at most the expected cost of sleeping and waking up; then it blocks on a futex
// (std::condition_variable).
#pragma once

#include <chrono>

#include "common/spin_policy.h"

namespace crashtest {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls `done()` until it holds or `deadline` passes; returns whether it held. The clock is read once per 64 polls.
template <typename Done>
bool SpinUntil(std::chrono::steady_clock::time_point deadline, Done&& done) {
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      CpuRelax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
}

}  // namespace crashtest
