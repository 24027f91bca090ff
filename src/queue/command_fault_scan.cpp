#include "queue/command_fault_scan.h"

#include <string_view>

#include "command/command_arena.h"
#include "command/command_buffer.h"
#include "command/command_records.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "fault/fault_engine.h"
#include "pipeline/pipeline.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "statistics/shader_statistics.h"

namespace crashtest {

// The walk over one submission: the executor's order (primaries in batch order, secondaries in place at their
// vkCmdExecuteCommands), the pipeline bound at each draw and dispatch.
struct CommandFaultScanner::Walk {
  Walk(CommandFaultScanner& s, FaultEngine& e, Submission& sub)
      : scanner(s), engine(e), submission(sub), identity(e.WantsPipelineIdentity()) {}

  CommandFaultScanner& scanner;
  FaultEngine& engine;
  Submission& submission;
  const bool identity;  // look up names and hashes (some trigger selects by them)
  uint32_t point = 0;
  VkPipeline compute = VK_NULL_HANDLE;
  VkPipeline graphics = VK_NULL_HANDLE;
  std::vector<FaultEngine::CommandMatch> fired;

  void Stream(const CommandArena& stream) {
    ForEachRecord(stream, [&](const CommandHeader& header, const void* record) { Record(header.op, record); });
  }

  void Record(CommandOp op, const void* record) {
    if (op == CommandOp::BindPipeline) {
      const auto* bind = static_cast<const record::BindPipeline*>(record);
      (bind->bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? compute : graphics) = bind->pipeline;
      return;
    }
    if (op == CommandOp::ExecuteCommands) {
      // "state ... is undefined" at the start of a secondary and after vkCmdExecuteCommands: nothing is inherited.
      const auto* execute = static_cast<const record::ExecuteCommands*>(record);
      const CommandBuffer* const* secondaries = PayloadOf<const CommandBuffer*>(execute);
      for (uint32_t i = 0; i < execute->count; ++i) {
        compute = graphics = VK_NULL_HANDLE;
        Stream(secondaries[i]->stream());
      }
      return;
    }
    if (!IsFaultPoint(op)) return;
    CommandEvent event;
    event.family = scanner.queue_.familyIndex();
    event.index = scanner.queue_.index();
    std::string name;
    if (op == CommandOp::BeginDebugUtilsLabelEXT) {
      const auto* label = static_cast<const record::DebugLabel*>(record);
      event.kind = FaultTriggerKind::Label;
      event.label = std::string_view(PayloadOf<char>(label), label->nameLength);
    } else {
      const bool dispatch = op == CommandOp::Dispatch || op == CommandOp::DispatchBase ||
                            op == CommandOp::DispatchIndirect;
      event.kind = dispatch ? FaultTriggerKind::Dispatch : FaultTriggerKind::Draw;
      const VkPipeline bound = dispatch ? compute : graphics;
      if (identity && bound != VK_NULL_HANDLE) {
        name = scanner.queue_.execution().names().Get(reinterpret_cast<uint64_t>(bound));
        event.pipelineName = name;
        event.shaderHashes = scanner.ShaderHashes(bound);
      }
    }
    fired.clear();
    engine.OnCommand(event, &fired);
    for (FaultEngine::CommandMatch& m : fired) submission.commandFaults.push_back({point, m.fault, std::move(m.match)});
    ++point;
  }
};

void CommandFaultScanner::Scan(Submission& submission) {
  FaultEngine& engine = queue_.device().faults();
  Walk scan(*this, engine, submission);
  for (SubmitBatch& batch : submission.batches)
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      // Bound state does not carry over between primary command buffers.
      scan.compute = scan.graphics = VK_NULL_HANDLE;
      scan.Stream(submitted.commandBuffer->stream());
    }
}

const std::vector<uint64_t>& CommandFaultScanner::ShaderHashes(VkPipeline handle) {
  const Pipeline* pipeline = FromHandle(handle);
  auto [it, inserted] = hashes_.try_emplace(pipeline->header.id);
  if (!inserted) return it->second;
  // The same statistic the executables report: computed with the device's machine model and each executable's
  // subgroup size.
  const MachineModel& model = queue_.device().physicalDevice().description().machine;
  std::span<const statistics::ExecutableInfo> executables = pipeline->Executables(model);
  std::span<const PipelineStage> stages = pipeline->stages();
  for (size_t i = 0; i < stages.size() && i < executables.size(); ++i)
    it->second.push_back(
        statistics::ComputeStatistics(*stages[i].shader, model, stages[i].stage, executables[i].subgroupSize).hash);
  return it->second;
}

}  // namespace crashtest
