#include "queue/executor.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <span>

#include "command/command_buffer.h"
#include "command/query_pool.h"
#include "common/checked_math.h"
#include "common/log.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "fault/fault_engine.h"
#include "pipeline/pipeline.h"
#include "queue/command_fault_scan.h"
#include "queue/descriptor_set_liveness.h"
#include "queue/device_execution.h"
#include "queue/event.h"
#include "queue/queue.h"
#include "queue/resource_liveness.h"
#include "queue/queue_progress.h"
#include "transfer/transfer_ops.h"

namespace crashtest {

namespace {

template <typename T, typename R>
std::span<const T> Regions(const R* record) {
  return {PayloadOf<T>(record), record->regionCount};
}

// An indirect command of `buffer` at `offset` (the buffer is bound: VUID-vkCmdDrawIndirect-buffer-02708).
template <typename T>
bool ReadIndirect(const Buffer* buffer, VkDeviceSize offset, T* out) {
  if (buffer == nullptr || buffer->data() == nullptr || SaturatingAdd(offset, sizeof(T)) > buffer->size()) return false;
  std::memcpy(out, buffer->data() + offset, sizeof(T));
  return true;
}

}  // namespace

Executor::Executor(Queue& queue)
    : queue_(queue), execution_(queue.execution()), compute_(queue), graphics_(queue) {
  const DeviceDescription& description = queue.device().physicalDevice().description();
  float period = description.properties.limits.timestampPeriod;
  ticksPerNanosecond_ = period > 0.0f ? 1.0 / static_cast<double>(period) : 1.0;
  uint32_t validBits = queue.familyIndex() < description.queueFamilies.size()
                           ? description.queueFamilies[queue.familyIndex()].timestampValidBits
                           : 0;
  timestampMask_ = validBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << validBits) - 1;
  if (description.timestamps.clock == TimestampModel::Clock::Simulated) simulatedClock_ = &description.timestamps;
}

uint64_t Executor::Timestamp() const {
  auto ns = simulatedClock_ != nullptr ? simulatedNanoseconds_
                                       : static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                                   std::chrono::steady_clock::now().time_since_epoch())
                                                                   .count());
  return static_cast<uint64_t>(static_cast<double>(ns) * ticksPerNanosecond_) & timestampMask_;
}

// The simulated clock: every command costs commandNanoseconds, draws and dispatches their own cost, so a
// timestamp after N commands always reads the same value.
void Executor::AdvanceSimulatedClock(CommandOp op) {
  switch (op) {
    case CommandOp::Draw:
    case CommandOp::DrawIndexed:
    case CommandOp::DrawIndirect:
    case CommandOp::DrawIndexedIndirect:
    case CommandOp::DrawIndirectCount:
    case CommandOp::DrawIndexedIndirectCount:
      simulatedNanoseconds_ += simulatedClock_->drawNanoseconds;
      return;
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase:
    case CommandOp::DispatchIndirect:
      simulatedNanoseconds_ += simulatedClock_->dispatchNanoseconds;
      return;
    default:
      simulatedNanoseconds_ += simulatedClock_->commandNanoseconds;
      return;
  }
}

void Executor::BeginSubmission(const Submission& submission) {
  submission_ = &submission;
  cursor_ = ExecutionCursor{submission.serial, 0, CommandOp::Count};
  progress_.store(QueueProgress::Completed(0), std::memory_order_relaxed);
  running_.store(&submission, std::memory_order_release);
  nextFault_ = submission.commandFaults.data();
  lastFault_ = submission.commandFaults.data() + submission.commandFaults.size();
  faultPoint_ = 0;
}

bool Executor::ReachFaultPoint(CommandOp op) {
  const uint32_t point = faultPoint_++;
  while (nextFault_ != lastFault_ && nextFault_->point == point) {
    const CommandFault& planned = *nextFault_++;
    // Every position in a message counts from 1, as submissions and dispatches do (docs/faults.md, "Numbering").
    const std::string context = "at " + planned.match + " (command " + std::to_string(cursor_.command + 1) + ", " +
                                CommandName(op) + ", of submission " + std::to_string(cursor_.submission) +
                                " on queue " + std::to_string(queue_.index()) + " of family " +
                                std::to_string(queue_.familyIndex()) + ")";
    switch (queue_.device().faults().FireAtCommand(planned.fault, context)) {
      case CommandFaultOutcome::Continue:
        break;
      case CommandFaultOutcome::Hang:
        // The queue makes no progress until the watchdog loses the device (or the device is destroyed).
        queue_.execution().Wait(UINT64_MAX, [] { return false; });
        nextFault_ = lastFault_;
        return false;
      case CommandFaultOutcome::Stop:
        nextFault_ = lastFault_;
        return false;
    }
  }
  return true;
}

namespace {
thread_local const Executor* tExecutorOnThisThread = nullptr;
}  // namespace

const Executor* Executor::OnThisThread() { return tExecutorOnThisThread; }

const Device& Executor::device() const { return queue_.device(); }

bool Executor::Execute(const CommandChunk* stream, const HeldStream* secondaries) {
  // A loss raised while this thread runs the stream (a command fault, a shader fault) describes where it was.
  struct OnThisThreadScope {
    const Executor* previous = tExecutorOnThisThread;
    explicit OnThisThreadScope(const Executor* executor) { tExecutorOnThisThread = executor; }
    ~OnThisThreadScope() { tExecutorOnThisThread = previous; }
  } scope(this);
  // Dynamic state and render-pass instances do not carry over between primary command buffers (Vulkan 1.3,
  // 6.1: "each primary command buffer ... state is undefined" at its start).
  topology_ = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  rendering_ = RenderingState{};
  compute_.Reset();
  graphics_.Reset();
  nextSecondary_ = secondaries;
  return RunStream(stream);
}

bool Executor::RunStream(const CommandChunk* stream) {
  bool live = true;
  // Returning false abandons the rest once the device is lost (or being destroyed). The stream itself stays
  // readable until the submission releases its hold, whenever the application frees the command buffer.
  ForEachRecord(stream, [&](const CommandHeader& header, const void* record) -> bool {
    cursor_.op = header.op;
    // Started before its fault point: a queue hung at a command is executing it.
    progress_.store(QueueProgress::Started(cursor_.command), std::memory_order_relaxed);
    // One predictable branch per command when no command fault is pending (every submission of a device whose
    // plan has no command trigger).
    if (nextFault_ != lastFault_ && IsFaultPoint(header.op)) [[unlikely]] {
      if (!ReachFaultPoint(header.op)) return live = false;
    }
    // A loss from elsewhere (a timed or injected fault, another queue) abandons the rest at the next command.
    if (execution_.lost()) [[unlikely]] return live = false;
    if (simulatedClock_ != nullptr) AdvanceSimulatedClock(header.op);
    live = Run(header.op, record);
    progress_.store(QueueProgress::Completed(++cursor_.command), std::memory_order_relaxed);
    return live;
  });
  return live;
}

bool Executor::Run(CommandOp op, const void* record) {
  switch (op) {
    case CommandOp::CopyBuffer:
    case CommandOp::CopyBuffer2:
    case CommandOp::CopyImage:
    case CommandOp::CopyImage2:
    case CommandOp::BlitImage:
    case CommandOp::BlitImage2:
    case CommandOp::CopyBufferToImage:
    case CommandOp::CopyBufferToImage2:
    case CommandOp::CopyImageToBuffer:
    case CommandOp::CopyImageToBuffer2:
    case CommandOp::UpdateBuffer:
    case CommandOp::FillBuffer:
    case CommandOp::ClearColorImage:
    case CommandOp::ClearDepthStencilImage:
    case CommandOp::ResolveImage:
    case CommandOp::ResolveImage2:
      // A buffer or image destroyed (or whose memory was freed) while this work was pending: a device fault, not a
      // read of freed memory (queue/resource_liveness.h). The command then does not run.
      if (!CommandResourcesLive(queue_, op, record, Where(op))) [[unlikely]] return !execution_.lost();
      RunTransfer(op, record);
      return true;
    case CommandOp::SetEvent:
    case CommandOp::SetEvent2:
    case CommandOp::ResetEvent:
    case CommandOp::ResetEvent2:
    case CommandOp::WaitEvents:
    case CommandOp::WaitEvents2:
      return RunSync(op, record);
    case CommandOp::BeginQuery:
    case CommandOp::EndQuery:
    case CommandOp::ResetQueryPool:
    case CommandOp::WriteTimestamp:
    case CommandOp::WriteTimestamp2:
    case CommandOp::CopyQueryPoolResults:
      // A destroyed query pool, or a destination buffer destroyed or whose memory was freed: a device fault.
      if (!CommandResourcesLive(queue_, op, record, Where(op))) [[unlikely]] return !execution_.lost();
      RunQuery(op, record);
      return true;
    case CommandOp::Draw:
    case CommandOp::DrawIndexed:
    case CommandOp::DrawIndirect:
    case CommandOp::DrawIndexedIndirect:
    case CommandOp::DrawIndirectCount:
    case CommandOp::DrawIndexedIndirectCount:
      // Indirect and count buffers: as for transfers (the draw's other resources are checked as it flattens them).
      if (!CommandResourcesLive(queue_, op, record, Where(op))) [[unlikely]] return !execution_.lost();
      return RunDraw(op, record);  // counted by what it draws (pipeline statistics)
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase:
    case CommandOp::DispatchIndirect:
      if (!CommandResourcesLive(queue_, op, record, Where(op))) [[unlikely]] return !execution_.lost();
      CountWork(op, record);
      return RunDispatch(op, record);
    case CommandOp::BindPipeline:
      compute_.BindPipeline(*static_cast<const record::BindPipeline*>(record));
      graphics_.BindPipeline(*static_cast<const record::BindPipeline*>(record));
      return true;
    case CommandOp::BindDescriptorSets: {
      // The bind reads the sets' layouts: sets freed (or whose pool was reset or destroyed) since they were
      // recorded fault here rather than be read (queue/descriptor_set_liveness.h).
      const auto& bind = *static_cast<const record::BindDescriptorSets*>(record);
      const auto* refs = PayloadOf<record::DescriptorSetRef>(&bind);
      DescriptorSetLocks locks(queue_);
      for (uint32_t i = 0; i < bind.setCount; ++i)
        if (!locks.Acquire(refs[i])) [[unlikely]] {
          locks.RaiseFault(Where(op));
          return !execution_.lost();
        }
      compute_.BindDescriptorSets(bind);
      graphics_.BindDescriptorSets(bind);
      return true;
    }
    case CommandOp::PushDescriptorSetKHR:
    case CommandOp::PushDescriptorSetWithTemplateKHR:
      compute_.PushDescriptorSet(*static_cast<const record::PushDescriptorSet*>(record));
      graphics_.PushDescriptorSet(*static_cast<const record::PushDescriptorSet*>(record));
      return true;
    case CommandOp::PushConstants:
      compute_.PushConstants(*static_cast<const record::PushConstants*>(record));
      graphics_.PushConstants(*static_cast<const record::PushConstants*>(record));
      return true;
    case CommandOp::SetPrimitiveTopology:
      topology_ = static_cast<VkPrimitiveTopology>(static_cast<const record::SetFlags*>(record)->flags);
      graphics_.SetState(op, record);
      return true;
    case CommandOp::BeginRenderPass:
    case CommandOp::BeginRenderPass2:
      if (!BeginRenderPass(*static_cast<const record::BeginRenderPass*>(record), Where(op))) [[unlikely]]
        return !execution_.lost();
      return true;
    case CommandOp::NextSubpass:
    case CommandOp::NextSubpass2:
      NextSubpass();
      return true;
    case CommandOp::EndRenderPass:
    case CommandOp::EndRenderPass2:
      EndRenderPass();
      return true;
    case CommandOp::EndRendering:
      EndRendering();
      return true;
    case CommandOp::BeginRendering:
      if (!BeginRendering(*static_cast<const record::BeginRendering*>(record), Where(op))) [[unlikely]]
        return !execution_.lost();
      return true;
    case CommandOp::ClearAttachments:
      ClearAttachments(*static_cast<const record::ClearAttachments*>(record));
      return true;
    case CommandOp::ExecuteCommands: {
      const auto* execute = static_cast<const record::ExecuteCommands*>(record);
      // Secondaries inherit the render pass instance and run inside this submission's command numbering. Their
      // streams are the ones held at submit (QueueWorker::Enqueue walked these records in the same order).
      for (uint32_t i = 0; i < execute->count; ++i)
        if (!RunStream((nextSecondary_++)->stream)) return false;
      return true;
    }
    case CommandOp::WriteBufferMarkerAMD:
    case CommandOp::WriteBufferMarker2AMD: {
      // "the marker value is written ... when all prior commands have completed executing the specified pipeline
      // stage" (vkCmdWriteBufferMarkerAMD): commands run in order on one thread, so that is now.
      const auto* r = static_cast<const record::BufferMarker*>(record);
      if (!CommandResourcesLive(queue_, op, record, Where(op))) [[unlikely]] return !execution_.lost();
      if (r->dst->data() != nullptr && r->offset <= r->dst->size() && r->dst->size() - r->offset >= 4)
        std::memcpy(r->dst->data() + r->offset, &r->marker, sizeof(r->marker));
      queue_.breadcrumbs().Marker(r->dst->header.id, r->offset, r->marker, r->stage);
      return true;
    }
    case CommandOp::SetCheckpointNV:
      queue_.breadcrumbs().Checkpoint(static_cast<const record::Checkpoint*>(record)->marker);
      return true;
    default:
      // Graphics state (vertex and index buffers, dynamic state) is kept for the draws that follow; barriers and
      // labels change nothing a CPU-executed command depends on: they stay in the stream for reports and dumps.
      graphics_.SetState(op, record);
      return true;
  }
}

void Executor::RunTransfer(CommandOp op, const void* record) {
  switch (op) {
    case CommandOp::CopyBuffer:
    case CommandOp::CopyBuffer2: {
      const auto* r = static_cast<const record::CopyBuffer*>(record);
      transfer::CopyBuffer(*r->src, *r->dst, Regions<VkBufferCopy2>(r));
      break;
    }
    case CommandOp::CopyImage:
    case CommandOp::CopyImage2: {
      const auto* r = static_cast<const record::CopyImage*>(record);
      transfer::CopyImage(*r->src, *r->dst, Regions<VkImageCopy2>(r));
      break;
    }
    case CommandOp::BlitImage:
    case CommandOp::BlitImage2: {
      const auto* r = static_cast<const record::BlitImage*>(record);
      transfer::BlitImage(*r->src, *r->dst, Regions<VkImageBlit2>(r), r->filter);
      break;
    }
    case CommandOp::CopyBufferToImage:
    case CommandOp::CopyBufferToImage2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      transfer::CopyBufferToImage(*r->buffer, *r->image, Regions<VkBufferImageCopy2>(r));
      break;
    }
    case CommandOp::CopyImageToBuffer:
    case CommandOp::CopyImageToBuffer2: {
      const auto* r = static_cast<const record::BufferImageCopy*>(record);
      transfer::CopyImageToBuffer(*r->image, *r->buffer, Regions<VkBufferImageCopy2>(r));
      break;
    }
    case CommandOp::UpdateBuffer: {
      const auto* r = static_cast<const record::UpdateBuffer*>(record);
      transfer::UpdateBuffer(*r->dst, r->offset, {PayloadOf<std::byte>(r), static_cast<size_t>(r->size)});
      break;
    }
    case CommandOp::FillBuffer: {
      const auto* r = static_cast<const record::FillBuffer*>(record);
      transfer::FillBuffer(*r->dst, r->offset, r->size, r->data);
      break;
    }
    case CommandOp::ClearColorImage: {
      const auto* r = static_cast<const record::ClearColorImage*>(record);
      transfer::ClearColorImage(*r->image, r->color, {PayloadOf<VkImageSubresourceRange>(r), r->rangeCount});
      break;
    }
    case CommandOp::ClearDepthStencilImage: {
      const auto* r = static_cast<const record::ClearDepthStencilImage*>(record);
      transfer::ClearDepthStencilImage(*r->image, r->value, {PayloadOf<VkImageSubresourceRange>(r), r->rangeCount});
      break;
    }
    case CommandOp::ResolveImage:
    case CommandOp::ResolveImage2: {
      const auto* r = static_cast<const record::ResolveImage*>(record);
      transfer::ResolveImage(*r->src, *r->dst, Regions<VkImageResolve2>(r));
      break;
    }
    default:
      break;
  }
}

bool Executor::RunSync(CommandOp op, const void* record) {
  switch (op) {
    case CommandOp::SetEvent:
    case CommandOp::SetEvent2:
      static_cast<const record::EventStage*>(record)->event->Set();
      return true;
    case CommandOp::ResetEvent:
    case CommandOp::ResetEvent2:
      static_cast<const record::EventStage*>(record)->event->Reset();
      return true;
    case CommandOp::WaitEvents:
    case CommandOp::WaitEvents2: {
      // Work after the wait must not start before each event is set, from the host or another queue (Vulkan 1.3,
      // 7.5 "Events"); on a CPU queue that means blocking the worker.
      const auto* wait = static_cast<const record::WaitEvents*>(record);
      Event* const* events = PayloadOf<Event*>(wait);
      for (uint32_t i = 0; i < wait->eventCount; ++i)
        if (!events[i]->WaitOnQueue()) return false;
      return true;
    }
    default:
      return true;
  }
}

void Executor::RunQuery(CommandOp op, const void* record) {
  switch (op) {
    case CommandOp::BeginQuery: {
      const auto* r = static_cast<const record::BeginQuery*>(record);
      activeQueries_.push_back(ActiveQuery{r->pool, r->query, counters_, samplesPassed_});
      break;
    }
    case CommandOp::EndQuery: {
      const auto* r = static_cast<const record::EndQuery*>(record);
      for (size_t i = 0; i < activeQueries_.size(); ++i) {
        ActiveQuery& active = activeQueries_[i];
        if (active.pool != r->pool || active.query != r->query) continue;
        uint64_t values[32] = {};
        // Occlusion: the samples that passed every fragment test between begin and end.
        if (r->pool->type() == VK_QUERY_TYPE_OCCLUSION) values[0] = samplesPassed_ - active.startSamples;
        if (r->pool->type() == VK_QUERY_TYPE_PIPELINE_STATISTICS)
          StatisticValues(r->pool->statistics(), active.start, counters_, values);
        r->pool->Write(r->query, values);
        activeQueries_.erase(activeQueries_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      break;
    }
    case CommandOp::ResetQueryPool: {
      const auto* r = static_cast<const record::ResetQueryPool*>(record);
      r->pool->Reset(r->first, r->count);
      break;
    }
    case CommandOp::WriteTimestamp:
    case CommandOp::WriteTimestamp2: {
      const auto* r = static_cast<const record::WriteTimestamp*>(record);
      uint64_t value = Timestamp();
      r->pool->Write(r->query, &value);
      break;
    }
    case CommandOp::CopyQueryPoolResults: {
      const auto* r = static_cast<const record::CopyQueryPoolResults*>(record);
      // The results must lie in the buffer (VUID-vkCmdCopyQueryPoolResults-dstOffset-00819, -dstBuffer-00824):
      // checked here, with overflow-safe arithmetic, so a bad offset or stride cannot write outside it.
      const uint32_t queries = r->first < r->pool->queryCount() ? std::min(r->count, r->pool->queryCount() - r->first) : 0;
      const uint64_t bytesPerQuery = (uint64_t{r->pool->valuesPerQuery()} +
                                      ((r->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0 ? 1 : 0)) *
                                     ((r->flags & VK_QUERY_RESULT_64_BIT) != 0 ? 8 : 4);
      const uint64_t end =
          queries == 0 ? 0 : SaturatingAdd(SaturatingAdd(r->dstOffset, SaturatingMul(queries - 1, r->stride)), bytesPerQuery);
      if (r->dst->data() == nullptr || end > r->dst->size()) {
        CT_WARN("vkCmdCopyQueryPoolResults: %u results at offset %llu, stride %llu do not fit the %llu-byte buffer "
                "or it is unbound (VUID-vkCmdCopyQueryPoolResults-dstOffset-00819); skipped",
                queries, static_cast<unsigned long long>(r->dstOffset), static_cast<unsigned long long>(r->stride),
                static_cast<unsigned long long>(r->dst->size()));
        break;
      }
      if (queries != 0) r->pool->Results(r->first, queries, r->dst->data() + r->dstOffset, r->stride, r->flags);
      break;
    }
    default:
      break;
  }
}

// Invocations per workgroup of the bound compute pipeline: "compute shader invocations" count every invocation
// (VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT).
uint64_t Executor::LocalInvocations() const {
  const Pipeline* pipeline = compute_.pipeline();
  if (pipeline == nullptr) return 0;
  const uint32_t* size = pipeline->workgroupSize();
  return uint64_t{size[0]} * size[1] * size[2];
}

std::string Executor::Where(CommandOp op) const {
  return "command " + std::to_string(cursor_.command + 1) + " (" + CommandName(op) + ") of submission " +
         std::to_string(cursor_.submission) + " on queue " + std::to_string(queue_.index()) + " of family " +
         std::to_string(queue_.familyIndex());
}

bool Executor::RunDispatch(CommandOp op, const void* record) {
  uint32_t base[3] = {0, 0, 0}, groups[3];
  if (op == CommandOp::DispatchIndirect) {
    const auto* r = static_cast<const record::DispatchIndirect*>(record);
    VkDispatchIndirectCommand command;
    if (!ReadIndirect(r->buffer, r->offset, &command)) return true;
    groups[0] = command.x, groups[1] = command.y, groups[2] = command.z;
  } else {
    const auto* r = static_cast<const record::Dispatch*>(record);
    base[0] = r->baseX, base[1] = r->baseY, base[2] = r->baseZ;
    groups[0] = r->groupsX, groups[1] = r->groupsY, groups[2] = r->groupsZ;
  }
  const Pipeline* pipeline = compute_.pipeline();
  const auto start = std::chrono::steady_clock::now();
  const bool live = compute_.Dispatch(base, groups, Where(op));
  if (live && pipeline != nullptr)
    dispatchHistory_.Record(pipeline->header.id, uint64_t{groups[0]} * groups[1] * groups[2],
                            std::chrono::steady_clock::now() - start);
  return live;
}

bool Executor::RunDraw(CommandOp op, const void* record) {
  const DrawAttachments attachments = CurrentAttachments();
  const std::string where = Where(op);
  auto draw = [&](raster::DrawCall call) {
    if (call.indexed && !graphics_.IndexBuffer(&call, where)) [[unlikely]] return !execution_.lost();
    raster::DrawOutcome outcome;
    bool executed = false;
    const bool live = graphics_.Draw(call, attachments, where, &outcome, &executed);
    samplesPassed_ += outcome.fragmentsPassed;
    if (executed)
      CountExecutedDraw(counters_, outcome.inputVertices, outcome.primitives, outcome.vertexInvocations,
                        outcome.clippingInvocations, outcome.clippingPrimitives, outcome.fragmentInvocations);
    else
      CountDraw(counters_, topology_, call.count, call.instanceCount);  // what it would have counted
    return live;
  };
  switch (op) {
    case CommandOp::Draw: {
      const auto* r = static_cast<const record::Draw*>(record);
      raster::DrawCall call;
      call.count = r->vertexCount, call.instanceCount = r->instanceCount;
      call.first = r->firstVertex, call.firstInstance = r->firstInstance;
      return draw(call);
    }
    case CommandOp::DrawIndexed: {
      const auto* r = static_cast<const record::DrawIndexed*>(record);
      raster::DrawCall call;
      call.indexed = true;
      call.count = r->indexCount, call.instanceCount = r->instanceCount, call.first = r->firstIndex;
      call.vertexOffset = r->vertexOffset, call.firstInstance = r->firstInstance;
      return draw(call);
    }
    default: {
      // The parameters live in device memory at execution time, as on a GPU.
      const bool indexed = op == CommandOp::DrawIndexedIndirect || op == CommandOp::DrawIndexedIndirectCount;
      const Buffer* buffer;
      VkDeviceSize offset;
      uint32_t drawCount, stride;
      if (op == CommandOp::DrawIndirect || op == CommandOp::DrawIndexedIndirect) {
        const auto* r = static_cast<const record::DrawIndirect*>(record);
        buffer = r->buffer, offset = r->offset, drawCount = r->drawCount, stride = r->stride;
      } else {
        const auto* r = static_cast<const record::DrawIndirectCount*>(record);
        buffer = r->buffer, offset = r->offset, stride = r->stride;
        uint32_t count = 0;
        ReadIndirect(r->countBuffer, r->countOffset, &count);
        drawCount = count < r->maxDrawCount ? count : r->maxDrawCount;
      }
      for (uint32_t i = 0; i < drawCount; ++i) {
        const VkDeviceSize at = offset + static_cast<VkDeviceSize>(i) * stride;
        raster::DrawCall call;
        if (indexed) {
          VkDrawIndexedIndirectCommand command;
          if (!ReadIndirect(buffer, at, &command)) continue;
          call.indexed = true;
          call.count = command.indexCount, call.instanceCount = command.instanceCount, call.first = command.firstIndex;
          call.vertexOffset = command.vertexOffset, call.firstInstance = command.firstInstance;
        } else {
          VkDrawIndirectCommand command;
          if (!ReadIndirect(buffer, at, &command)) continue;
          call.count = command.vertexCount, call.instanceCount = command.instanceCount;
          call.first = command.firstVertex, call.firstInstance = command.firstInstance;
        }
        // "DrawIndex is the index of the draw ... of an indirect draw" (gl_DrawID); 0 for direct draws.
        call.drawIndex = i;
        if (!draw(call)) return false;
      }
      return true;
    }
  }
}

// Compute invocations of a dispatch (draws count what they ran, in RunDraw).
void Executor::CountWork(CommandOp op, const void* record) {
  switch (op) {
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase: {
      const auto* r = static_cast<const record::Dispatch*>(record);
      CountDispatch(counters_, uint64_t{r->groupsX} * r->groupsY * r->groupsZ * LocalInvocations());
      break;
    }
    case CommandOp::DispatchIndirect: {
      const auto* r = static_cast<const record::DispatchIndirect*>(record);
      VkDispatchIndirectCommand groups;
      if (ReadIndirect(r->buffer, r->offset, &groups))
        CountDispatch(counters_, uint64_t{groups.x} * groups.y * groups.z * LocalInvocations());
      break;
    }
    default:
      break;
  }
}

}  // namespace crashtest
