// Thunks of the queue area: submission (vkQueueSubmit, vkQueueSubmit2), idle waits, sparse binding (not
// supported), and VK_EXT_debug_utils queue labels and object names.
#include <type_traits>
#include <utility>

#include "command/command_buffer.h"
#include "common/pnext.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"
#include "queue/device_execution.h"
#include "queue/fence.h"
#include "queue/queue.h"
#include "queue/semaphore.h"

namespace crashtest::icd {

namespace {

// "Each element of pCommandBuffers must be in the pending or executable state"
// (VUID-VkSubmitInfo-pCommandBuffers-00070): submitting anything else is a bug the app wants to hear about.
VkResult CheckSubmittable(const char* command, const CommandBuffer& commandBuffer) {
  if (commandBuffer.state() == CommandBuffer::State::Executable) {
    // VUID-vkQueueSubmit-pCommandBuffers-00071: "If any element of the pCommandBuffers member of any element of
    // pSubmits was not recorded with the VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, it must not be in the
    // pending state". (After a loss nothing is pending any more: the work was abandoned.)
    if (commandBuffer.IsPending() && (commandBuffer.usage() & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT) == 0 &&
        !ExecutionOf(commandBuffer.device()).lost())
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                         "%s: command buffer %llu is still pending and was not recorded with SIMULTANEOUS_USE "
                         "(VUID-vkQueueSubmit-pCommandBuffers-00071)",
                         command, static_cast<unsigned long long>(commandBuffer.header.id));
    return VK_SUCCESS;
  }
  static constexpr const char* kStates[] = {"initial", "recording", "executable", "invalid"};
  return ReportError(VK_ERROR_UNKNOWN,
                     "%s: command buffer %llu is in the %s state, not executable (VUID-VkSubmitInfo-pCommandBuffers-"
                     "00070; a ONE_TIME_SUBMIT buffer becomes invalid after it ran)",
                     command, static_cast<unsigned long long>(commandBuffer.header.id),
                     kStates[static_cast<int>(commandBuffer.state())]);
}

VkResult BuildBatch(const VkSubmitInfo& info, SubmitBatch& batch) {
  // Timeline values come from VkTimelineSemaphoreSubmitInfo; binary semaphores ignore them.
  const auto* values = FindInChain<VkTimelineSemaphoreSubmitInfo>(info.pNext);
  auto valueAt = [](const uint64_t* array, uint32_t count, uint32_t i) {
    return array != nullptr && i < count ? array[i] : 0;
  };
  batch.waits.reserve(info.waitSemaphoreCount);
  for (uint32_t i = 0; i < info.waitSemaphoreCount; ++i)
    batch.waits.push_back({FromHandle(info.pWaitSemaphores[i]),
                           values ? valueAt(values->pWaitSemaphoreValues, values->waitSemaphoreValueCount, i) : 0});
  batch.commandBuffers.reserve(info.commandBufferCount);
  for (uint32_t i = 0; i < info.commandBufferCount; ++i) {
    CommandBuffer* commandBuffer = FromHandle(info.pCommandBuffers[i]);
    if (VkResult result = CheckSubmittable("vkQueueSubmit", *commandBuffer); result != VK_SUCCESS) return result;
    batch.commandBuffers.emplace_back(commandBuffer);
  }
  batch.signals.reserve(info.signalSemaphoreCount);
  for (uint32_t i = 0; i < info.signalSemaphoreCount; ++i)
    batch.signals.push_back(
        {FromHandle(info.pSignalSemaphores[i]),
         values ? valueAt(values->pSignalSemaphoreValues, values->signalSemaphoreValueCount, i) : 0});
  return VK_SUCCESS;
}

VkResult BuildBatch(const VkSubmitInfo2& info, SubmitBatch& batch) {
  batch.waits.reserve(info.waitSemaphoreInfoCount);
  for (uint32_t i = 0; i < info.waitSemaphoreInfoCount; ++i)
    batch.waits.push_back({FromHandle(info.pWaitSemaphoreInfos[i].semaphore), info.pWaitSemaphoreInfos[i].value});
  batch.commandBuffers.reserve(info.commandBufferInfoCount);
  for (uint32_t i = 0; i < info.commandBufferInfoCount; ++i) {
    CommandBuffer* commandBuffer = FromHandle(info.pCommandBufferInfos[i].commandBuffer);
    if (VkResult result = CheckSubmittable("vkQueueSubmit2", *commandBuffer); result != VK_SUCCESS) return result;
    batch.commandBuffers.emplace_back(commandBuffer);
  }
  batch.signals.reserve(info.signalSemaphoreInfoCount);
  for (uint32_t i = 0; i < info.signalSemaphoreInfoCount; ++i)
    batch.signals.push_back({FromHandle(info.pSignalSemaphoreInfos[i].semaphore), info.pSignalSemaphoreInfos[i].value});
  return VK_SUCCESS;
}

// The fence a submission signals must be unsignalled and not already pending.
VkResult CheckFence(const char* command, const Fence* fence) {
  if (fence == nullptr || fence->execution().lost()) return VK_SUCCESS;
  // VUID-vkQueueSubmit-fence-00063: "If fence is not VK_NULL_HANDLE, fence must be unsignaled".
  if (fence->signaled())
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: fence %llu is signalled; reset it before submitting it "
                       "(VUID-vkQueueSubmit-fence-00063)", command, static_cast<unsigned long long>(fence->header.id));
  // VUID-vkQueueSubmit-fence-00064: "fence must not be associated with any other queue command that has not yet
  // completed execution on that queue".
  if (fence->pending())
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: fence %llu already belongs to a submission that has not "
                       "completed (VUID-vkQueueSubmit-fence-00064)", command,
                       static_cast<unsigned long long>(fence->header.id));
  return VK_SUCCESS;
}

template <typename Info>
VkResult SubmitBatches(VkQueue queue, uint32_t submitCount, const Info* pSubmits, VkFence fence) {
  if (VkResult result = CheckFence(std::is_same_v<Info, VkSubmitInfo> ? "vkQueueSubmit" : "vkQueueSubmit2",
                                   FromHandle(fence));
      result != VK_SUCCESS)
    return result;
  Submission submission;
  submission.batches.resize(submitCount);
  for (uint32_t i = 0; i < submitCount; ++i)
    if (VkResult result = BuildBatch(pSubmits[i], submission.batches[i]); result != VK_SUCCESS) return result;
  // With no batches the fence still signals once all earlier work completes ("If submitCount is zero but fence is
  // not VK_NULL_HANDLE, the fence will still be submitted to the queue"), which a queue in order gives for free.
  submission.fence = FromHandle(fence);
  return FromHandle(queue)->Submit(std::move(submission));
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo* pSubmits,
                                           VkFence fence) {
  return Guarded("vkQueueSubmit", [&] { return SubmitBatches(queue, submitCount, pSubmits, fence); });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2* pSubmits,
                                            VkFence fence) {
  return Guarded("vkQueueSubmit2", [&] { return SubmitBatches(queue, submitCount, pSubmits, fence); });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueWaitIdle(VkQueue queue) {
  return Guarded("vkQueueWaitIdle", [&] { return FromHandle(queue)->WaitIdle(); });
}

VKAPI_ATTR VkResult VKAPI_CALL DeviceWaitIdle(VkDevice device) {
  return Guarded("vkDeviceWaitIdle", [&] {
    VkResult result = VK_SUCCESS;
    for (Queue* queue : FromHandle(device)->queues())
      if (VkResult r = queue->WaitIdle(); r != VK_SUCCESS) result = r;
    return result;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueBindSparse(VkQueue queue, uint32_t bindInfoCount, const VkBindSparseInfo*,
                                               VkFence) {
  // crashtest implements no sparse feature (sparseBinding and the sparseResidency* features are never
  // advertised), so no resource can be sparse ("If sparseBinding is not enabled, ... must not be created with
  // VK_BUFFER_CREATE_SPARSE_BINDING_BIT", VUID-VkBufferCreateInfo-flags-00915) and there is nothing to bind.
  return ReportError(VK_ERROR_FEATURE_NOT_PRESENT,
                     "vkQueueBindSparse: sparse binding is not implemented by crashtest (queue family %u); %u bind "
                     "info(s) ignored",
                     FromHandle(queue)->familyIndex(), bindInfoCount);
}

// --- VK_EXT_debug_utils -----------------------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL QueueBeginDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* pLabelInfo) {
  GuardedVoid("vkQueueBeginDebugUtilsLabelEXT", [&] { FromHandle(queue)->BeginLabel(pLabelInfo->pLabelName); });
}

VKAPI_ATTR void VKAPI_CALL QueueEndDebugUtilsLabelEXT(VkQueue queue) {
  GuardedVoid("vkQueueEndDebugUtilsLabelEXT", [&] { FromHandle(queue)->EndLabel(); });
}

VKAPI_ATTR void VKAPI_CALL QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* pLabelInfo) {
  GuardedVoid("vkQueueInsertDebugUtilsLabelEXT", [&] { FromHandle(queue)->InsertLabel(pLabelInfo->pLabelName); });
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* pNameInfo) {
  return Guarded("vkSetDebugUtilsObjectNameEXT", [&] {
    ExecutionOf(*FromHandle(device)).names().Set(pNameInfo->objectType, pNameInfo->objectHandle, pNameInfo->pObjectName);
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL SetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT*) {
  // Tags are opaque data for layers and tools; crashtest has no use for them and accepts them.
  return VK_SUCCESS;
}

}  // namespace crashtest::icd
