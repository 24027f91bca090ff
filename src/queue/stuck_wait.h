// A queue's semaphore wait that does not complete (issue 18). Nothing tells a driver that a wait can never be
// satisfied — a binary semaphore may be signalled by a later submission, a timeline value by the host at any time —
// so the rule is one of time: a wait still unsatisfied after the `stuckWaitMs` option is logged as an error naming
// the semaphore, the value and the submission, and with `"stuckWaits": "lose"` it ends as a GPU hang does: a
// device loss with a report (WATCHDOG_TIMEOUT), so a CI job fails fast instead of timing out.
#pragma once

#include <cstdint>

namespace crashtest {

class Queue;
class Semaphore;

// Semaphore::WaitOnQueue for submission `serial` of `queue`, with the stuck-wait report. False when the device is
// lost (by this wait or otherwise) or being destroyed.
bool WaitOnQueueReportingStuck(Queue& queue, Semaphore& semaphore, uint64_t value, uint64_t serial);

}  // namespace crashtest
