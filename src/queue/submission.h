// One vkQueueSubmit / vkQueueSubmit2 call as the queue's worker runs it: batches in order, each waiting on its
// semaphores, executing its command buffers and signalling its semaphores, then the fence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest {

class CommandBuffer;
class Fence;
class Semaphore;

struct SemaphoreOperation {
  Semaphore* semaphore;
  uint64_t value;  // timeline value; ignored for binary semaphores
};

struct SubmitBatch {
  std::vector<SemaphoreOperation> waits;
  std::vector<CommandBuffer*> commandBuffers;
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
};

}  // namespace crashtest
