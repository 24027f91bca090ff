#include "queue/queue_worker.h"

#include <system_error>

#include "command/command_buffer.h"
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
    for (SubmitBatch& batch : submission.batches)
      for (CommandBuffer* commandBuffer : batch.commandBuffers) commandBuffer->MarkSubmitted();
    submitted_.fetch_add(1, std::memory_order_release);
    pending_.push_back(std::move(submission));
  }
  wake_.notify_one();
  return VK_SUCCESS;
}

void QueueWorker::WaitIdle() {
  queue_.execution().Wait(UINT64_MAX, [this] {
    return completed_.load(std::memory_order_acquire) == submitted_.load(std::memory_order_acquire);
  });
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
    // refers to: abandoned work touches none of its command buffers, semaphores or fences.
    // Completion and signals check the loss under the execution lock (DeviceExecution::PublishUnlessLost): the
    // application may destroy these objects as soon as it can see the loss.
    for (CommandBuffer* commandBuffer : batch.commandBuffers) {
      if (live) live = executor_.Execute(*commandBuffer);
      execution.RunUnlessLost([commandBuffer] { commandBuffer->MarkCompleted(); });
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
