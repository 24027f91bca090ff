// What a queue has learned about how long each compute pipeline's workgroups take on the interpreter, so that a
// submission with dispatches can run on the submitting thread when it is known to be short (queue/inline_submit.h).
//
// Measured, not guessed: a pipeline's first dispatch always goes to the queue's worker, and later ones run inline
// only while the prediction from its past dispatches stays within kInlineDispatchBudget. The estimate rises at
// once with a slower dispatch and decays slowly, so one fast run does not hide a slow pipeline.
// Owned by the queue's Executor: written by whichever thread runs the queue's work, read at submit only while the
// queue is idle (so never concurrently).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace crashtest {

// The most a submission's dispatches may be expected to take for it to run inline: on a GPU the application keeps
// its thread while dispatches run, and with this budget it loses at most a quarter millisecond of that overlap,
// while a hand-off to the worker and back costs 10-130 us (docs/benchmarks.md, "Issue 21").
inline constexpr std::chrono::microseconds kInlineDispatchBudget{250};

class DispatchHistory {
 public:
  // A dispatch of `workgroups` workgroups of pipeline `pipelineId` (its object id) took `elapsed`.
  void Record(uint64_t pipelineId, uint64_t workgroups, std::chrono::nanoseconds elapsed);
  // The expected time of `workgroups` workgroups of the pipeline; nothing when it never ran on this queue.
  std::optional<std::chrono::nanoseconds> Predict(uint64_t pipelineId, uint64_t workgroups) const;

 private:
  // Nanoseconds per workgroup, counting a dispatch's fixed cost as one workgroup's.
  std::unordered_map<uint64_t, double> nanosecondsPerWorkgroup_;
};

}  // namespace crashtest
