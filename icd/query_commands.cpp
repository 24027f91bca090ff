// Thunks of the query area: query pools, host reset and results, and the recording of query commands.
#include "command/command_buffer.h"
#include "command/command_records.h"
#include "command/query_pool.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkQueryPool* pQueryPool) {
  return Guarded("vkCreateQueryPool",
                 [&] { return QueryPool::Create(*FromHandle(device), *pCreateInfo, pAllocator, pQueryPool); });
}

VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
                                            const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyQueryPool", [&] { QueryPool::Destroy(*FromHandle(device), FromHandle(queryPool), pAllocator); });
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount) {
  GuardedVoid("vkResetQueryPool", [&] { FromHandle(queryPool)->Reset(firstQuery, queryCount); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice, VkQueryPool queryPool, uint32_t firstQuery,
                                                   uint32_t queryCount, size_t, void* pData, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  return Guarded("vkGetQueryPoolResults", [&] {
    return FromHandle(queryPool)->Results(firstQuery, queryCount, static_cast<std::byte*>(pData), stride, flags);
  });
}

// --- Recording (see command_buffer_commands.cpp for why these need no guard) -----------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                         VkQueryControlFlags flags) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::BeginQuery>(CommandOp::BeginQuery))
    *r = {FromHandle(queryPool), query, flags};
}

VKAPI_ATTR void VKAPI_CALL CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::EndQuery>(CommandOp::EndQuery))
    *r = {FromHandle(queryPool), query};
}

VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
                                             uint32_t queryCount) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::ResetQueryPool>(CommandOp::ResetQueryPool))
    *r = {FromHandle(queryPool), firstQuery, queryCount};
}

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp(VkCommandBuffer commandBuffer, VkPipelineStageFlagBits pipelineStage,
                                             VkQueryPool queryPool, uint32_t query) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::WriteTimestamp>(CommandOp::WriteTimestamp))
    *r = {FromHandle(queryPool), query, static_cast<VkPipelineStageFlags2>(pipelineStage)};
}

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2 stage,
                                              VkQueryPool queryPool, uint32_t query) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::WriteTimestamp>(CommandOp::WriteTimestamp2))
    *r = {FromHandle(queryPool), query, stage};
}

VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                   uint32_t firstQuery, uint32_t queryCount, VkBuffer dstBuffer,
                                                   VkDeviceSize dstOffset, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::CopyQueryPoolResults>(CommandOp::CopyQueryPoolResults))
    *r = {FromHandle(queryPool), firstQuery, queryCount, FromHandle(dstBuffer), dstOffset, stride, flags};
}

}  // namespace crashtest::icd
