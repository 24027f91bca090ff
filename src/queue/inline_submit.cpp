#include "queue/inline_submit.h"

#include "command/command_buffer.h"
#include "command/command_records.h"
#include "queue/device_execution.h"
#include "queue/semaphore.h"

namespace crashtest {

bool MayRunInline(const Submission& submission) {
  if (submission.hangFault != 0 || !submission.commandFaults.empty()) return false;
  for (const SubmitBatch& batch : submission.batches)
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      const CommandBuffer& primary = *submitted.commandBuffer;
      if ((primary.work() & kWorkKeptOnWorker) != 0) return false;
      for (const record::ExecuteCommands* execute = primary.firstExecute(); execute != nullptr;
           execute = execute->next) {
        CommandBuffer* const* secondaries = PayloadOf<CommandBuffer*>(execute);
        for (uint32_t i = 0; i < execute->count; ++i)
          if ((secondaries[i]->work() & kWorkKeptOnWorker) != 0) return false;
      }
    }
  return true;
}

bool TakeWaitsIfSignalled(DeviceExecution& execution, Submission& submission) {
  bool anyWait = false;
  for (const SubmitBatch& batch : submission.batches) anyWait = anyWait || !batch.waits.empty();
  if (!anyWait) return !execution.lost();
  // A binary semaphore waited on twice needs two signals, one of them from inside the submission: left to the
  // worker's batch-by-batch waits.
  auto waitedOnce = [&](const Semaphore* semaphore) {
    int count = 0;
    for (const SubmitBatch& batch : submission.batches)
      for (const SemaphoreOperation& wait : batch.waits) count += wait.semaphore == semaphore ? 1 : 0;
    return count == 1;
  };
  return execution.RunLocked([&](bool lost) {
    if (lost) return false;  // the worker abandons it, as any submission after a loss
    for (const SubmitBatch& batch : submission.batches)
      for (const SemaphoreOperation& wait : batch.waits)
        if (!wait.semaphore->ReadyLocked(wait.value) || (!wait.semaphore->timeline() && !waitedOnce(wait.semaphore)))
          return false;
    for (SubmitBatch& batch : submission.batches) {
      for (const SemaphoreOperation& wait : batch.waits) wait.semaphore->ConsumeLocked();
      batch.waits.clear();
    }
    return true;
  });
}

}  // namespace crashtest
