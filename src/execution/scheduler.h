// Runs a dispatch: its workgroups spread over the worker pool, each workgroup's subgroups run cooperatively up to
// each barrier, the first fault (in workgroup order, so the same one on every run and for any thread count) kept
// for the report.
#pragma once

#include <atomic>
#include <cstdint>

#include "execution/dispatch_context.h"
#include "execution/shader_fault.h"
#include "execution/worker_pool.h"

namespace crashtest::execution {

struct DispatchOutcome {
  ShaderFault fault;        // kind None when the dispatch completed without one
  bool cancelled = false;   // ended early because `external` was set (the device was lost meanwhile)
  uint64_t workgroups = 0;  // workgroups run
};

// `external` (may be nullptr): when it becomes true, the dispatch ends at the next check.
DispatchOutcome RunDispatch(const DispatchContext& context, WorkerPool& pool, const std::atomic<bool>* external);

}  // namespace crashtest::execution
