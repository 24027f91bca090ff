// One vkQueueSubmit / vkQueueSubmit2 call as the queue's worker runs it: batches in order, each waiting on its
// semaphores, executing its command buffers and signalling its semaphores, then the fence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest {

class CommandBuffer;
struct CommandChunk;
class Fence;
class Semaphore;

struct SemaphoreOperation {
  Semaphore* semaphore;
  uint64_t value;  // timeline value; ignored for binary semaphores
};

// A command buffer a submission executes, held from vkQueueSubmit until the worker has read it for the last time
// (CommandBuffer::Hold, ReleaseLocked), and the stream it had when submitted: the worker reads that stream, never
// the command buffer's current one, which the application may reset meanwhile once the device is lost.
struct HeldStream {
  CommandBuffer* commandBuffer;
  const CommandChunk* stream;
};

// A primary command buffer of a batch. QueueWorker::Enqueue takes the holds and fills in the rest.
struct SubmittedCommandBuffer {
  explicit SubmittedCommandBuffer(CommandBuffer* primary) : commandBuffer(primary) {}
  CommandBuffer* commandBuffer;
  const CommandChunk* stream = nullptr;
  // The secondaries it executes, in execution order: Submission::secondaries[firstSecondary, + secondaryCount).
  uint32_t firstSecondary = 0;
  uint32_t secondaryCount = 0;
};

struct SubmitBatch {
  std::vector<SemaphoreOperation> waits;
  std::vector<SubmittedCommandBuffer> commandBuffers;
  std::vector<SemaphoreOperation> signals;
};

// A planned fault that fires when the queue reaches one of the submission's dispatches, draws or command-buffer
// label regions (queue/command_fault_scan.h).
struct CommandFault {
  uint32_t point = 0;  // index among the submission's fault points (IsFaultPoint), in execution order, from 0
  uint32_t fault = 0;  // as FaultEngine::OnCommand gave it
  std::string match;   // which match it was, e.g. "dispatch 3 of pipeline \"Blur\""
};

struct Submission {
  std::vector<SubmitBatch> batches;
  Fence* fence = nullptr;
  uint64_t serial = 0;  // per queue, from 1, in submission order
  uint32_t hangFault = 0;  // non-zero: the queue hangs at this submission (FaultEngine::OnSubmit / BeginHang)
  std::vector<CommandFault> commandFaults;  // in point order; empty unless the plan has command triggers
  std::vector<HeldStream> secondaries;      // see SubmittedCommandBuffer; empty without vkCmdExecuteCommands
};

}  // namespace crashtest
