// Executor::Describe: what a crash dump says about the submission a queue was executing when the device was lost.
// Runs once per loss, on the executor's own thread, so it reads the held streams and the executor's state without
// locks; execution itself records nothing for it.
#include <cinttypes>
#include <cstdio>

#include "command/command_buffer.h"
#include "common/live_objects.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "execution/executable.h"
#include "pipeline/ir/printer.h"
#include "pipeline/pipeline.h"
#include "pipeline/spirv_tables.h"
#include "queue/device_execution.h"
#include "queue/executor.h"
#include "queue/queue.h"
#include "queue/queue_progress.h"
#include "statistics/statistic_table.h"

namespace crashtest {

namespace {

// A long command buffer lists the commands nearest the executing one: this many before it, kCommandsAfter after.
constexpr uint32_t kCommandsBefore = 2000;
constexpr uint32_t kCommandsAfter = 500;

uint64_t HandleValue(const void* object) { return reinterpret_cast<uint64_t>(object); }

std::string Named(const DeviceExecution& execution, const char* kind, uint64_t id, uint64_t handle) {
  std::string name = execution.names().Get(handle);
  return std::string(kind) + " " + std::to_string(id) + (name.empty() ? "" : " \"" + name + "\"");
}

// A command may name a buffer or image the application destroyed (the use after free this loss may report): its
// id comes from the live-object registry, never from the object, which may be gone.
std::string ResourceText(const DeviceExecution& execution, const char* kind, const void* object, VkObjectType type) {
  if (object == nullptr) return std::string("no ") + kind;
  live_objects::Entry entry;
  switch (live_objects::Find(object, type, &entry)) {
    case live_objects::State::Live: return Named(execution, kind, entry.id, HandleValue(object));
    case live_objects::State::Destroyed: return Named(execution, kind, entry.id, HandleValue(object)) + " (destroyed)";
    default: return std::string("a destroyed ") + kind;
  }
}
std::string BufferText(const DeviceExecution& execution, const Buffer* buffer) {
  return ResourceText(execution, "buffer", buffer, VK_OBJECT_TYPE_BUFFER);
}
std::string ImageText(const DeviceExecution& execution, const Image* image) {
  return ResourceText(execution, "image", image, VK_OBJECT_TYPE_IMAGE);
}

std::string PipelineText(const DeviceExecution& execution, VkPipeline handle) {
  const Pipeline* pipeline = handle != VK_NULL_HANDLE ? FromHandle(handle) : nullptr;
  return pipeline == nullptr ? "no pipeline"
                             : Named(execution, "pipeline", pipeline->header.id, reinterpret_cast<uint64_t>(handle));
}

// The detail a command's line shows in a dump.
std::string Detail(const DeviceExecution& execution, CommandOp op, const void* record) {
  char text[160];
  switch (op) {
    case CommandOp::BindPipeline: {
      const auto* r = static_cast<const record::BindPipeline*>(record);
      return PipelineText(execution, r->pipeline);
    }
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase: {
      const auto* r = static_cast<const record::Dispatch*>(record);
      std::snprintf(text, sizeof text, "%u x %u x %u workgroups", r->groupsX, r->groupsY, r->groupsZ);
      std::string out = text;
      if (r->baseX != 0 || r->baseY != 0 || r->baseZ != 0) {
        std::snprintf(text, sizeof text, " from (%u,%u,%u)", r->baseX, r->baseY, r->baseZ);
        out += text;
      }
      return out;
    }
    case CommandOp::DispatchIndirect: {
      const auto* r = static_cast<const record::DispatchIndirect*>(record);
      return "parameters in " + BufferText(execution, r->buffer) + " at offset " + std::to_string(r->offset);
    }
    case CommandOp::Draw: {
      const auto* r = static_cast<const record::Draw*>(record);
      std::snprintf(text, sizeof text, "%u vertices, %u instances", r->vertexCount, r->instanceCount);
      return text;
    }
    case CommandOp::DrawIndexed: {
      const auto* r = static_cast<const record::DrawIndexed*>(record);
      std::snprintf(text, sizeof text, "%u indices, %u instances", r->indexCount, r->instanceCount);
      return text;
    }
    case CommandOp::CopyBuffer:
    case CommandOp::CopyBuffer2: {
      const auto* r = static_cast<const record::CopyBuffer*>(record);
      return BufferText(execution, r->src) + " to " + BufferText(execution, r->dst);
    }
    case CommandOp::CopyImage:
    case CommandOp::CopyImage2: {
      const auto* r = static_cast<const record::CopyImage*>(record);
      return ImageText(execution, r->src) + " to " + ImageText(execution, r->dst);
    }
    case CommandOp::CopyBufferToImage:
    case CommandOp::CopyBufferToImage2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      return BufferText(execution, r->buffer) + " to " + ImageText(execution, r->image);
    }
    case CommandOp::CopyImageToBuffer:
    case CommandOp::CopyImageToBuffer2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      return ImageText(execution, r->image) + " to " + BufferText(execution, r->buffer);
    }
    case CommandOp::FillBuffer: {
      const auto* r = static_cast<const record::FillBuffer*>(record);
      return BufferText(execution, r->dst) + ", offset " + std::to_string(r->offset);
    }
    case CommandOp::UpdateBuffer: {
      const auto* r = static_cast<const record::UpdateBuffer*>(record);
      return BufferText(execution, r->dst) + ", offset " + std::to_string(r->offset);
    }
    case CommandOp::BeginDebugUtilsLabelEXT:
    case CommandOp::InsertDebugUtilsLabelEXT: {
      const auto* r = static_cast<const record::DebugLabel*>(record);
      return "\"" + std::string(PayloadOf<char>(r), r->nameLength) + "\"";
    }
    case CommandOp::WriteBufferMarkerAMD:
    case CommandOp::WriteBufferMarker2AMD: {
      const auto* r = static_cast<const record::BufferMarker*>(record);
      return "marker " + std::to_string(r->marker) + " to " + BufferText(execution, r->dst) + " at offset " +
             std::to_string(r->offset);
    }
    case CommandOp::SetCheckpointNV: {
      std::snprintf(text, sizeof text, "checkpoint 0x%" PRIx64, static_cast<const record::Checkpoint*>(record)->marker);
      return text;
    }
    default:
      return {};
  }
}

std::string StatisticText(const statistics::StatisticValue& s) {
  char text[64];
  switch (s.descriptor->format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      std::snprintf(text, sizeof text, "%" PRId64, s.value.i64);
      return text;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      std::snprintf(text, sizeof text, "%" PRIu64, s.value.u64);
      return text;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      std::snprintf(text, sizeof text, "%g", s.value.f64);
      return text;
    default: return "?";
  }
}

// The IR line of instruction `index` of block `block` in the printed module ("" when not found).
std::string IrLine(const pipeline::CompiledShader& shader, uint32_t block, uint32_t index) {
  const std::string text = ir::Print(shader.module);
  const std::string label = "\nblock" + std::to_string(block) + ":";
  size_t at = text.find(label);
  if (at == std::string::npos) return {};
  at = text.find('\n', at + 1);  // end of the label line
  for (uint32_t i = 0; at != std::string::npos && i < index; ++i) at = text.find('\n', at + 1);
  if (at == std::string::npos) return {};
  const size_t end = text.find('\n', at + 1);
  std::string line = text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
  const size_t first = line.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : line.substr(first);
}

dump::Pipeline DescribePipeline(const Device& device, const DeviceExecution& execution, const Pipeline& pipeline) {
  dump::Pipeline out;
  out.id = pipeline.header.id;
  out.name = execution.names().Get(reinterpret_cast<uint64_t>(ToHandle(&pipeline)));
  out.bindPoint = static_cast<uint32_t>(pipeline.bindPoint());
  const MachineModel& model = device.physicalDevice().description().machine;
  for (const PipelineStage& stage : pipeline.stages()) {
    dump::PipelineStageRecord record;
    record.stage = static_cast<uint32_t>(stage.stage);
    record.entryPoint = stage.entryPoint;
    if (stage.shader != nullptr) {
      const statistics::ShaderStatistics stats =
          statistics::ComputeStatistics(*stage.shader, model, stage.stage, stage.subgroupSize);
      record.hash = stats.hash;
      for (const statistics::StatisticValue& value : statistics::ListStatistics(stats))
        record.statistics.push_back({std::string(value.descriptor->name), StatisticText(value)});
    }
    out.stages.push_back(std::move(record));
  }
  return out;
}

// The faulting instruction of a shader fault: the report's instruction address is the operation's index in the
// executable form (docs/execution.md), which knows its IR position, SPIR-V id and OpLine.
bool DescribeShaderFault(const Pipeline& pipeline, uint64_t op, dump::ShaderFaultSite* out) {
  for (const PipelineStage& stage : pipeline.stages()) {
    if (stage.executable == nullptr) continue;
    const execution::Executable& exe = *stage.executable;
    if (op >= exe.ops.size() || exe.ops[op].site >= exe.sites.size()) continue;
    const execution::Site& site = exe.sites[exe.ops[op].site];
    out->stage = static_cast<uint32_t>(stage.stage);
    out->instruction = static_cast<uint32_t>(op);
    out->spirvId = site.spirvId;
    out->spirvOpcode = site.spirvOp;
    out->spirvOpName = spirv::OpcodeName(site.spirvOp);
    out->line = site.line;
    out->column = site.column;
    if (site.line != 0 && site.file < exe.sourceFiles.size()) out->file = exe.sourceFiles[site.file];
    if (stage.shader != nullptr) out->irText = IrLine(*stage.shader, site.irBlock, site.irIndex);
    return true;
  }
  return false;
}

// Lists `submission` as the executor numbers its commands (every command buffer in submission order, a
// secondary's commands before the vkCmdExecuteCommands that runs them), `executing` being the command the queue
// was at (kNoCommand: it had not started one, e.g. hung at the submit). Leaves the pipelines bound at that
// command in `bound` (compute, graphics). Returns how many commands the submission has.
uint32_t DescribeSubmission(const Queue& queue, const DeviceExecution& execution, const Submission& submission,
                            uint32_t executing, dump::Submission& out, VkPipeline bound[2]) {
  out.family = queue.familyIndex();
  out.queue = queue.index();
  out.serial = submission.serial;
  out.executing = executing;
  // Queue label regions enclose everything submitted inside them; command-buffer regions follow (they may open in
  // one command buffer and close in a later one of the submission).
  out.labels = queue.labels();
  const size_t queueLabels = out.labels.size();
  bound[0] = bound[1] = VK_NULL_HANDLE;

  uint32_t index = 0;
  auto walk = [&](auto& self, const CommandChunk* stream, const HeldStream*& secondaries, CommandBuffer* owner,
                  bool secondary) -> void {
    dump::CommandBufferRecord record;
    record.id = owner != nullptr ? owner->header.id : 0;
    record.name = owner != nullptr ? execution.names().Get(HandleValue(ToHandle(owner))) : std::string();
    record.secondary = secondary;
    const size_t slot = out.commandBuffers.size();
    out.commandBuffers.push_back({});
    ForEachRecord(stream, [&](const CommandHeader& header, const void* rec) {
      if (header.op == CommandOp::ExecuteCommands) {
        const auto* execute = static_cast<const record::ExecuteCommands*>(rec);
        for (uint32_t i = 0; i < execute->count; ++i) {
          const HeldStream& held = *secondaries++;
          const HeldStream* none = nullptr;
          self(self, held.stream, none, held.commandBuffer, true);
        }
      }
      const uint32_t n = index++;
      if (n < executing) {
        if (header.op == CommandOp::BeginDebugUtilsLabelEXT) {
          const auto* r = static_cast<const record::DebugLabel*>(rec);
          out.labels.emplace_back(PayloadOf<char>(r), r->nameLength);
        } else if (header.op == CommandOp::EndDebugUtilsLabelEXT && out.labels.size() > queueLabels) {
          out.labels.pop_back();
        } else if (header.op == CommandOp::BindPipeline) {
          const auto* r = static_cast<const record::BindPipeline*>(rec);
          bound[r->bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE ? 0 : 1] = r->pipeline;
        }
      }
      if (n == executing) {
        out.executingName = CommandName(header.op);
        out.executingDetail = Detail(execution, header.op, rec);
        out.executingCommandBuffer = record.id;
        if (header.op == CommandOp::Dispatch || header.op == CommandOp::DispatchBase ||
            header.op == CommandOp::DispatchIndirect) {
          const std::string pipeline = PipelineText(execution, bound[0]);
          out.executingDetail = out.executingDetail.empty() ? pipeline : pipeline + ", " + out.executingDetail;
        }
      }
      // Bounded around the executing command (or the start, when none was executing).
      const uint32_t centre = executing == dump::kNoCommand ? 0 : executing;
      if (n + kCommandsBefore < centre || n > centre + kCommandsAfter) return;
      dump::Command command;
      command.index = n;
      command.name = CommandName(header.op);
      command.detail = Detail(execution, header.op, rec);
      command.state = n < executing    ? dump::CommandState::Completed
                      : n == executing ? dump::CommandState::Executing
                                       : dump::CommandState::NotRun;
      record.commands.push_back(std::move(command));
    });
    out.commandBuffers[slot] = std::move(record);
  };
  // Every command buffer of the submission is held until the submission ends (QueueWorker::Process), those
  // completed before the executing one included.
  for (const SubmitBatch& batch : submission.batches) {
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      // Bound state does not carry over between primary command buffers (Vulkan 1.3, 6.1).
      if (index < executing) bound[0] = bound[1] = VK_NULL_HANDLE;
      const HeldStream* secondaries = submission.secondaries.data() + submitted.firstSecondary;
      walk(walk, submitted.stream, secondaries, submitted.commandBuffer, false);
    }
  }
  if (out.executingName.empty()) out.executing = dump::kNoCommand;
  return index;
}

// The pipelines bound at the executing command, described once each; a shader fault names its instruction in
// the compute pipeline of the queue that raised it.
void DescribePipelines(const Device& device, const DeviceExecution& execution, const VkPipeline bound[2],
                       std::span<const FaultReport> reports, bool shaderFaultHere, dump::Content& content) {
  uint64_t faultOp = UINT64_MAX;
  for (const FaultReport& report : reports)
    if (report.flags & VK_DEVICE_FAULT_FLAG_INSTRUCTION_ADDRESS_BIT_KHR)
      faultOp = report.instructionAddressInfo.reportedAddress;
  for (int slot : {0, 1}) {
    if (bound[slot] == VK_NULL_HANDLE) continue;
    const Pipeline& pipeline = *FromHandle(bound[slot]);
    bool listed = false;
    for (const dump::Pipeline& p : content.pipelines) listed = listed || p.id == pipeline.header.id;
    if (listed) continue;
    dump::Pipeline described = DescribePipeline(device, execution, pipeline);
    if (shaderFaultHere && slot == 0 && faultOp != UINT64_MAX)
      described.hasFault = DescribeShaderFault(pipeline, faultOp, &described.fault);
    content.pipelines.push_back(std::move(described));
  }
}

}  // namespace

void Executor::Describe(dump::Submission& out, VkPipeline bound[2]) const {
  bound[0] = bound[1] = VK_NULL_HANDLE;
  if (submission_ == nullptr) return;
  DescribeSubmission(queue_, execution_, *submission_, cursor_.command, out, bound);
}

void Executor::DescribeFromAnotherThread(dump::Submission& out, VkPipeline bound[2]) const {
  bound[0] = bound[1] = VK_NULL_HANDLE;
  const Submission* submission = running_.load(std::memory_order_acquire);
  if (submission == nullptr) {
    out.family = queue_.familyIndex();
    out.queue = queue_.index();
    out.serial = 0;
    out.executing = dump::kNoCommand;
    out.executingDetail = "idle: no submission executing";
    return;
  }
  // A planned hang at the submit stops the queue before its first command. Otherwise the queue executes a
  // command, or stands between two (it completed one and has not started the next, waiting on a batch's
  // semaphores or not): then no command executes, and the pipelines listed are those bound where it stands.
  const bool hungAtSubmit = submission->hangFault != 0;
  const bool waiting = waiting_.load(std::memory_order_relaxed);
  const uint64_t progress = progress_.load(std::memory_order_relaxed);
  const uint32_t command = QueueProgress::Command(progress);
  const uint32_t total =
      DescribeSubmission(queue_, execution_, *submission, hungAtSubmit ? dump::kNoCommand : command, out, bound);
  if (hungAtSubmit) {
    for (dump::CommandBufferRecord& record : out.commandBuffers)
      for (dump::Command& c : record.commands) c.state = dump::CommandState::NotRun;
    out.executingDetail = "hung at the submission (planned hang): no command started";
  } else if (waiting || !QueueProgress::IsExecuting(progress)) {
    DescribeBetweenCommands(out, command, total, waiting ? "waiting on semaphores " : "");
  }
}

void DescribeQueuedSubmission(const Queue& queue, const Submission& submission, dump::QueuedSubmission& out) {
  dump::Submission described;
  VkPipeline bound[2];
  DescribeSubmission(queue, ExecutionOf(queue.device()), submission, 0, described, bound);
  out.family = described.family;
  out.queue = described.queue;
  out.serial = described.serial;
  out.commandBuffers = std::move(described.commandBuffers);
  for (dump::CommandBufferRecord& record : out.commandBuffers)
    for (dump::Command& c : record.commands) c.state = dump::CommandState::NotRun;
}

void DescribeQueues(const Device& device, std::span<const FaultReport> reports, const std::string& faultId,
                    dump::Content& content) {
  const DeviceExecution& execution = ExecutionOf(device);
  // The losing thread runs a queue of this device (a command or shader fault): it says where it was, first.
  const Executor* here = Executor::OnThisThread();
  if (here != nullptr && &here->device() != &device) here = nullptr;
  VkPipeline bound[2];
  if (here != nullptr) {
    dump::Submission out;
    here->Describe(out, bound);
    if (!out.commandBuffers.empty()) content.submissions.push_back(std::move(out));
    const bool shaderFault = faultId == "shader-fault" || faultId == "shader-timeout";
    DescribePipelines(device, execution, bound, reports, shaderFault, content);
  }
  // Every other queue, as far as it got: under the execution lock, which keeps what it runs alive; the loss is
  // not visible yet, so the application destroys nothing the submissions use meanwhile.
  std::vector<VkPipeline> others;
  ExecutionOf(device).RunLocked([&](bool) {
    for (const Queue* queue : device.queues()) {
      const Executor& executor = queue->executor();
      if (&executor == here) continue;
      dump::Submission out;
      executor.DescribeFromAnotherThread(out, bound);
      content.submissions.push_back(std::move(out));
      others.insert(others.end(), bound, bound + 2);
    }
  });
  for (size_t i = 0; i + 1 < others.size(); i += 2)
    DescribePipelines(device, execution, &others[i], reports, false, content);
  // What each queue holds queued behind its running submission (under its worker's lock: a submission is either
  // queued there or published as running, never neither). Under the execution lock too, as above: nothing the
  // queued command buffers use is destroyed meanwhile.
  ExecutionOf(device).RunLocked([&](bool) {
    if (here != nullptr) here->queue().DescribeQueued(content.queued);
    for (const Queue* queue : device.queues())
      if (here == nullptr || &queue->executor() != here) queue->DescribeQueued(content.queued);
  });
}

}  // namespace crashtest
