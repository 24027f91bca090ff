// Section 8: the presented frames kept for a loss (options.captureLast, docs/wsi.md), written as PNG files when the
// device was lost, so a report names the pictures of what the application showed last.
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteCapturedFramesSection(ByteWriter& w, std::span<const CapturedFrame> frames) {
  w.List(frames.size(), [&](size_t i) {
    w.U64(frames[i].swapchain);
    w.U64(frames[i].frame);
    w.String(frames[i].path);
  });
}

}  // namespace crashtest::dump
