// A subgroup's state while it runs: its registers as [slot][lane] arrays, its private memory, the workgroup's
// memory, the execution mask, and where it stopped (a barrier, a fault). Operations (ops/) read and write through
// the helpers here; everything a dispatch shares (bindings, fault sink) is in DispatchContext.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "execution/bindings.h"
#include "execution/executable.h"
#include "execution/shader_fault.h"

namespace crashtest::execution {

inline constexpr uint32_t kMaxSubgroupWidth = 64;

struct DispatchContext;

struct SubgroupState {
  const Executable* exe = nullptr;
  const DispatchContext* dispatch = nullptr;
  uint32_t width = 0;                // lanes (the subgroup size)
  uint32_t* regs = nullptr;          // exe->slotCount * width words
  uint32_t* priv = nullptr;          // exe->privateWords * width words, [word][lane]
  uint32_t* shared = nullptr;        // the workgroup's memory, exe->sharedWords words
  uint32_t* laneMask = nullptr;      // width words: ~0u for an active lane, 0 otherwise
  uint64_t active = 0;               // the lanes executing the current block
  uint64_t live = 0;                 // the lanes that exist (a partial last subgroup has fewer)
  bool full = false;                 // active == every lane of the subgroup (all `width` lanes)
  // Fragment quads: lanes that are helper invocations (uncovered pixels of a quad, or demoted), and lanes that
  // ended with OpKill/OpTerminateInvocation or were demoted (their outputs are discarded).
  uint64_t helpers = 0;
  uint64_t killed = 0;
  // Fragment quads: each lane's pixel and the layer being rendered (the view index), which subpass inputs read
  // at (nullptr outside fragment shaders).
  const int32_t* pixelX = nullptr;
  const int32_t* pixelY = nullptr;
  uint32_t pixelLayer = 0;
  // Fragment quads: the sample locations of the rasterisation, as (x, y) offsets from the pixel centre, for
  // InterpolateAtSample (nullptr and 0 outside fragment shaders).
  const float* samplePositions = nullptr;
  uint32_t sampleCount = 0;

  // Control (interpreter.cpp).
  uint64_t* blockMask = nullptr;     // lanes waiting at each block position
  uint32_t pos = 0, ip = 0;          // block position, operation index within it (resume after a barrier)
  bool resuming = false;             // pos/ip are a barrier's resume point
  bool finished = false;
  bool yielded = false;              // set by a workgroup barrier: run the other subgroups first
  bool stop = false;                 // set by a fault: the subgroup ends now
  uint64_t instructions = 0;         // operations executed, for the instruction budget
  uint32_t backEdges = 0;            // loop iterations, to look at the clock and the cancel flag now and then

  // Identity, for built-ins and fault reports.
  uint32_t workgroup[3] = {0, 0, 0};
  uint32_t subgroupId = 0;           // within the workgroup
  uint32_t firstLocalIndex = 0;      // LocalInvocationIndex of lane 0

  // The last physical-storage-buffer range found, so walking one buffer does not search the map each time.
  AddressRange cachedRange{};

  ShaderFault fault;                 // the first fault of this subgroup (kind None until one happens)

  uint32_t* Slot(uint32_t slot) { return regs + static_cast<size_t>(slot) * width; }
  const uint32_t* Slot(uint32_t slot) const { return regs + static_cast<size_t>(slot) * width; }
  bool Active(uint32_t lane) const { return (active >> lane) & 1; }

  void SetActive(uint64_t mask) {
    active = mask;
    full = mask == (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
    for (uint32_t l = 0; l < width; ++l) laneMask[l] = ((mask >> l) & 1) ? ~0u : 0u;
  }
};

// Writes `value` into `dst[lane]` for an active lane only; compiles to a blend, so loops over all lanes stay
// vectorised.
inline uint32_t Blend(uint32_t mask, uint32_t value, uint32_t old) { return (value & mask) | (old & ~mask); }

// Iterates the set bits of a lane mask.
template <typename F>
inline void ForEachLane(uint64_t mask, F&& f) {
  while (mask != 0) {
    uint32_t lane = static_cast<uint32_t>(std::countr_zero(mask));
    mask &= mask - 1;
    f(lane);
  }
}

inline uint64_t Join(uint32_t lo, uint32_t hi) { return uint64_t{lo} | (uint64_t{hi} << 32); }

}  // namespace crashtest::execution
