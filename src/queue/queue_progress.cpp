#include "queue/queue_progress.h"

namespace crashtest {

namespace {

// "command 4 (vkCmdDispatch)" for the command of index 3 — a message counts from 1, as fault reports do
// (docs/faults.md, "Numbering") — or "command 4" when the dump's command lists do not reach it.
std::string CommandText(const dump::Submission& s, uint32_t index) {
  const std::string number = "command " + std::to_string(uint64_t{index} + 1);
  for (const dump::CommandBufferRecord& cb : s.commandBuffers)
    for (const dump::Command& c : cb.commands)
      if (c.index == index) return number + " (" + c.name + ")";
  return number;
}

}  // namespace

void DescribeBetweenCommands(dump::Submission& out, uint32_t next, uint32_t total, const std::string& prefix) {
  for (dump::CommandBufferRecord& cb : out.commandBuffers)
    for (dump::Command& c : cb.commands)
      c.state = c.index < next ? dump::CommandState::Completed : dump::CommandState::NotRun;
  out.executing = dump::kNoCommand;
  out.executingName.clear();
  out.executingCommandBuffer = 0;
  std::string where;
  if (total == 0) {
    where = prefix.empty() ? "no commands in the submission" : "(no commands in the submission)";
  } else if (next == 0) {
    where = "before " + CommandText(out, 0) + ": no command started";
  } else if (next >= total) {
    where = "after " + CommandText(out, total - 1) + " completed, the last of the submission";
  } else {
    where = "between " + CommandText(out, next - 1) + " and " + CommandText(out, next) +
            ": the first completed, the second not started";
  }
  out.executingDetail = prefix + where;
}

}  // namespace crashtest
