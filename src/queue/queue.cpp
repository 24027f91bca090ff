#include "queue/queue.h"

#include "common/result.h"
#include "device/device.h"
#include "fault/fault_engine.h"
#include "queue/command_fault_scan.h"
#include "queue/device_execution.h"
#include "queue/queue_worker.h"

namespace crashtest {

Queue::Queue(Device& device, uint32_t familyIndex, uint32_t index, VkDeviceQueueCreateFlags flags, float priority)
    : DispatchableObject(VK_OBJECT_TYPE_QUEUE),
      device_(device),
      familyIndex_(familyIndex),
      index_(index),
      flags_(flags),
      priority_(priority),
      // The device creates its queues one after another: the first creates the shared state, the others join it.
      execution_(device.queues().empty() ? std::make_shared<DeviceExecution>()
                                         : device.queues().front()->execution_),
      worker_(std::make_unique<QueueWorker>(*this)) {}

Queue::~Queue() {
  execution_->Stop();
  worker_.reset();
}

VkResult Queue::Submit(Submission&& submission) {
  // One predictable branch when the plan has no submit trigger and the device lives.
  if (FaultEngine& faults = device_.faults(); faults.WatchesSubmits()) [[unlikely]] {
    if (VkResult result = faults.OnSubmit(familyIndex_, index_, &submission.hangFault); result != VK_SUCCESS)
      return result;  // the triggering call returns the effect's error; nothing is submitted
  }
  if (FaultEngine& faults = device_.faults(); faults.WatchesCommands()) [[unlikely]] {
    // "Host access to queue must be externally synchronized": the scanner needs no lock.
    if (!commandFaults_) commandFaults_ = std::make_unique<CommandFaultScanner>(*this);
    commandFaults_->Scan(submission);
  }
  return worker_->Submit(std::move(submission));
}

const Executor& Queue::executor() const { return worker_->executor(); }

void Queue::DescribeQueued(std::vector<dump::QueuedSubmission>& out) const { worker_->DescribeQueued(out); }

VkResult Queue::EnqueuePresentWait(Submission&& submission) {
  if (device_.faults().lost()) return VK_ERROR_DEVICE_LOST;
  return worker_->Submit(std::move(submission));
}

VkResult Queue::WaitIdle() {
  worker_->WaitIdle();
  // "vkQueueWaitIdle ... must return in finite time even in the case of a lost device" with VK_SUCCESS or
  // VK_ERROR_DEVICE_LOST; the worker abandons the rest of its work once the device is lost.
  return execution_->lost() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

void Queue::BeginLabel(const char* name) {
  {
    std::lock_guard lock(labelMutex_);
    labelStack_.emplace_back(name != nullptr ? name : "");
  }
  if (FaultEngine& faults = device_.faults(); faults.WatchesLabels()) [[unlikely]]
    faults.OnLabel(name);
}

void Queue::EndLabel() {
  std::lock_guard lock(labelMutex_);
  // "An application may open a debug label region in one command buffer and close it in another, or otherwise
  // split debug label regions across multiple command buffers or multiple queue submissions" — but ending with
  // none open is a misuse (VUID-vkQueueEndDebugUtilsLabelEXT-None-01911).
  if (!labelStack_.empty()) labelStack_.pop_back();
}

void Queue::InsertLabel(const char* name) {
  std::lock_guard lock(labelMutex_);
  lastInsertedLabel_ = name != nullptr ? name : "";
}

std::vector<std::string> Queue::labels() const {
  std::lock_guard lock(labelMutex_);
  return labelStack_;
}

DeviceExecution& ExecutionOf(const Device& device) { return device.queues().front()->execution(); }

}  // namespace crashtest
