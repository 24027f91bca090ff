// Spills and fills when a shader's register demand exceeds the machine's register budget, found by simulating a
// register allocator over the IR in SSA form: Belady's furthest-next-use rule (evict the value needed last) with
// next-use distances that count a loop exit as very far away (Braun and Hack, "Register Spilling and Live-Range
// Splitting for SSA-Form Programs", CC 2009). Values live through a loop but unused in it are therefore the first
// to go, and their spill (placed once, after the SSA definition) and fills stay outside the loop.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

// Next-use distance added for an edge that leaves a loop (in instructions).
inline constexpr uint64_t kLoopExitDistance = 1u << 20;

struct SpillEvent {
  enum class Kind : uint8_t { Spill, Fill, EdgeFill } kind = Kind::Spill;
  ir::ValueId value = ir::kNone;
  ir::BlockId block = ir::kNone;  // Spill: the defining block; Fill: the using block; EdgeFill: the predecessor
  uint32_t index = 0;             // Spill: after this instruction; Fill: before it; EdgeFill: the successor block
};

struct SpillResult {
  uint32_t spills = 0;             // stores to scratch (each spilled SSA value is stored once)
  uint32_t fills = 0;              // reloads from scratch
  uint32_t spilledComponents = 0;  // 32-bit scratch slots per invocation
  uint32_t spillsInLoops = 0, fillsInLoops = 0;
  uint64_t weightedSpills = 0, weightedFills = 0;  // each weighted by its block's execution weight
  std::vector<SpillEvent> events;  // in program order of discovery, for the annotated IR listing
};

// `weights` comes from BlockWeights(). With MaxLiveComponents() <= budget nothing is spilled. `components`, when
// not empty, is the register file's weight of each value (as given to Liveness::WithComponents; 0 for values
// another file holds), else every value counts RegisterComponents.
SpillResult SimulateSpilling(const ir::Module& module, const analysis::Liveness& liveness,
                             const analysis::LoopInfo& loops, const std::vector<uint64_t>& weights,
                             uint32_t budget, std::span<const uint32_t> components = {});

}  // namespace crashtest::statistics
