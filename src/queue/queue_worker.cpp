#include "queue/queue_worker.h"

#include <system_error>

#include "command/command_buffer.h"
#include "command/command_records.h"
#include "common/log.h"
#include "common/spin_wait.h"
#include "common/result.h"
#include "device/device.h"
#include "fault/fault_engine.h"
#include "queue/device_execution.h"
#include "queue/fence.h"
#include "queue/stuck_wait.h"
#include "queue/inline_submit.h"
#include "queue/queue.h"
#include "queue/semaphore.h"

namespace crashtest {

QueueWorker::QueueWorker(Queue& queue) : queue_(queue), executor_(queue) {}

QueueWorker::~QueueWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void QueueWorker::ReserveSecondaries(Submission& submission) {
  size_t secondaryCount = 0;
  for (const SubmitBatch& batch : submission.batches)
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers)
      for (const record::ExecuteCommands* execute = submitted.commandBuffer->firstExecute(); execute != nullptr;
           execute = execute->next)
        secondaryCount += execute->count;
  submission.secondaries.reserve(secondaryCount);
}

void QueueWorker::TakeHolds(Submission& submission) {
  // Every command buffer the submission executes is held until the queue has read it for the last time
  // (CommandBuffer::Hold): the application may free or reset it as soon as it sees a loss.
  for (SubmitBatch& batch : submission.batches)
    for (SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      submitted.stream = submitted.commandBuffer->Hold();
      submitted.firstSecondary = static_cast<uint32_t>(submission.secondaries.size());
      for (const record::ExecuteCommands* execute = submitted.commandBuffer->firstExecute(); execute != nullptr;
           execute = execute->next) {
        CommandBuffer* const* secondaries = PayloadOf<CommandBuffer*>(execute);
        for (uint32_t i = 0; i < execute->count; ++i)
          submission.secondaries.push_back(HeldStream{secondaries[i], secondaries[i]->Hold()});
      }
      submitted.secondaryCount = static_cast<uint32_t>(submission.secondaries.size()) - submitted.firstSecondary;
    }
  // The fence is pending until the submission ends (Process), whether it is signalled or abandoned.
  if (submission.fence != nullptr) submission.fence->NoteSubmitted();
}

VkResult QueueWorker::Submit(Submission&& submission) {
  // Room for the secondaries' holds first: once the holds are taken nothing may fail.
  ReserveSecondaries(submission);
  // The fast path (queue/inline_submit.h). Idle: everything submitted so far has completed; submitted_ changes
  // only on this thread. The wait check comes last: it consumes binary payloads, after which the submission
  // must run here.
  if (completed_.load(std::memory_order_acquire) == submitted_.load(std::memory_order_relaxed) &&
      MayRunInline(submission, executor_.dispatchHistory()) &&
      TakeWaitsIfSignalled(queue_.execution(), submission)) {
    submission.serial = nextSerial_++;
    TakeHolds(submission);
    queue_.device().deferredDestruction().BeginWork();
    submitted_.fetch_add(1, std::memory_order_release);
    executor_.BeginSubmission(submission);
    Process(submission);
    return VK_SUCCESS;
  }
  return Enqueue(std::move(submission));
}

VkResult QueueWorker::Enqueue(Submission&& submission) {
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] { Run(); });
      } catch (const std::system_error& e) {
        return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkQueueSubmit: cannot start the queue's worker thread: %s",
                           e.what());
      }
    }
    submission.serial = nextSerial_++;
    pending_.push_back(std::move(submission));
    TakeHolds(pending_.back());
    queue_.device().deferredDestruction().BeginWork();
    submitted_.fetch_add(1, std::memory_order_release);
    enqueued_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
  return VK_SUCCESS;
}

void QueueWorker::WaitIdle() {
  DeviceExecution& execution = queue_.execution();
  auto idle = [this] {
    return completed_.load(std::memory_order_acquire) == submitted_.load(std::memory_order_acquire);
  };
  // On a lost device the first wait ends at once; the worker then drains what is left (nothing runs, every wait
  // of its ends at the loss) and the second makes sure it has: after vkQueueWaitIdle / vkDeviceWaitIdle, even
  // with VK_ERROR_DEVICE_LOST, no queue touches a resource again (docs/faults.md).
  if (!execution.Wait(UINT64_MAX, idle)) execution.WaitEvenIfLost(idle);
}

void QueueWorker::Run() {
  for (;;) {
    Submission submission;
    {
      std::unique_lock lock(mutex_);
      if (pending_.empty() && !stop_) {
        // Spin for the next submission before sleeping, only where it pays (common/spin_wait.h): a stream of
        // submissions the worker must take (semaphore waits, dispatches) then pays no wake-up each, and a busy
        // machine loses no core to an idle queue.
        if (const auto budget = SpinBudget(); budget.count() > 0) {
          const uint64_t taken = taken_;
          lock.unlock();
          SpinUntil(std::chrono::steady_clock::now() + budget,
                    [&] { return enqueued_.load(std::memory_order_acquire) != taken; });
          lock.lock();
        }
      }
      wake_.wait(lock, [this] { return stop_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping with nothing left
      submission = std::move(pending_.front());
      pending_.pop_front();
      ++taken_;
      // Published before the lock is released: a crash dump finds it queued or running, never neither.
      executor_.BeginSubmission(submission);
    }
    Process(submission);
  }
}

void QueueWorker::DescribeQueued(std::vector<dump::QueuedSubmission>& out) const {
  // The queued submissions hold their command buffers' streams (TakeHolds) and stay in pending_ while the lock is
  // held.
  std::lock_guard lock(mutex_);
  for (const Submission& submission : pending_) DescribeQueuedSubmission(queue_, submission, out.emplace_back());
}

void QueueWorker::Process(Submission& submission) {
  DeviceExecution& execution = queue_.execution();
  if (submission.hangFault != 0 && !execution.lost()) {
    // A planned hang: the queue makes no progress until the watchdog loses the device (or the device is
    // destroyed); the work is then abandoned.
    queue_.device().faults().BeginHang(submission.hangFault);
    execution.Wait(UINT64_MAX, [] { return false; });
  }
  // Work queued before a loss is abandoned, never executed ("work already queued ... is lost").
  bool live = !execution.lost();
  for (SubmitBatch& batch : submission.batches) {
    // Wait-before-signal: a wait may be submitted before the signal it waits for, on this or another queue or from
    // the host ("the semaphore wait ... may be submitted before the corresponding signal", Vulkan 1.3, 7.4.2).
    if (!batch.waits.empty() && live) {
      executor_.NoteWaiting(true);
      for (const SemaphoreOperation& wait : batch.waits)
        if (live) live = WaitOnQueueReportingStuck(queue_, *wait.semaphore, wait.value, submission.serial);
      executor_.NoteWaiting(false);
    }
    // Once the device is lost the application, having seen VK_ERROR_DEVICE_LOST, may destroy what abandoned work
    // refers to. Signals and completion check the loss under the execution lock (DeviceExecution::
    // PublishUnlessLost); command streams are held by the submission until the worker is done reading them.
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      const HeldStream* secondaries = submission.secondaries.data() + submitted.firstSecondary;
      if (live) live = executor_.Execute(submitted.stream, secondaries);
      // Its execution is complete: it leaves the pending state (the loss is checked under the same lock). The
      // holds stay until the submission ends, so a crash dump can still list it.
      execution.RunLocked([&](bool lost) {
        for (uint32_t i = 0; i < submitted.secondaryCount; ++i) secondaries[i].commandBuffer->CompleteLocked(lost);
        submitted.commandBuffer->CompleteLocked(lost);
      });
    }
    for (const SemaphoreOperation& signal : batch.signals)
      execution.PublishUnlessLost([&signal] { signal.semaphore->SignalLocked(signal.value); });
  }
  if (!live) CT_WARN("queue %u of family %u: submission %llu abandoned: the device is %s", queue_.index(),
                     queue_.familyIndex(), static_cast<unsigned long long>(submission.serial),
                     execution.lost() ? "lost" : "being destroyed");
  // The fence and the queue's progress change under one lock and one wake-up: the submit-to-fence round trip is
  // a single host wake-up after the work.
  // The worker is done with the streams: the holds are released (CommandBuffer::ReleaseLocked), which frees what
  // the application freed or reset meanwhile, and no crash dump reads the submission any more.
  queue_.execution().Publish([&] {
    executor_.EndSubmissionLocked();
    for (const SubmitBatch& batch : submission.batches)
      for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) submitted.commandBuffer->ReleaseLocked();
    for (const HeldStream& secondary : submission.secondaries) secondary.commandBuffer->ReleaseLocked();
    // On a lost device the fence is not touched: the application may destroy it as soon as it sees the loss
    // (docs/faults.md), and nothing looks at its pending state any more (CheckFence, vkResetFences skip lost
    // devices). The loss is set under the lock Publish holds, so it cannot change here.
    if (submission.fence != nullptr && !execution.lost()) submission.fence->FinishPublished(true);
    completed_.fetch_add(1, std::memory_order_release);
  });
  // Last: what the application destroyed while this submission was in flight may go now (the device outlives its
  // queues' workers, so this is safe even once the application, seeing the fence, destroys the device).
  queue_.device().deferredDestruction().EndWork();
}

}  // namespace crashtest
