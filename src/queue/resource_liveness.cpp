#include "queue/resource_liveness.h"

#include <cinttypes>
#include <cstdio>

#include "command/command_records.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "device/device.h"
#include "device/resources.h"
#include "fault/fault_engine.h"
#include "queue/queue.h"

namespace crashtest {

namespace {

// Raises the use-after-free fault of `buffer` (read or written by the command) and returns false, or returns true
// when it and its memory are alive.
bool CheckBuffer(Queue& queue, const Buffer* buffer, bool write, const std::string& where) {
  if (buffer == nullptr) return true;
  live_objects::Entry entry;
  const live_objects::State state = live_objects::Find(buffer, VK_OBJECT_TYPE_BUFFER, &entry);
  char text[512];
  if (state == live_objects::State::Live) {
    // Live: its fields may be read. Its memory must be live too ("using a buffer whose memory was freed").
    const DeviceMemory* memory = buffer->memory();
    if (memory == nullptr) return true;  // never bound: the recording checks reject that elsewhere
    live_objects::Entry memoryEntry;
    if (live_objects::Find(memory, VK_OBJECT_TYPE_DEVICE_MEMORY, &memoryEntry) == live_objects::State::Live)
      return true;
    std::snprintf(text, sizeof text,
                  "use after free: %s of buffer %" PRIu64 " at 0x%" PRIx64 ", whose memory %" PRIu64
                  " was freed while work used it (VUID-vkFreeMemory-memory-00677)",
                  write ? "write" : "read", entry.id, entry.address, memoryEntry.id);
  } else if (state == live_objects::State::Destroyed) {
    std::snprintf(text, sizeof text,
                  "use after free: %s of buffer %" PRIu64 " at 0x%" PRIx64
                  ", destroyed while work used it (VUID-vkDestroyBuffer-buffer-00922)",
                  write ? "write" : "read", entry.id, entry.address);
  } else {
    std::snprintf(text, sizeof text,
                  "use after free: %s of a buffer that no longer exists (%p; destroyed while work used it, "
                  "VUID-vkDestroyBuffer-buffer-00922)",
                  write ? "write" : "read", static_cast<const void*>(buffer));
  }
  CT_ERROR("%s: %s", where.c_str(), text);
  PlannedFault planned;
  planned.id = "use-after-free";
  planned.effect = FaultEffect::DeviceLost;
  planned.report.description = text;
  planned.report.address = FaultAddress{
      write ? VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR : VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR,
      entry.address, 1};
  queue.device().faults().Inject(planned, ("at " + where).c_str());
  return false;
}

}  // namespace

bool TransferResourcesLive(Queue& queue, CommandOp op, const void* record, const std::string& where) {
  switch (op) {
    case CommandOp::CopyBuffer:
    case CommandOp::CopyBuffer2: {
      const auto* r = static_cast<const record::CopyBuffer*>(record);
      return CheckBuffer(queue, r->src, false, where) && CheckBuffer(queue, r->dst, true, where);
    }
    case CommandOp::CopyBufferToImage:
    case CommandOp::CopyBufferToImage2:
      return CheckBuffer(queue, static_cast<const record::BufferImageCopy*>(record)->buffer, false, where);
    case CommandOp::CopyImageToBuffer:
    case CommandOp::CopyImageToBuffer2:
      return CheckBuffer(queue, static_cast<const record::BufferImageCopy*>(record)->buffer, true, where);
    case CommandOp::UpdateBuffer:
      return CheckBuffer(queue, static_cast<const record::UpdateBuffer*>(record)->dst, true, where);
    case CommandOp::FillBuffer:
      return CheckBuffer(queue, static_cast<const record::FillBuffer*>(record)->dst, true, where);
    default:
      return true;
  }
}

}  // namespace crashtest
