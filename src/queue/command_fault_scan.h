// Command triggers of the fault plan (dispatch, draw, label regions inside command buffers): at vkQueueSubmit the
// submitted command buffers are walked once, each dispatch, draw and vkCmdBeginDebugUtilsLabelEXT is counted
// against the plan in submission order (FaultEngine::OnCommand), and the submission carries the points at which
// faults fire; the queue's executor fires them when it reaches those commands. Counting at submit time keeps runs
// deterministic whatever the timing of several queues; firing at execution makes the fault happen where a GPU's
// would, with the work before it done and the work after it abandoned.
//
// Only devices whose plan has a command trigger pay for the walk (FaultEngine::WatchesCommands()).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "command/command_ops.h"
#include "queue/submission.h"

namespace crashtest {

class Queue;

// The commands a command trigger can fire at. The executor numbers them the same way (CommandFault::point).
inline bool IsFaultPoint(CommandOp op) {
  switch (op) {
    case CommandOp::Draw:
    case CommandOp::DrawIndexed:
    case CommandOp::DrawIndirect:
    case CommandOp::DrawIndexedIndirect:
    case CommandOp::DrawIndirectCount:
    case CommandOp::DrawIndexedIndirectCount:
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase:
    case CommandOp::DispatchIndirect:
    case CommandOp::BeginDebugUtilsLabelEXT:
      return true;
    default:
      return false;
  }
}

class CommandFaultScanner {
 public:
  explicit CommandFaultScanner(Queue& queue) : queue_(queue) {}

  // Counts the submission's fault points against the device's plan and appends the faults that fire to
  // submission.commandFaults, in execution order.
  void Scan(Submission& submission);

 private:
  struct Walk;
  // The "Shader hash" statistic of each of the pipeline's executables, as VK_KHR_pipeline_executable_properties
  // reports it; computed once per pipeline (by object id: ids are never reused).
  const std::vector<uint64_t>& ShaderHashes(VkPipeline pipeline);

  Queue& queue_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> hashes_;
};

}  // namespace crashtest
