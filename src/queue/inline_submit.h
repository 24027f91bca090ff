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
//   - dispatches (kWorkShader) unless every one is known to be short: a direct dispatch of a pipeline this queue
//     has run before, all of them together predicted within kInlineDispatchBudget (queue/dispatch_history.h). The
//     interpreter may run for seconds and the application keeps its thread while a GPU works; but a short
//     dispatch handed to the worker costs two thread wake-ups, 10-130 us, against the few microseconds of the
//     work itself (docs/benchmarks.md, "Issue 21"). Indirect dispatches (the group count is read at execution)
//     and a pipeline's first dispatch stay on the worker.
//   - draws (kWorkDraw): they run the vertex and fragment shaders on the interpreter for as long as they take.
#pragma once

#include <cstdint>

#include "command/command_work.h"
#include "queue/submission.h"

namespace crashtest {

class DeviceExecution;

class DispatchHistory;

// The submission's own shape allows running inline (no lock needed; reads its command buffers' CommandWork and,
// when they dispatch, walks their streams). `history` is the queue's, read only while the queue is idle.
bool MayRunInline(const Submission& submission, const DispatchHistory& history);

// Under the device's execution lock: if the device lives and every wait semaphore is signalled now, performs
// the waits (a binary payload is consumed, as the worker's wait would), clears them from the submission and
// returns true. Otherwise changes nothing and returns false.
bool TakeWaitsIfSignalled(DeviceExecution& execution, Submission& submission);

}  // namespace crashtest
