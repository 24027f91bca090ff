// Brief busy-waiting before a blocking wait. Work on a CPU queue often finishes within microseconds, while a
// condition-variable sleep and wake-up costs tens of microseconds of scheduler latency: a thread that is about to
// sleep first polls for a bounded time (kSpinBeforeSleep), then sleeps as before. The bound keeps an idle driver
// from burning CPU.
#pragma once

#include <chrono>

namespace crashtest {

inline constexpr std::chrono::microseconds kSpinBeforeSleep{50};

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
