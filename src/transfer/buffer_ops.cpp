// Buffer-only transfers: vkCmdCopyBuffer2, vkCmdFillBuffer, vkCmdUpdateBuffer.
#include <cstring>

#include "common/log.h"
#include "transfer/surface_ops.h"

namespace crashtest::transfer {

namespace {

bool InBuffer(BufferBytes buffer, VkDeviceSize offset, VkDeviceSize size) {
  return buffer.data != nullptr && offset <= buffer.size && size <= buffer.size - offset;
}

}  // namespace

void CopyBuffer(BufferBytes src, BufferBytes dst, std::span<const VkBufferCopy2> regions) {
  for (const VkBufferCopy2& region : regions) {
    if (!InBuffer(src, region.srcOffset, region.size) || !InBuffer(dst, region.dstOffset, region.size)) {
      CT_WARN("vkCmdCopyBuffer: region (src %llu, dst %llu, size %llu) is outside a buffer or a buffer is unbound; "
              "skipped", static_cast<unsigned long long>(region.srcOffset),
              static_cast<unsigned long long>(region.dstOffset), static_cast<unsigned long long>(region.size));
      continue;
    }
    // memmove: "The regions must not overlap in memory" (VUID-VkCopyBufferInfo2-pRegions-00117) is the app's
    // promise; honouring an overlap costs nothing measurable and keeps a broken app's bytes deterministic.
    std::memmove(dst.data + region.dstOffset, src.data + region.srcOffset, region.size);
  }
}

void FillBuffer(BufferBytes dst, VkDeviceSize offset, VkDeviceSize size, uint32_t data) {
  // "If VK_WHOLE_SIZE is used and the remaining size of the buffer is not a multiple of 4, then the nearest
  // smaller multiple is used" (vkCmdFillBuffer).
  if (size == VK_WHOLE_SIZE) size = offset <= dst.size ? (dst.size - offset) & ~VkDeviceSize{3} : 0;
  if (!InBuffer(dst, offset, size)) {
    CT_WARN("vkCmdFillBuffer: range (offset %llu, size %llu) is outside the buffer or it is unbound; skipped",
            static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size));
    return;
  }
  std::byte pattern[4];
  std::memcpy(pattern, &data, 4);  // "data is the 4-byte word written repeatedly", in host (little-endian) order
  FillPattern(dst.data + offset, size, pattern, 4);
}

void UpdateBuffer(BufferBytes dst, VkDeviceSize offset, std::span<const std::byte> data) {
  if (!InBuffer(dst, offset, data.size())) {
    CT_WARN("vkCmdUpdateBuffer: range (offset %llu, size %zu) is outside the buffer or it is unbound; skipped",
            static_cast<unsigned long long>(offset), data.size());
    return;
  }
  std::memcpy(dst.data + offset, data.data(), data.size());
}

}  // namespace crashtest::transfer
