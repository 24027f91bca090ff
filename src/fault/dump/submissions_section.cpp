// Section 3: the failing submission(s): where the queue was (the executing command, named in the header so the
// size cap can never cut it), the label stack open there, and each command buffer's recorded commands with their
// state (completed, executing, not run).
#include "fault/dump/dump_sections.h"

namespace crashtest::dump {

void WriteSubmissionsSection(ByteWriter& w, std::span<const Submission> submissions) {
  w.List(submissions.size(), [&](size_t i) {
    const Submission& s = submissions[i];
    w.U32(s.family);
    w.U32(s.queue);
    w.U64(s.serial);
    w.U32(s.executing);
    w.U64(s.executingCommandBuffer);
    w.String(s.executingName);
    w.String(s.executingDetail);
    w.List(s.labels.size(), [&](size_t l) { w.String(s.labels[l]); });
    // Command lists come last: the cap cuts the commands of a long submission, never the submission.
    w.List(s.commandBuffers.size(), [&](size_t c) { WriteCommandBuffer(w, s.commandBuffers[c]); });
  });
}

void WriteCommandBuffer(ByteWriter& w, const CommandBufferRecord& cb) {
  w.U64(cb.id);
  w.String(cb.name);
  w.U32(cb.secondary ? 1 : 0);
  w.List(cb.commands.size(), [&](size_t k) {
    const Command& command = cb.commands[k];
    w.U32(command.index);
    w.U8(static_cast<uint8_t>(command.state));
    w.String(command.name);
    w.String(command.detail);
  });
}

}  // namespace crashtest::dump
