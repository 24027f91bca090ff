#include "command/transfer_checks.h"

namespace crashtest {
namespace {

unsigned long long U(VkDeviceSize v) { return static_cast<unsigned long long>(v); }

bool CheckDstUsage(CommandBuffer& commandBuffer, const char* command, const Buffer& dst, const char* vuid) {
  if (dst.usage() & VK_BUFFER_USAGE_TRANSFER_DST_BIT) return true;
  commandBuffer.Misuse("%s: buffer %llu was not created with TRANSFER_DST usage (%s)", command, U(dst.header.id),
                       vuid);
  return false;
}

}  // namespace

bool CheckFillBuffer(CommandBuffer& commandBuffer, const Buffer* dst, VkDeviceSize offset, VkDeviceSize size) {
  // VUID-vkCmdFillBuffer-dstOffset-00025: "dstOffset must be a multiple of 4".
  if (offset % 4 != 0) {
    commandBuffer.Misuse("vkCmdFillBuffer: dstOffset %llu is not a multiple of 4 (VUID-vkCmdFillBuffer-dstOffset-00025)",
                         U(offset));
    return false;
  }
  // VUID-vkCmdFillBuffer-size-00026 / -00028: "If size is not equal to VK_WHOLE_SIZE, size must be greater than 0"
  // and "a multiple of 4".
  if (size != VK_WHOLE_SIZE && (size == 0 || size % 4 != 0)) {
    commandBuffer.Misuse("vkCmdFillBuffer: size %llu is %s (VUID-vkCmdFillBuffer-size-%s)", U(size),
                         size == 0 ? "0" : "not a multiple of 4", size == 0 ? "00026" : "00028");
    return false;
  }
  return dst == nullptr ||
         CheckDstUsage(commandBuffer, "vkCmdFillBuffer", *dst, "VUID-vkCmdFillBuffer-dstBuffer-00029");
}

bool CheckUpdateBuffer(CommandBuffer& commandBuffer, const Buffer* dst, VkDeviceSize offset, VkDeviceSize size) {
  // VUID-vkCmdUpdateBuffer-dstOffset-00036: "dstOffset must be a multiple of 4"; -dataSize-00037: "dataSize must
  // be less than or equal to 65536"; -dataSize-00038: "dataSize must be a multiple of 4"; and "greater than 0"
  // (the implicit VUID-vkCmdUpdateBuffer-dataSize-arraylength).
  if (offset % 4 != 0) {
    commandBuffer.Misuse("vkCmdUpdateBuffer: dstOffset %llu is not a multiple of 4 "
                         "(VUID-vkCmdUpdateBuffer-dstOffset-00036)", U(offset));
    return false;
  }
  if (size == 0 || size > 65536 || size % 4 != 0) {
    commandBuffer.Misuse("vkCmdUpdateBuffer: dataSize %llu is not a multiple of 4 in (0, 65536] "
                         "(VUID-vkCmdUpdateBuffer-dataSize-00037, -00038, -arraylength)", U(size));
    return false;
  }
  return dst == nullptr ||
         CheckDstUsage(commandBuffer, "vkCmdUpdateBuffer", *dst, "VUID-vkCmdUpdateBuffer-dstBuffer-00034");
}

bool CheckCopyBufferUsage(CommandBuffer& commandBuffer, const char* command, const Buffer& src, const Buffer& dst) {
  // VUID-vkCmdCopyBuffer-srcBuffer-00118 / -dstBuffer-00120: TRANSFER_SRC and TRANSFER_DST usage.
  if ((src.usage() & VK_BUFFER_USAGE_TRANSFER_SRC_BIT) == 0) {
    commandBuffer.Misuse("%s: buffer %llu was not created with TRANSFER_SRC usage (VUID-vkCmdCopyBuffer-srcBuffer-00118)",
                         command, U(src.header.id));
    return false;
  }
  return CheckDstUsage(commandBuffer, command, dst, "VUID-vkCmdCopyBuffer-dstBuffer-00120");
}

bool CheckCopyRegion(CommandBuffer& commandBuffer, const char* command, uint32_t index, VkDeviceSize size) {
  // VUID-VkBufferCopy-size-01988: "The size must be greater than 0".
  if (size != 0) return true;
  commandBuffer.Misuse("%s: pRegions[%u] has size 0 (VUID-VkBufferCopy-size-01988)", command, index);
  return false;
}

bool CheckNoOverlap(CommandBuffer& commandBuffer, const char* command, uint32_t a, VkDeviceSize srcOffset,
                    uint32_t b, VkDeviceSize dstOffset, VkDeviceSize srcSize, VkDeviceSize dstSize) {
  // [srcOffset, srcOffset + srcSize) and [dstOffset, dstOffset + dstSize) intersect; written without sums that
  // could wrap.
  const bool overlap = srcOffset < dstOffset ? dstOffset - srcOffset < srcSize : srcOffset - dstOffset < dstSize;
  if (!overlap) return true;
  commandBuffer.Misuse("%s: the source of pRegions[%u] and the destination of pRegions[%u] overlap in buffer memory "
                       "(VUID-vkCmdCopyBuffer-pRegions-00117)", command, a, b);
  return false;
}

}  // namespace crashtest
