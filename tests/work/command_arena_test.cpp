// The command stream as an internal class: records come back in order with their payloads, across chunk
// boundaries and oversized records, and chunks are reused after a clear.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "command/command_arena.h"
#include "command/command_ops.h"

namespace crashtest {
namespace {

struct Small {
  uint32_t value;
};

TEST(CommandArena, RecordsComeBackInOrderAcrossChunks) {
  ChunkCache cache(nullptr);
  CommandArena arena(cache);
  constexpr uint32_t kCount = 5000;  // several standard chunks
  for (uint32_t i = 0; i < kCount; ++i) {
    Small* record = arena.Append<Small>(CommandOp::FillBuffer, i % 5);
    ASSERT_NE(record, nullptr);
    record->value = i;
    std::memset(PayloadOf<std::byte>(record), static_cast<int>(i & 0xff), i % 5);
  }
  // An UpdateBuffer-sized payload larger than a standard chunk gets a chunk of its own.
  Small* big = arena.Append<Small>(CommandOp::UpdateBuffer, 65536);
  ASSERT_NE(big, nullptr);
  big->value = kCount;
  EXPECT_EQ(arena.commandCount(), kCount + 1);
  uint32_t seen = 0;
  ForEachRecord(arena, [&](const CommandHeader& header, const void* record) {
    const auto* small = static_cast<const Small*>(record);
    EXPECT_EQ(small->value, seen);
    EXPECT_EQ(header.op, seen == kCount ? CommandOp::UpdateBuffer : CommandOp::FillBuffer);
    if (seen < kCount && seen % 5 != 0) {
      EXPECT_EQ(PayloadOf<uint8_t>(small)[0], static_cast<uint8_t>(seen & 0xff));
    }
    ++seen;
  });
  EXPECT_EQ(seen, kCount + 1);
  arena.Clear(false);
  EXPECT_EQ(arena.commandCount(), 0u);
  int records = 0;
  ForEachRecord(arena, [&](const CommandHeader&, const void*) { ++records; });
  EXPECT_EQ(records, 0);
}

TEST(CommandArena, ChunksAreReusedAfterClear) {
  ChunkCache cache(nullptr);
  CommandArena arena(cache);
  arena.Append<Small>(CommandOp::Draw);
  const CommandChunk* first = arena.firstChunk();
  arena.Clear(false);
  arena.Append<Small>(CommandOp::Draw);
  EXPECT_EQ(arena.firstChunk(), first);
}

TEST(CommandOps, NamesMatchTheVulkanCommands) {
  EXPECT_STREQ(CommandName(CommandOp::CopyBuffer), "vkCmdCopyBuffer");
  EXPECT_STREQ(CommandName(CommandOp::BeginRendering), "vkCmdBeginRendering");
  EXPECT_STREQ(CommandName(CommandOp::InsertDebugUtilsLabelEXT), "vkCmdInsertDebugUtilsLabelEXT");
  EXPECT_STREQ(CommandName(CommandOp::Count), "vkCmd(unknown)");
}

}  // namespace
}  // namespace crashtest
