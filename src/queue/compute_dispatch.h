// The queue side of compute work: the compute state a command stream binds (pipeline, descriptor sets with their
// dynamic offsets, push constants), flattened into the interpreter's bindings when a dispatch runs, and the fault
// a shader raises handed to the fault engine. The execution logic itself lives in src/execution.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "command/command_records.h"
#include "queue/bound_resources.h"

namespace crashtest {

class Pipeline;
class Queue;
struct PipelineStage;
namespace execution {
struct ShaderFault;
}

class ComputeDispatcher {
 public:
  explicit ComputeDispatcher(Queue& queue);

  // A primary command buffer starts with no compute state (Vulkan 1.3, 6.1).
  void Reset();
  void BindPipeline(const record::BindPipeline& bind);
  void BindDescriptorSets(const record::BindDescriptorSets& bind);
  void PushDescriptorSet(const record::PushDescriptorSet& push) { resources_.PushDescriptorSet(push); }
  void PushConstants(const record::PushConstants& push);
  // Runs `groups` workgroups from `base`. False when the dispatch lost the device (the submission stops there).
  // `where` names the command for reports ("command 3 (vkCmdDispatch) of submission 2 on queue 0 of family 0").
  bool Dispatch(const uint32_t base[3], const uint32_t groups[3], const std::string& where);
  const Pipeline* pipeline() const { return pipeline_; }

 private:
  Queue& queue_;
  const Pipeline* pipeline_ = nullptr;
  BoundResources resources_;
  FlatBindings flat_;  // reused across dispatches
  std::unordered_set<const Pipeline*> warned_;  // pipelines whose shader is not executed, already logged
};

}  // namespace crashtest
