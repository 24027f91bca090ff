// Which submissions the submitting thread runs itself, inside vkQueueSubmit (docs/execution.md, "Threads").
//
// "vkQueueSubmit ... may complete before the call returns" is allowed — a queue's work only has to start after the
// call and complete in order — so when a queue is idle and a submission has nothing to wait for, running it on
// the calling thread gives submit + fence wait with no thread hand-off and no wake-up. Everything that could block
// or run long stays on the queue's worker, so vkQueueSubmit itself never waits for anything outside the
// submission:
//   - a wait semaphore that is not signalled yet (wait-before-signal, a binary semaphore another queue signals);
//   - a planned hang (submit trigger) or any command trigger (its effect may be a hang at the command);
//   - vkCmdWaitEvents and vkCmdCopyQueryPoolResults (CommandWork kWorkBlocks): they may wait for the host or
//     another queue;
//   - dispatches (kWorkShader): the interpreter may run for seconds and the application keeps its thread while
//     the "GPU" works, as on a real device; measured in docs/benchmarks.md, "Issue 21".
// Draws are counted, not rasterised, and run inline.
#pragma once

#include <cstdint>

#include "command/command_work.h"
#include "queue/submission.h"

namespace crashtest {

class DeviceExecution;

// The kinds of command that keep a submission on the worker.
inline constexpr uint8_t kWorkKeptOnWorker = kWorkBlocks | kWorkShader;

// The submission's own shape allows running inline (no lock needed; reads its command buffers' CommandWork).
bool MayRunInline(const Submission& submission);

// Under the device's execution lock: if the device lives and every wait semaphore is signalled now, performs
// the waits (a binary payload is consumed, as the worker's wait would), clears them from the submission and
// returns true. Otherwise changes nothing and returns false.
bool TakeWaitsIfSignalled(DeviceExecution& execution, Submission& submission);

}  // namespace crashtest
