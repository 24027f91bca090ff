// Runs recorded command streams for a queue: transfers and clears through src/transfer, render-pass
// and dynamic-rendering load-op clears, events, queries and timestamps, dispatches through the shader
// interpreter (queue/compute_dispatch.h → src/execution) and draws through the rasteriser (queue/graphics_draw.h
// → src/raster).
// One Executor per queue, used by one thread at a time — the queue's worker, or the submitting thread for a
// submission run inline (queue/inline_submit.h) — so nothing here locks.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "command/command_arena.h"
#include "command/command_records.h"
#include "device/device_description.h"
#include "fault/dump/dump_content.h"
#include "fault/report_queue.h"
#include "queue/compute_dispatch.h"
#include "queue/graphics_draw.h"
#include "queue/dispatch_history.h"
#include "queue/pipeline_counters.h"
#include "queue/submission.h"

namespace crashtest {

class CommandBuffer;
class Device;
class DeviceExecution;
class Queue;

// Where the worker is: "command #index (vkCmdX) of submission #serial", for fault reports.
struct ExecutionCursor {
  uint64_t submission = 0;
  uint32_t command = 0;  // index among the commands the submission has run so far, from 0 (messages add 1)
  CommandOp op = CommandOp::Count;
};

class Executor {
 public:
  explicit Executor(Queue& queue);

  // The submission about to run; it (with its command faults, queue/command_fault_scan.h, fired when their
  // command is reached) must outlive its execution, which ends with EndSubmissionLocked. The worker calls it under
  // its queue lock as it takes the submission, so a crash dump sees every submission either queued or running.
  void BeginSubmission(const Submission& submission);
  // The queue waits on a batch's semaphores (true) or is done waiting (false), for crash dumps.
  void NoteWaiting(bool waiting) { waiting_.store(waiting, std::memory_order_relaxed); }
  // The submission is done (under the device's execution lock, before its holds are released): a crash dump no
  // longer reads it.
  void EndSubmissionLocked() { running_.store(nullptr, std::memory_order_relaxed); }
  // Runs a primary command buffer's stream as submitted, and `secondaries`, the streams of the secondaries it
  // executes in execution order (SubmittedCommandBuffer). False when the device is lost or being destroyed: the
  // rest is abandoned. The streams are held by the submission (CommandBuffer::Hold) while this reads them.
  bool Execute(const CommandChunk* stream, const HeldStream* secondaries);
  const ExecutionCursor& cursor() const { return cursor_; }
  // The executor running a stream on this thread (inside Execute), for crash dumps; nullptr elsewhere.
  static const Executor* OnThisThread();
  const Device& device() const;
  const Queue& queue() const { return queue_; }
  // For a crash dump raised on this executor's thread: the submission being executed (every command buffer's
  // commands, the executing one, the label stack there) and the pipelines bound at that command (compute, then
  // graphics; VK_NULL_HANDLE when none) (queue/executor_dump.cpp). Walks the held streams once; nothing is
  // recorded per command while executing.
  void Describe(dump::Submission& out, VkPipeline bound[2]) const;
  // The same for a crash dump raised on another thread (a timed, injected or watchdog loss, another queue's
  // fault), while this executor may be running: what it published (the submission, the command it reached,
  // whether it waits on semaphores). Called under the device's execution lock, which keeps the submission and its
  // streams alive (EndSubmissionLocked); an idle queue is described as such (serial 0). Between two commands it
  // says so ("between command 3 (…) and command 4 (…)", "after command 10 (…) completed"): no command executes.
  void DescribeFromAnotherThread(dump::Submission& out, VkPipeline bound[2]) const;
  // How long each pipeline's dispatches took on this queue (for the inline decision, queue/inline_submit.h).
  const DispatchHistory& dispatchHistory() const { return dispatchHistory_; }
  // Nanoseconds of the monotonic clock as the queue family's timestamps: ticks of timestampPeriod, masked to
  // timestampValidBits.
  uint64_t Timestamp() const;

 private:
  // The attachments of the render pass instance being recorded (render pass or dynamic rendering).
  struct RenderingState {
    bool active = false;
    const record::BeginRenderPass* renderPass = nullptr;  // nullptr for dynamic rendering
    const record::BeginRendering* rendering = nullptr;
    uint32_t subpass = 0;
  };
  struct ActiveQuery {
    QueryPool* pool;
    uint32_t query;
    PipelineCounters start;
    uint64_t startSamples;  // samplesPassed_ at vkCmdBeginQuery (occlusion queries)
  };

  bool RunStream(const CommandChunk* stream);
  // At a fault point (IsFaultPoint) while command faults are pending: fires those planned for it. False when the
  // device is lost or the queue hung (the submission stops there).
  bool ReachFaultPoint(CommandOp op);
  bool Run(CommandOp op, const void* record);
  void RunTransfer(CommandOp op, const void* record);
  bool RunSync(CommandOp op, const void* record);
  void RunQuery(CommandOp op, const void* record);
  void CountWork(CommandOp op, const void* record);
  // Runs a dispatch (after counting it). False when the dispatch lost the device.
  bool RunDispatch(CommandOp op, const void* record);
  // Runs a draw (every draw of an indirect one). False when a draw lost the device.
  bool RunDraw(CommandOp op, const void* record);
  std::string Where(CommandOp op) const;
  uint64_t LocalInvocations() const;

  // render_pass_execution.cpp
  // False when an attachment was destroyed (or its memory freed) before the instance began: the use-after-free
  // fault was raised (queue/resource_liveness.h) and the instance does not begin.
  bool BeginRenderPass(const record::BeginRenderPass& begin, const std::string& where);
  void NextSubpass();
  void EndRenderPass();
  bool BeginRendering(const record::BeginRendering& begin, const std::string& where);
  void EndRendering();
  void ResolveSubpass(uint32_t subpass);
  void ClearAttachments(const record::ClearAttachments& clear);
  void LoadOpClears(uint32_t subpass);
  const ImageView* RenderPassView(uint32_t attachment) const;
  // The colour, depth and stencil attachments draws write now (the current subpass or dynamic rendering).
  DrawAttachments CurrentAttachments() const;

  Queue& queue_;
  const DeviceExecution& execution_;
  double ticksPerNanosecond_;
  // TimestampModel::Clock::Simulated: this queue's clock, advanced per executed command (AdvanceSimulatedClock).
  const TimestampModel* simulatedClock_ = nullptr;
  uint64_t simulatedNanoseconds_ = 0;
  void AdvanceSimulatedClock(CommandOp op);
  uint64_t timestampMask_;
  ExecutionCursor cursor_;
  const Submission* submission_ = nullptr;
  // What another thread's crash dump reads (DescribeFromAnotherThread): the submission running (set when it
  // begins, cleared under the execution lock when it ends), where it is among its commands (QueueProgress,
  // queue/queue_progress.h: command N started, or N commands completed), and whether the queue waits on a batch's
  // semaphores. Relaxed stores: two plain stores per command on the hot path.
  std::atomic<const Submission*> running_{nullptr};
  std::atomic<uint64_t> progress_{0};
  std::atomic<bool> waiting_{false};
  // The submission's command faults not fired yet ([nextFault_, lastFault_)), and the fault points seen so far.
  const CommandFault* nextFault_ = nullptr;
  const CommandFault* lastFault_ = nullptr;
  uint32_t faultPoint_ = 0;
  const HeldStream* nextSecondary_ = nullptr;  // the next secondary stream vkCmdExecuteCommands runs
  RenderingState rendering_;
  VkPrimitiveTopology topology_ = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  PipelineCounters counters_{};
  ComputeDispatcher compute_;
  GraphicsDispatcher graphics_;
  uint64_t samplesPassed_ = 0;  // samples that passed every fragment test on this queue (occlusion queries)
  DispatchHistory dispatchHistory_;
  std::vector<ActiveQuery> activeQueries_;
};

// A submission still queued behind the running one (not started): its command buffers and their commands, all
// "not run" (queue/executor_dump.cpp). Its streams are held (QueueWorker::TakeHolds).
void DescribeQueuedSubmission(const Queue& queue, const Submission& submission, dump::QueuedSubmission& out);

// The crash dump's submissions and pipelines (queue/executor_dump.cpp): the losing thread's own queue first when it
// runs one of `device` (with the faulting shader instruction for a shader fault), then every other queue as far as
// it got, or idle; then the submissions every queue holds queued, not started.
void DescribeQueues(const Device& device, std::span<const FaultReport> reports, const std::string& faultId,
                    dump::Content& content);

}  // namespace crashtest
