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

VkResult QueueWorker::Enqueue(Submission&& submission) {
  // Room for the secondaries' holds first: once the holds are taken nothing may fail.
  size_t secondaryCount = 0;
  for (const SubmitBatch& batch : submission.batches)
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers)
      for (const record::ExecuteCommands* execute = submitted.commandBuffer->firstExecute(); execute != nullptr;
           execute = execute->next)
        secondaryCount += execute->count;
  submission.secondaries.reserve(secondaryCount);
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
    // Every command buffer the submission executes is held until the worker has read it for the last time
    // (CommandBuffer::Hold): the application may free or reset it as soon as it sees a loss.
    Submission& queued = pending_.back();
    for (SubmitBatch& batch : queued.batches)
      for (SubmittedCommandBuffer& submitted : batch.commandBuffers) {
        submitted.stream = submitted.commandBuffer->Hold();
        submitted.firstSecondary = static_cast<uint32_t>(queued.secondaries.size());
        for (const record::ExecuteCommands* execute = submitted.commandBuffer->firstExecute(); execute != nullptr;
             execute = execute->next) {
          CommandBuffer* const* secondaries = PayloadOf<CommandBuffer*>(execute);
          for (uint32_t i = 0; i < execute->count; ++i)
            queued.secondaries.push_back(HeldStream{secondaries[i], secondaries[i]->Hold()});
        }
        submitted.secondaryCount = static_cast<uint32_t>(queued.secondaries.size()) - submitted.firstSecondary;
      }
    submitted_.fetch_add(1, std::memory_order_release);
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
        // Spin briefly for the next submission before sleeping (common/spin_wait.h): an app that submits and
        // waits in a loop then never pays a wake-up.
        const uint64_t taken = taken_;
        lock.unlock();
        SpinUntil(std::chrono::steady_clock::now() + kSpinBeforeSleep,
                  [&] { return submitted_.load(std::memory_order_acquire) != taken; });
        lock.lock();
      }
      wake_.wait(lock, [this] { return stop_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping with nothing left
      submission = std::move(pending_.front());
      pending_.pop_front();
      ++taken_;
    }
    Process(submission);
  }
}

void QueueWorker::Process(Submission& submission) {
  executor_.BeginSubmission(submission.serial, submission.commandFaults);
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
    for (const SemaphoreOperation& wait : batch.waits)
      if (live) live = wait.semaphore->WaitOnQueue(wait.value);
    // Once the device is lost the application, having seen VK_ERROR_DEVICE_LOST, may destroy what abandoned work
    // refers to. Signals and completion check the loss under the execution lock (DeviceExecution::
    // PublishUnlessLost); command streams are held by the submission until the worker is done reading them.
    for (const SubmittedCommandBuffer& submitted : batch.commandBuffers) {
      const HeldStream* secondaries = submission.secondaries.data() + submitted.firstSecondary;
      if (live) live = executor_.Execute(submitted.stream, secondaries);
      // The worker is done with these streams: release the holds (CommandBuffer::ReleaseLocked), which frees what
      // the application freed or reset meanwhile. Completion checks the loss under the same lock.
      execution.RunLocked([&](bool lost) {
        if (!lost) submitted.commandBuffer->MarkCompleted();
        for (uint32_t i = 0; i < submitted.secondaryCount; ++i) secondaries[i].commandBuffer->ReleaseLocked();
        submitted.commandBuffer->ReleaseLocked();
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
  queue_.execution().Publish([&] {
    if (submission.fence != nullptr && !execution.lost()) submission.fence->SignalPublished();
    completed_.fetch_add(1, std::memory_order_release);
  });
}

}  // namespace crashtest
