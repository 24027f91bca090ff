#include "common/spin_policy.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>

namespace crashtest {

namespace {

using Clock = std::chrono::steady_clock;

// Cores this process may run on (its affinity mask; cgroup quotas are not seen).
int UsableCores() {
  static const int cores = [] {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return cores;
}

// nr_running from "0.52 0.58 0.59 3/467 12345"; -1 when /proc is unavailable.
int ReadRunnableThreads() {
  const int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[128];
  const ssize_t length = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (length <= 0) return -1;
  text[length] = '\0';
  int field = 0;
  for (const char* at = text; *at != '\0'; ++at) {
    if (*at != ' ') continue;
    if (++field == 3) return static_cast<int>(std::strtol(at + 1, nullptr, 10));
  }
  return -1;
}

std::atomic<int64_t> sampledAt{0};  // steady-clock nanoseconds of the last sample; 0: none yet
std::atomic<bool> idleCore{true};
// The estimate in nanoseconds; starts at what a futex wake-up costs on an idle x86 machine.
std::atomic<int64_t> wakeupNs{10'000};

}  // namespace

bool MachineHasIdleCore() {
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  int64_t last = sampledAt.load(std::memory_order_relaxed);
  const int64_t interval = std::chrono::nanoseconds(kRunnableSampleInterval).count();
  // One thread samples per interval; the others use the last answer.
  const bool due = last == 0 || now - last >= interval;
  if (due && sampledAt.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
    const int runnable = ReadRunnableThreads();
    idleCore.store(runnable < 0 || runnable <= UsableCores(), std::memory_order_relaxed);
  }
  return idleCore.load(std::memory_order_relaxed);
}

std::chrono::nanoseconds ExpectedWakeupCost() {
  return std::chrono::nanoseconds(wakeupNs.load(std::memory_order_relaxed));
}

void RecordWakeup(std::chrono::nanoseconds latency) {
  // An exponential average over about 8 wake-ups; a racing update loses one sample, which is harmless.
  const int64_t sample = std::clamp<int64_t>(latency.count(), 0, 10 * std::chrono::nanoseconds(kMaxSpin).count());
  const int64_t old = wakeupNs.load(std::memory_order_relaxed);
  wakeupNs.store(old + (sample - old) / 8, std::memory_order_relaxed);
}

std::chrono::nanoseconds SpinBudget() {
  if (!MachineHasIdleCore()) return std::chrono::nanoseconds(0);
  return std::clamp<std::chrono::nanoseconds>(ExpectedWakeupCost(), kMinSpin, kMaxSpin);
}

}  // namespace crashtest
