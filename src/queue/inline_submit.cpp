#include "queue/inline_submit.h"

#include <chrono>

#include "command/command_buffer.h"
#include "command/command_records.h"
#include "pipeline/pipeline.h"
#include "queue/device_execution.h"
#include "queue/dispatch_history.h"
#include "queue/semaphore.h"

namespace crashtest {

namespace {

// Adds the predicted time of the stream's dispatches to *total; false when one cannot be predicted (indirect, no
// pipeline bound, a pipeline this queue never ran) or the total leaves the budget. A stream starts with no compute
// state (Vulkan 1.3, 6.1), so the pipeline bound before a dispatch is the one in the same stream.
bool PredictDispatches(const CommandChunk* stream, const DispatchHistory& history, std::chrono::nanoseconds* total) {
  uint64_t pipeline = 0;  // object id of the bound compute pipeline
  bool predictable = true;
  ForEachRecord(stream, [&](const CommandHeader& header, const void* record) -> bool {
    switch (header.op) {
      case CommandOp::BindPipeline: {
        const auto* bind = static_cast<const record::BindPipeline*>(record);
        if (bind->bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE && bind->pipeline != VK_NULL_HANDLE)
          pipeline = FromHandle(bind->pipeline)->header.id;
        return true;
      }
      case CommandOp::Dispatch:
      case CommandOp::DispatchBase: {
        const auto* dispatch = static_cast<const record::Dispatch*>(record);
        const auto predicted =
            history.Predict(pipeline, uint64_t{dispatch->groupsX} * dispatch->groupsY * dispatch->groupsZ);
        predictable = pipeline != 0 && predicted && *predicted <= kInlineDispatchBudget - *total;
        if (predictable) *total += *predicted;
        return predictable;
      }
      case CommandOp::DispatchIndirect:
        return predictable = false;
      default:
        return true;
    }
  });
  return predictable;
}

}  // namespace

bool MayRunInline(const Submission& submission, const DispatchHistory& history) {
  if (submission.hangFault != 0 || !submission.commandFaults.empty()) return false;
  std::chrono::nanoseconds dispatchTime{0};
  auto allowed = [&](const CommandBuffer& commandBuffer) {
    const uint8_t work = commandBuffer.work();
    if ((work & (kWorkBlocks | kWorkDraw)) != 0) return false;
    return (work & kWorkShader) == 0 || PredictDispatches(commandBuffer.stream().firstChunk(), history, &dispatchTime);
  };
  for (const SubmitBatch& batch : submission.batches)
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      const CommandBuffer& primary = *submitted.commandBuffer;
      if (!allowed(primary)) return false;
      for (const record::ExecuteCommands* execute = primary.firstExecute(); execute != nullptr;
           execute = execute->next) {
        CommandBuffer* const* secondaries = PayloadOf<CommandBuffer*>(execute);
        for (uint32_t i = 0; i < execute->count; ++i)
          if (!allowed(*secondaries[i])) return false;
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
