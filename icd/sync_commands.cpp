// Thunks of the sync area: fences, semaphores (binary and timeline), events, and the recording of barriers and
// event commands.
#include <vector>

#include "command/command_buffer.h"
#include "command/command_records.h"
#include "common/result.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"
#include "queue/device_execution.h"
#include "queue/event.h"
#include "queue/fence.h"
#include "queue/semaphore.h"

namespace crashtest::icd {

namespace {

// The union of the source stages of a VkDependencyInfo, kept as the record's stage mask.
VkPipelineStageFlags2 SourceStages(const VkDependencyInfo& info) {
  VkPipelineStageFlags2 stages = 0;
  for (uint32_t i = 0; i < info.memoryBarrierCount; ++i) stages |= info.pMemoryBarriers[i].srcStageMask;
  for (uint32_t i = 0; i < info.bufferMemoryBarrierCount; ++i) stages |= info.pBufferMemoryBarriers[i].srcStageMask;
  for (uint32_t i = 0; i < info.imageMemoryBarrierCount; ++i) stages |= info.pImageMemoryBarriers[i].srcStageMask;
  return stages;
}

VkPipelineStageFlags2 DestinationStages(const VkDependencyInfo& info) {
  VkPipelineStageFlags2 stages = 0;
  for (uint32_t i = 0; i < info.memoryBarrierCount; ++i) stages |= info.pMemoryBarriers[i].dstStageMask;
  for (uint32_t i = 0; i < info.bufferMemoryBarrierCount; ++i) stages |= info.pBufferMemoryBarriers[i].dstStageMask;
  for (uint32_t i = 0; i < info.imageMemoryBarrierCount; ++i) stages |= info.pImageMemoryBarriers[i].dstStageMask;
  return stages;
}

void AppendEventStage(VkCommandBuffer commandBuffer, CommandOp op, VkEvent event, VkPipelineStageFlags2 stages) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::EventStage>(op)) *r = {FromHandle(event), stages};
}

void AppendWaitEvents(VkCommandBuffer commandBuffer, CommandOp op, uint32_t eventCount, const VkEvent* pEvents,
                      VkPipelineStageFlags2 src, VkPipelineStageFlags2 dst) {
  auto* r = FromHandle(commandBuffer)->Record<record::WaitEvents>(op, sizeof(Event*) * eventCount);
  if (r == nullptr) return;
  *r = {eventCount, src, dst};
  Event** events = PayloadOf<Event*>(r);
  for (uint32_t i = 0; i < eventCount; ++i) events[i] = FromHandle(pEvents[i]);
}

}  // namespace

// --- Fences ---------------------------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateFence(VkDevice device, const VkFenceCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkFence* pFence) {
  return Guarded("vkCreateFence", [&] { return Fence::Create(*FromHandle(device), *pCreateInfo, pAllocator, pFence); });
}

VKAPI_ATTR void VKAPI_CALL DestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyFence", [&] { Fence::Destroy(*FromHandle(device), FromHandle(fence), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL ResetFences(VkDevice, uint32_t fenceCount, const VkFence* pFences) {
  return Guarded("vkResetFences", [&] {
    VkResult result = VK_SUCCESS;
    for (uint32_t i = 0; i < fenceCount; ++i) {
      Fence* fence = FromHandle(pFences[i]);
      // VUID-vkResetFences-pFences-01123: "Each element of pFences must not be currently associated with any queue
      // command that has not yet completed execution on that queue". The pending fence is left as it is: its
      // submission signals it as the application's wait expects.
      if (fence->pending() && !fence->execution().lost()) {
        result = ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkResetFences: fence %llu belongs to a submission that "
                             "has not completed; not reset (VUID-vkResetFences-pFences-01123)",
                             static_cast<unsigned long long>(fence->header.id));
        continue;
      }
      fence->Reset();
    }
    return result;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice device, VkFence fence) {
  // "If a device loss has occurred, vkGetFenceStatus may return VK_ERROR_DEVICE_LOST": crashtest always does.
  if (ExecutionOf(*FromHandle(device)).lost()) return VK_ERROR_DEVICE_LOST;
  return FromHandle(fence)->signaled() ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice, uint32_t fenceCount, const VkFence* pFences, VkBool32 waitAll,
                                             uint64_t timeout) {
  return Guarded("vkWaitForFences", [&] {
    std::vector<Fence*> fences(fenceCount);
    for (uint32_t i = 0; i < fenceCount; ++i) fences[i] = FromHandle(pFences[i]);
    return crashtest::WaitForFences(fences, waitAll != VK_FALSE, timeout);
  });
}

// --- Semaphores -----------------------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkSemaphore* pSemaphore) {
  return Guarded("vkCreateSemaphore",
                 [&] { return Semaphore::Create(*FromHandle(device), *pCreateInfo, pAllocator, pSemaphore); });
}

VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                            const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroySemaphore",
              [&] { Semaphore::Destroy(*FromHandle(device), FromHandle(semaphore), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t* pValue) {
  if (ExecutionOf(*FromHandle(device)).lost()) return VK_ERROR_DEVICE_LOST;
  *pValue = FromHandle(semaphore)->value();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice, const VkSemaphoreWaitInfo* pWaitInfo, uint64_t timeout) {
  return Guarded("vkWaitSemaphores", [&] {
    std::vector<Semaphore*> semaphores(pWaitInfo->semaphoreCount);
    for (uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i) semaphores[i] = FromHandle(pWaitInfo->pSemaphores[i]);
    return crashtest::WaitSemaphores(semaphores, {pWaitInfo->pValues, pWaitInfo->semaphoreCount},
                                     (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0, timeout);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice, const VkSemaphoreSignalInfo* pSignalInfo) {
  return Guarded("vkSignalSemaphore", [&] {
    Semaphore* semaphore = FromHandle(pSignalInfo->semaphore);
    // "value must have a value greater than the current value of the semaphore"
    // (VUID-VkSemaphoreSignalInfo-value-03258).
    if (!semaphore->timeline() || pSignalInfo->value <= semaphore->value())
      return ReportError(VK_ERROR_UNKNOWN,
                         "vkSignalSemaphore: value %llu does not increase the timeline semaphore's value %llu "
                         "(VUID-VkSemaphoreSignalInfo-value-03258)",
                         static_cast<unsigned long long>(pSignalInfo->value),
                         static_cast<unsigned long long>(semaphore->value()));
    semaphore->Signal(pSignalInfo->value);
    return VK_SUCCESS;
  });
}

// --- Events ---------------------------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateEvent(VkDevice device, const VkEventCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkEvent* pEvent) {
  return Guarded("vkCreateEvent", [&] { return Event::Create(*FromHandle(device), *pCreateInfo, pAllocator, pEvent); });
}

VKAPI_ATTR void VKAPI_CALL DestroyEvent(VkDevice device, VkEvent event, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyEvent", [&] { Event::Destroy(*FromHandle(device), FromHandle(event), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetEventStatus(VkDevice device, VkEvent event) {
  if (ExecutionOf(*FromHandle(device)).lost()) return VK_ERROR_DEVICE_LOST;
  return FromHandle(event)->isSet() ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL SetEvent(VkDevice, VkEvent event) {
  return Guarded("vkSetEvent", [&] {
    FromHandle(event)->Set();
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL ResetEvent(VkDevice, VkEvent event) {
  return Guarded("vkResetEvent", [&] {
    FromHandle(event)->Reset();
    return VK_SUCCESS;
  });
}

// --- Recording: barriers and events (see command_buffer_commands.cpp for why these need no guard) ---------------

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                                              VkPipelineStageFlags dstStageMask, VkDependencyFlags dependencyFlags,
                                              uint32_t memoryBarrierCount, const VkMemoryBarrier*,
                                              uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier*,
                                              uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier*) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::PipelineBarrier>(CommandOp::PipelineBarrier))
    *r = {srcStageMask, dstStageMask, dependencyFlags, memoryBarrierCount, bufferMemoryBarrierCount,
          imageMemoryBarrierCount};
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo* pDependencyInfo) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::PipelineBarrier>(CommandOp::PipelineBarrier2))
    *r = {SourceStages(*pDependencyInfo), DestinationStages(*pDependencyInfo), pDependencyInfo->dependencyFlags,
          pDependencyInfo->memoryBarrierCount, pDependencyInfo->bufferMemoryBarrierCount,
          pDependencyInfo->imageMemoryBarrierCount};
}

VKAPI_ATTR void VKAPI_CALL CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags stageMask) {
  AppendEventStage(commandBuffer, CommandOp::SetEvent, event, stageMask);
}

VKAPI_ATTR void VKAPI_CALL CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                        const VkDependencyInfo* pDependencyInfo) {
  AppendEventStage(commandBuffer, CommandOp::SetEvent2, event, SourceStages(*pDependencyInfo));
}

VKAPI_ATTR void VKAPI_CALL CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags stageMask) {
  AppendEventStage(commandBuffer, CommandOp::ResetEvent, event, stageMask);
}

VKAPI_ATTR void VKAPI_CALL CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                          VkPipelineStageFlags2 stageMask) {
  AppendEventStage(commandBuffer, CommandOp::ResetEvent2, event, stageMask);
}

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                         VkPipelineStageFlags srcStageMask, VkPipelineStageFlags dstStageMask,
                                         uint32_t, const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*,
                                         uint32_t, const VkImageMemoryBarrier*) {
  AppendWaitEvents(commandBuffer, CommandOp::WaitEvents, eventCount, pEvents, srcStageMask, dstStageMask);
}

VKAPI_ATTR void VKAPI_CALL CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                          const VkDependencyInfo* pDependencyInfos) {
  VkPipelineStageFlags2 src = 0, dst = 0;
  for (uint32_t i = 0; i < eventCount; ++i) {
    src |= SourceStages(pDependencyInfos[i]);
    dst |= DestinationStages(pDependencyInfos[i]);
  }
  AppendWaitEvents(commandBuffer, CommandOp::WaitEvents2, eventCount, pEvents, src, dst);
}

}  // namespace crashtest::icd
