// What a queue publishes per command for a crash dump read from another thread (queue/queue_progress.h), and how a
// queue standing between two commands is described: no command executing, the one before completed, the next not
// started — named precisely, never as the next command "executing".
#include <gtest/gtest.h>

#include "queue/queue_progress.h"

namespace crashtest {
namespace {

// Commands 0..4 of one submission in two command buffers (0-2 and 3-4), described as if command `next` executed.
dump::Submission FiveCommands(uint32_t next) {
  const char* names[] = {"vkCmdFillBuffer", "vkCmdBindPipeline", "vkCmdDispatch", "vkCmdSetEvent", "vkCmdDispatch"};
  dump::Submission s;
  s.serial = 2;
  s.executing = next;
  s.executingName = next < 5 ? names[next] : "";
  s.executingCommandBuffer = next < 3 ? 10 : 11;
  for (uint32_t cb = 0; cb < 2; ++cb) {
    dump::CommandBufferRecord record;
    record.id = 10 + cb;
    for (uint32_t i = cb == 0 ? 0 : 3; i < (cb == 0 ? 3u : 5u); ++i)
      record.commands.push_back({i, names[i], "",
                                 i < next    ? dump::CommandState::Completed
                                 : i == next ? dump::CommandState::Executing
                                             : dump::CommandState::NotRun});
    s.commandBuffers.push_back(record);
  }
  return s;
}

TEST(QueueProgress, TellsAStartedCommandFromCompletedOnes) {
  EXPECT_EQ(QueueProgress::Completed(0), 0u);
  EXPECT_FALSE(QueueProgress::IsExecuting(QueueProgress::Completed(0)));
  EXPECT_TRUE(QueueProgress::IsExecuting(QueueProgress::Started(0)));
  EXPECT_EQ(QueueProgress::Command(QueueProgress::Started(7)), 7u);
  EXPECT_TRUE(QueueProgress::IsExecuting(QueueProgress::Started(7)));
  EXPECT_EQ(QueueProgress::Command(QueueProgress::Completed(8)), 8u);
  EXPECT_FALSE(QueueProgress::IsExecuting(QueueProgress::Completed(8)));
  // The largest command number survives the encoding.
  EXPECT_EQ(QueueProgress::Command(QueueProgress::Started(UINT32_MAX)), UINT32_MAX);
  EXPECT_TRUE(QueueProgress::IsExecuting(QueueProgress::Started(UINT32_MAX)));
}

TEST(QueueProgress, BetweenTwoCommandsNamesBothAndRunsNeither) {
  // Index 2 completed, index 3 (the next command buffer's first) not started.
  dump::Submission s = FiveCommands(3);
  DescribeBetweenCommands(s, 3, 5, "");
  EXPECT_EQ(s.executing, dump::kNoCommand);
  EXPECT_TRUE(s.executingName.empty());
  EXPECT_EQ(s.executingCommandBuffer, 0u);
  EXPECT_EQ(s.executingDetail,
            "between command 3 (vkCmdDispatch) and command 4 (vkCmdSetEvent): the first completed, the second not "
            "started")
      << "messages count commands from 1";
  for (const dump::CommandBufferRecord& cb : s.commandBuffers)
    for (const dump::Command& c : cb.commands)
      EXPECT_EQ(c.state, c.index < 3 ? dump::CommandState::Completed : dump::CommandState::NotRun) << c.index;
}

TEST(QueueProgress, BeforeTheFirstAndAfterTheLastCommand) {
  dump::Submission before = FiveCommands(0);
  DescribeBetweenCommands(before, 0, 5, "waiting on semaphores ");
  EXPECT_EQ(before.executingDetail, "waiting on semaphores before command 1 (vkCmdFillBuffer): no command started");
  EXPECT_EQ(before.commandBuffers[0].commands[0].state, dump::CommandState::NotRun);

  dump::Submission after = FiveCommands(5);
  DescribeBetweenCommands(after, 5, 5, "");
  EXPECT_EQ(after.executing, dump::kNoCommand);
  EXPECT_EQ(after.executingDetail, "after command 5 (vkCmdDispatch) completed, the last of the submission");
  EXPECT_EQ(after.commandBuffers[1].commands[1].state, dump::CommandState::Completed);

  dump::Submission empty;
  empty.serial = 1;
  DescribeBetweenCommands(empty, 0, 0, "waiting on semaphores ");
  EXPECT_EQ(empty.executingDetail, "waiting on semaphores (no commands in the submission)");
}

// A command the dump's bounded lists do not reach is still named by its number.
TEST(QueueProgress, ACommandCutFromTheListIsNamedByNumber) {
  dump::Submission s = FiveCommands(3);
  s.commandBuffers.pop_back();
  DescribeBetweenCommands(s, 3, 5, "");
  EXPECT_EQ(s.executingDetail,
            "between command 3 (vkCmdDispatch) and command 4: the first completed, the second not started");
}

}  // namespace
}  // namespace crashtest
