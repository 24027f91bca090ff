// One vkQueueSubmit / vkQueueSubmit2 call as the queue's worker runs it: batches in order, each waiting on its
// semaphores, executing its command buffers and signalling its semaphores, then the fence.
#pragma once

#include <cstdint>
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

struct Submission {
  std::vector<SubmitBatch> batches;
  Fence* fence = nullptr;
  uint64_t serial = 0;  // per queue, from 1, in submission order
  uint32_t hangFault = 0;  // non-zero: the queue hangs at this submission (FaultEngine::OnSubmit / BeginHang)
};

}  // namespace crashtest
