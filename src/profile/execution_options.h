// The configuration's "options" that govern shader execution (docs/configuration.md, docs/execution.md).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>

#include "profile/read_context.h"

namespace crashtest {

// What an out-of-bounds access in a shader does when robust buffer access is not enabled.
enum class ShaderFaultMode : uint8_t {
  Lose,    // a device fault that loses the device, as a GPU page fault does (the default)
  Masked,  // a masked fault report; the access reads zero / is dropped and the dispatch goes on
  Off,     // no fault: robust semantics (reads zero, writes dropped)
};

// What a queue does with a semaphore wait that has not completed after stuckWaitMs (issue 18): a wait nobody will
// ever satisfy (a binary semaphore with no signal, a timeline value nobody signals) otherwise blocks a CI job until
// its own timeout.
enum class StuckWaitMode : uint8_t {
  Log,   // an error naming the semaphore and the submission; the queue goes on waiting (the default)
  Lose,  // the same error, then a device loss with a report, as a GPU hang ends
};

struct ExecutionOptions {
  uint32_t computeThreads = 0;  // threads running a dispatch's workgroups; 0: the machine's cores
  ShaderFaultMode shaderFaults = ShaderFaultMode::Lose;
  // A dispatch still running after this many milliseconds is a hang: the device is lost with WATCHDOG_TIMEOUT.
  uint32_t shaderTimeoutMs = 10000;
  // Operations one subgroup may execute in one workgroup before it counts as hung (0: no limit). At the
  // interpreter's speed, about 5-20 s of one endless loop; far beyond any legitimate shader.
  uint64_t shaderInstructionBudget = 1000000000;
  // A queue's semaphore wait still unsatisfied after this many milliseconds is reported (0: never).
  uint32_t stuckWaitMs = 10000;
  StuckWaitMode stuckWaits = StuckWaitMode::Log;
};

// Reads the execution members of "options"; other members are left to their readers. False on an error.
bool ReadExecutionOptions(const ReadContext& ctx, const nlohmann::json& options, ExecutionOptions& out);

}  // namespace crashtest
