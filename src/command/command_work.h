// What kind of work a command is, as far as the queue cares when it decides which thread runs a submission
// (docs/execution.md, "Threads"): a command buffer ORs the kinds of everything it records (CommandBuffer::work()).
#pragma once

#include <cstdint>

#include "command/command_ops.h"

namespace crashtest {

enum CommandWork : uint8_t {
  kWorkBlocks = 1,   // may block until something outside the submission happens: vkCmdWaitEvents waits for the host
                     // or another queue; vkCmdCopyQueryPoolResults with WAIT for queries of other work
  kWorkShader = 2,   // runs the shader interpreter for an unbounded time: dispatches
  kWorkDraw = 4,     // draws: rasterised, with vertex and fragment shaders on the interpreter
};

constexpr uint8_t CommandWorkOf(CommandOp op) {
  switch (op) {
    case CommandOp::WaitEvents:
    case CommandOp::WaitEvents2:
    case CommandOp::CopyQueryPoolResults:
      return kWorkBlocks;
    case CommandOp::Dispatch:
    case CommandOp::DispatchBase:
    case CommandOp::DispatchIndirect:
      return kWorkShader;
    case CommandOp::Draw:
    case CommandOp::DrawIndexed:
    case CommandOp::DrawIndirect:
    case CommandOp::DrawIndexedIndirect:
    case CommandOp::DrawIndirectCount:
    case CommandOp::DrawIndexedIndirectCount:
      return kWorkDraw;
    default:
      return 0;
  }
}

}  // namespace crashtest
