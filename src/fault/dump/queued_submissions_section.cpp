// Section 9: the submissions each queue held queued behind the one it was running, not started when the device
// was lost (the loss abandons them). A section of its own, so decoders that predate it skip it by its size, and
// last in the binary: the size cap cuts it before anything about the failing work.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteQueuedSubmissionsSection(ByteWriter& w, std::span<const QueuedSubmission> queued) {
  w.List(queued.size(), [&](size_t i) {
    const QueuedSubmission& s = queued[i];
    w.U32(s.family);
    w.U32(s.queue);
    w.U64(s.serial);
    w.List(s.commandBuffers.size(), [&](size_t c) { WriteCommandBuffer(w, s.commandBuffers[c]); });
  });
}

}  // namespace crashtest::dump
