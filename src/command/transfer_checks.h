// Cheap valid-usage checks of the buffer transfer commands, made when they are recorded: a broken rule is logged
// with its VUID and the command is not recorded (CommandBuffer::Misuse). Ranges outside a buffer, and a null
// buffer, are left to the transfer code, which skips them safely at execution.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "command/command_buffer.h"
#include "device/resources.h"

namespace crashtest {

// vkCmdFillBuffer: offset and size multiples of 4, size not 0, TRANSFER_DST usage. False when misused.
bool CheckFillBuffer(CommandBuffer& commandBuffer, const Buffer* dst, VkDeviceSize offset, VkDeviceSize size);

// vkCmdUpdateBuffer: offset and size multiples of 4, size in (0, 65536], TRANSFER_DST usage.
bool CheckUpdateBuffer(CommandBuffer& commandBuffer, const Buffer* dst, VkDeviceSize offset, VkDeviceSize size);

// vkCmdCopyBuffer(2): usage flags, no zero-sized region, no overlap of a source and a destination range of the
// same buffer. `Region` is VkBufferCopy or VkBufferCopy2.
bool CheckCopyBufferUsage(CommandBuffer& commandBuffer, const char* command, const Buffer& src, const Buffer& dst);
bool CheckCopyRegion(CommandBuffer& commandBuffer, const char* command, uint32_t index, VkDeviceSize size);
bool CheckNoOverlap(CommandBuffer& commandBuffer, const char* command, uint32_t a, VkDeviceSize srcOffset,
                    uint32_t b, VkDeviceSize dstOffset, VkDeviceSize srcSize, VkDeviceSize dstSize);

template <typename Region>
bool CheckCopyBuffer(CommandBuffer& commandBuffer, const char* command, const Buffer* src, const Buffer* dst,
                     uint32_t regionCount, const Region* regions) {
  if (src == nullptr || dst == nullptr) return true;
  if (!CheckCopyBufferUsage(commandBuffer, command, *src, *dst)) return false;
  for (uint32_t i = 0; i < regionCount; ++i)
    if (!CheckCopyRegion(commandBuffer, command, i, regions[i].size)) return false;
  // VUID-vkCmdCopyBuffer-pRegions-00117: "The union of the source regions, and the union of the destination
  // regions ... must not overlap in memory". Only one buffer can overlap itself; the pairs are few in practice,
  // and a huge region list is not worth a quadratic scan.
  if (src == dst && regionCount <= 256)
    for (uint32_t i = 0; i < regionCount; ++i)
      for (uint32_t j = 0; j < regionCount; ++j)
        if (!CheckNoOverlap(commandBuffer, command, i, regions[i].srcOffset, j, regions[j].dstOffset, regions[i].size,
                            regions[j].size))
          return false;
  return true;
}

}  // namespace crashtest
