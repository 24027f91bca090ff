// VkQueue: one queue of a logical device, with its worker thread (queue_worker.h, started at the first submit)
// and its debug-utils labels. All queues of a device share one DeviceExecution.
#pragma once

#include <vulkan/vulkan.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "queue/queue_breadcrumbs.h"
#include "queue/submission.h"

namespace crashtest {

namespace dump {
struct QueuedSubmission;
}

CT_DEFINE_HANDLE(Queue, VkQueue, VK_OBJECT_TYPE_QUEUE);
class CommandFaultScanner;
class Device;
class DeviceExecution;
class Executor;
class QueueWorker;

class Queue : public DispatchableObject {
 public:
  Queue(Device& device, uint32_t familyIndex, uint32_t index, VkDeviceQueueCreateFlags flags, float priority);
  // Joins the worker; "vkDestroyDevice ... all queues ... must have completed" (VUID-vkDestroyDevice-device-00378),
  // and waiters still blocked (a misuse) are released.
  ~Queue();

  // Runs a submission in submission order: on the calling thread when the queue is idle and the submission has
  // nothing to wait for (queue/inline_submit.h), else on the queue's worker, returning at once.
  VkResult Submit(Submission&& submission);
  // vkQueuePresentKHR's semaphore waits (src/wsi): queued in order like a submission, but not one the fault plan
  // counts as a submit.
  VkResult EnqueuePresentWait(Submission&& submission);
  // vkQueueWaitIdle.
  VkResult WaitIdle();

  Device& device() const { return device_; }
  uint32_t familyIndex() const { return familyIndex_; }
  uint32_t index() const { return index_; }
  VkDeviceQueueCreateFlags flags() const { return flags_; }
  float priority() const { return priority_; }
  DeviceExecution& execution() const { return *execution_; }

  // vkQueueBegin/End/InsertDebugUtilsLabelEXT. Queue labels are externally synchronised with the queue, but a
  // fault report may read them from the worker, hence the lock.
  void BeginLabel(const char* name);
  void EndLabel();
  void InsertLabel(const char* name);
  std::vector<std::string> labels() const;
  // Where the queue is, for crash dumps (Executor::DescribeFromAnotherThread).
  const Executor& executor() const;
  // Appends the submissions queued behind the running one, not started, for crash dumps.
  void DescribeQueued(std::vector<dump::QueuedSubmission>& out) const;
  // The last buffer marker written and checkpoint reached (VK_AMD_buffer_marker, VK_NV_device_diagnostic_checkpoints).
  QueueBreadcrumbs& breadcrumbs() { return breadcrumbs_; }
  const QueueBreadcrumbs& breadcrumbs() const { return breadcrumbs_; }

 private:
  Device& device_;
  uint32_t familyIndex_;
  uint32_t index_;
  VkDeviceQueueCreateFlags flags_;
  float priority_;
  std::shared_ptr<DeviceExecution> execution_;
  QueueBreadcrumbs breadcrumbs_;  // before worker_: the worker writes it until it is joined
  std::unique_ptr<QueueWorker> worker_;
  std::unique_ptr<CommandFaultScanner> commandFaults_;  // created at the first submit that needs it
  mutable std::mutex labelMutex_;
  std::vector<std::string> labelStack_;
  std::string lastInsertedLabel_;
};

}  // namespace crashtest
