// Where a queue is among its submission's commands, as it publishes it for a crash dump read from another thread
// (Executor::DescribeFromAnotherThread): one 64-bit value, stored before a command starts and after it completes,
// so a reader tells "executing command N" from "between command N-1 and command N" — a queue between two
// commands executes neither.
#pragma once

#include <cstdint>
#include <string>

#include "fault/dump/dump_content.h"

namespace crashtest {

struct QueueProgress {
  // Command `index` (from 0) started and has not completed.
  static constexpr uint64_t Started(uint32_t index) { return 2 * uint64_t{index} + 1; }
  // `count` commands completed; the next one (index `count`) has not started.
  static constexpr uint64_t Completed(uint32_t count) { return 2 * uint64_t{count}; }

  static constexpr bool IsExecuting(uint64_t progress) { return (progress & 1) != 0; }
  // The executing command, or (not executing) the next one: the number of commands completed.
  static constexpr uint32_t Command(uint64_t progress) { return static_cast<uint32_t>(progress / 2); }
};

// Rewrites `out`, a submission described with command `next` as the executing one, for a queue that completed
// the `next` commands before it and has not started command `next` (of `total`): no command executes, the
// commands from `next` on are "not run", and the state says where the queue stands, after `prefix` ("waiting on
// semaphores "), numbering commands from 1 as messages do: "before command 1 (vkCmdFillBuffer): no command
// started", "between command 3 (vkCmdFillBuffer) and command 4 (vkCmdDispatch): the first completed, the second
// not started", "after command 10 (vkCmdDispatch) completed, the last of the submission" or "no commands in the
// submission".
void DescribeBetweenCommands(dump::Submission& out, uint32_t next, uint32_t total, const std::string& prefix);

}  // namespace crashtest
