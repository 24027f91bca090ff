// How often each block runs relative to one invocation of the shader, from the loop analysis: the product of
// the trip counts of the loops around it (a default factor where the trip count is unknown). The cycle estimate
// and the spill placement use it.
#pragma once

#include <cstdint>
#include <vector>

#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

// Loops whose trip count the analysis cannot prove are assumed to run this many times.
inline constexpr uint64_t kDefaultLoopTripCount = 16;
// Weights saturate here so that deep nests of unknown loops do not overflow the cycle estimate.
inline constexpr uint64_t kMaxBlockWeight = uint64_t{1} << 32;

std::vector<uint64_t> BlockWeights(const ir::Module& module, const analysis::LoopInfo& loops);

// Whether `block` lies inside loop `loop` (the loop itself or one nested in it contains it).
bool InLoop(const analysis::LoopInfo& loops, uint32_t loop, ir::BlockId block);
// Whether the edge from -> to leaves at least one loop that contains `from`.
bool LeavesLoop(const analysis::LoopInfo& loops, ir::BlockId from, ir::BlockId to);

// Arithmetic for weights and cycle sums, saturating at UINT64_MAX instead of wrapping (inline: the instruction
// count calls them several times per instruction).
inline uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return UINT64_MAX;
  return product;
}
inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return UINT64_MAX;
  return sum;
}

}  // namespace crashtest::statistics
