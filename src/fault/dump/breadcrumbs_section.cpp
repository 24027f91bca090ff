// Section 7: the breadcrumbs engines leave: the last VK_AMD_buffer_marker write of each queue and the
// VK_NV_device_diagnostic_checkpoints markers reached at the top and bottom of each queue's pipe.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteBreadcrumbsSection(ByteWriter& w, std::span<const BufferMarker> markers,
                             std::span<const Checkpoint> checkpoints) {
  w.List(markers.size(), [&](size_t i) {
    const BufferMarker& m = markers[i];
    w.U32(m.family);
    w.U32(m.queue);
    w.U64(m.buffer);
    w.U64(m.offset);
    w.U32(m.value);
    w.U64(m.stage);
  });
  w.List(checkpoints.size(), [&](size_t i) {
    const Checkpoint& c = checkpoints[i];
    w.U32(c.family);
    w.U32(c.queue);
    w.U64(c.stage);
    w.U64(c.marker);
  });
}

}  // namespace crashtest::dump
