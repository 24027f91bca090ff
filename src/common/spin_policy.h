// How long a thread about to block may spin first (common/spin_wait.h), process-wide.
//
// Spinning pays only when the thread that will end the wait is running on another core right now, and only for
// about as long as sleeping and waking up would cost. So SpinBudget() is
//   - zero when the machine has no idle core: the kernel's count of runnable threads (nr_running, the fourth
//     field of /proc/loadavg, which counts the asking thread too) exceeds the cores this process may run on. Then
//     someone is already waiting for a core, and a spinner would take it — possibly from the very thread it waits
//     for. The count is sampled at most once per kRunnableSampleInterval per process (a read of /proc/loadavg
//     costs a few microseconds);
//   - otherwise the expected wake-up cost: a running average of how late sleepers of this process actually woke
//     after the change they waited for (RecordWakeup), clamped to [kMinSpin, kMaxSpin].
#pragma once

#include <chrono>

namespace crashtest {

inline constexpr std::chrono::microseconds kMinSpin{2};
inline constexpr std::chrono::microseconds kMaxSpin{50};
inline constexpr std::chrono::milliseconds kRunnableSampleInterval{1};

std::chrono::nanoseconds SpinBudget();

// A sleeper woke `latency` after the change it waited for was published: feeds the wake-up cost estimate.
void RecordWakeup(std::chrono::nanoseconds latency);

// The parts, for tests and the docs: the current estimate, and whether the last sample saw an idle core.
std::chrono::nanoseconds ExpectedWakeupCost();
bool MachineHasIdleCore();

}  // namespace crashtest
