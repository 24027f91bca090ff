// Thunks of the breadcrumb extensions engines use to find where a GPU crashed: VK_AMD_buffer_marker (markers
// written into a buffer as execution passes a stage) and VK_NV_device_diagnostic_checkpoints (markers the queue
// reports after a loss), both with their synchronization2 forms. docs/faults.md, "Breadcrumbs".
#include "command/command_buffer.h"
#include "command/command_records.h"
#include "common/count_array.h"
#include "common/log.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "fault/fault_engine.h"
#include "guard.h"
#include "queue/queue.h"

namespace crashtest::icd {

namespace {

void RecordMarker(VkCommandBuffer commandBuffer, CommandOp op, const char* command, VkPipelineStageFlags2 stage,
                  VkBuffer dstBuffer, VkDeviceSize dstOffset, uint32_t marker) {
  const Buffer* buffer = FromHandle(dstBuffer);
  // VUID-vkCmdWriteBufferMarkerAMD-dstOffset-01798: "dstOffset must be less than or equal to the size of dstBuffer
  // minus 4"; -01800: "must be a multiple of 4". The executor never writes outside the buffer either way.
  if (dstOffset > buffer->size() || buffer->size() - dstOffset < 4 || dstOffset % 4 != 0)
    CT_ERROR("%s: dstOffset %llu is not a multiple of 4 inside the %llu-byte buffer %llu "
             "(VUID-vkCmdWriteBufferMarkerAMD-dstOffset-01798, -01800); the marker will not be written",
             command, static_cast<unsigned long long>(dstOffset), static_cast<unsigned long long>(buffer->size()),
             static_cast<unsigned long long>(buffer->header.id));
  if (auto* r = FromHandle(commandBuffer)->Record<record::BufferMarker>(op)) *r = {buffer, dstOffset, stage, marker};
}

// "vkGetQueueCheckpointDataNV ... the device must be in the lost state" (VUID-vkGetQueueCheckpointDataNV-queue-02025).
// A CPU queue runs one command at a time, in order: the last checkpoint it reached is both the last whose top of
// pipe was reached and the last whose work before it completed, so both stages report it.
template <typename Data, typename Stage>
void CheckpointData(const char* command, VkQueue queue, uint32_t* pCheckpointDataCount, Data* pCheckpointData,
                    Stage top, Stage bottom) {
  const Queue& q = *FromHandle(queue);
  uint64_t marker = 0;
  bool reached = q.breadcrumbs().LastCheckpoint(&marker);
  if (!q.device().faults().lost()) {
    CT_ERROR("%s: the device is not lost (VUID-vkGetQueueCheckpointDataNV-queue-02025)", command);
    reached = false;
  }
  const Stage stages[2] = {top, bottom};
  FillCountArray(pCheckpointDataCount, pCheckpointData, reached ? 2u : 0u, [&](uint32_t i, Data* out) {
    out->stage = stages[i];
    out->pCheckpointMarker = reinterpret_cast<void*>(static_cast<uintptr_t>(marker));
  });
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdWriteBufferMarkerAMD(VkCommandBuffer commandBuffer, VkPipelineStageFlagBits pipelineStage,
                                                   VkBuffer dstBuffer, VkDeviceSize dstOffset, uint32_t marker) {
  RecordMarker(commandBuffer, CommandOp::WriteBufferMarkerAMD, "vkCmdWriteBufferMarkerAMD",
               static_cast<VkPipelineStageFlags2>(pipelineStage), dstBuffer, dstOffset, marker);
}

VKAPI_ATTR void VKAPI_CALL CmdWriteBufferMarker2AMD(VkCommandBuffer commandBuffer, VkPipelineStageFlags2 stage,
                                                    VkBuffer dstBuffer, VkDeviceSize dstOffset, uint32_t marker) {
  RecordMarker(commandBuffer, CommandOp::WriteBufferMarker2AMD, "vkCmdWriteBufferMarker2AMD", stage, dstBuffer,
               dstOffset, marker);
}

VKAPI_ATTR void VKAPI_CALL CmdSetCheckpointNV(VkCommandBuffer commandBuffer, const void* pCheckpointMarker) {
  if (auto* r = FromHandle(commandBuffer)->Record<record::Checkpoint>(CommandOp::SetCheckpointNV))
    *r = {static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pCheckpointMarker))};
}

VKAPI_ATTR void VKAPI_CALL GetQueueCheckpointDataNV(VkQueue queue, uint32_t* pCheckpointDataCount,
                                                    VkCheckpointDataNV* pCheckpointData) {
  GuardedVoid("vkGetQueueCheckpointDataNV", [&] {
    CheckpointData("vkGetQueueCheckpointDataNV", queue, pCheckpointDataCount, pCheckpointData,
                   VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  });
}

VKAPI_ATTR void VKAPI_CALL GetQueueCheckpointData2NV(VkQueue queue, uint32_t* pCheckpointDataCount,
                                                     VkCheckpointData2NV* pCheckpointData) {
  GuardedVoid("vkGetQueueCheckpointData2NV", [&] {
    CheckpointData("vkGetQueueCheckpointData2NV", queue, pCheckpointDataCount, pCheckpointData,
                   VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT);
  });
}

}  // namespace crashtest::icd
