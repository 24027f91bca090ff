// Full unrolling of counted loops, as the back-end compiler does before it emits code. Mesa's NIR (RADV's front
// half before ACO) unrolls a loop whose trip count is known when the trip count is at most the machine model's
// loopUnrollIterations and the unrolled body stays small (trip count x body instructions at most 26 per allowed
// iteration); it unrolls up to loopUnrollIterationsForLoads iterations when the body is straight-line code with a
// dynamically addressed load (unrolled, the scheduler can keep those loads in flight together), and regardless of
// the body's size when the loop indexes a private array with its counter (unrolled, the indices become constants
// and the array becomes registers). Inner loops are unrolled first; a loop that still contains a loop is not.
//
// The statistics count an unrolled loop's instructions once per iteration (the static code is that long) and drop
// its exit test (the branch is gone), as the machine code would; what depends only on the counter folds into
// constants in each copy. A loop marked DontUnroll is never unrolled, one marked Unroll always when its trip count
// is known.
#pragma once

#include <cstdint>
#include <vector>

#include "device/device_description.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

struct LoopUnrolling {
  std::vector<bool> unrolled;        // per loop of LoopInfo
  std::vector<uint64_t> blockCopies;  // per block: copies of it in the machine code (1 outside unrolled loops)
  // Whether `block` holds the exit test of an unrolled loop (its header or a latch), whose branch is removed.
  std::vector<bool> exitTestRemoved;
  // Per value: computed from the iteration number alone in an unrolled loop (the counter, values derived from it
  // and constants by pure instructions), so each copy of it is a constant after unrolling and costs nothing.
  std::vector<bool> foldsAway;
};

LoopUnrolling UnrollLoops(const ir::Module& module, const analysis::LoopInfo& loops, const MachineModel& model);

}  // namespace crashtest::statistics
