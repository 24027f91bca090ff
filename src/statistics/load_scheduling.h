// The register cost of keeping memory loads in flight. A GPU hides a load's latency by issuing it long before its
// result is used, and a back end's pre-register-allocation scheduler arranges that: ACO's (aco_scheduler.cpp,
// used by RADV) walks each block and, for every vector memory instruction with a result (buffer and image loads,
// texel fetches, samples), moves the independent instructions above it to below it, so the load climbs up to
// what it depends on, as long as the block's vector register demand stays within a ceiling. The loaded values
// are then live longer and several loads' results are live at once, so the registers a shader is given exceed
// its unscheduled demand (texel_buffers.comp: demand 15, 16 registers unscheduled; 32 scheduled, as RADV).
//
// The same moves here, on the IR's blocks (values and their vector-register components from the register-file
// split): a load does not climb past an atomic, barrier, kill or another vector load (their order is kept, as ACO
// keeps VMEM order outside clauses), nor past a store that may alias it (memory_aliasing.h: a store to buffers or
// images stops a load of memory the shader also writes; stores to workgroup memory or registers, and any store
// before a load of memory the shader never writes, move below it), nor does a load from memory move below one of
// those that stays; an
// instruction does not move below the load when the load (or an instruction it depends on) reads one of its
// operands for the last time (ACO's read-after-read rule: that would lengthen the operand's life, not the
// load's); and no move may take the block's demand above the ceiling, the machine model's
// loadSchedulingRegisters or the demand itself when higher (a scheduler does not lower the occupancy the
// shader's own demand sets). Not modelled: ACO's second half, which moves independent instructions after a load
// above its first use (on the IR, whose loops are not unrolled and whose address arithmetic ACO folds, it moved
// values the wrong way: image_atomics.comp went from 8 registers, as RADV, to 16), and clause grouping.
#pragma once

#include <cstdint>
#include <span>

#include "pipeline/analysis/liveness.h"
#include "pipeline/analysis/loops.h"
#include "pipeline/ir/module.h"
#include "statistics/loop_unrolling.h"

namespace crashtest::statistics {

struct LoadScheduling {
  uint32_t demand = 0;  // peak vector components live at once after scheduling (>= the unscheduled peak)
  uint32_t moves = 0;   // instructions moved from above a load to below it
};

// `components[v]`: 32-bit vector-register components of value v (0 for values in scalar registers or memory).
// `ceiling`: the most vector components the scheduler may let a block reach.
// `inputsFromMemory`: the stage's Input loads are vector memory loads (on AMD a vertex shader's attributes are
// fetched by the shader with buffer loads, and a tessellation evaluation shader reads its control points from
// the off-chip ring buffer), so the scheduler hoists them like any other.
LoadScheduling ScheduleLoads(const ir::Module& module, const analysis::Liveness& liveness,
                             std::span<const uint32_t> components, uint32_t ceiling, bool inputsFromMemory = false);

// The same scheduler on a loop the back end unrolls (loop_unrolling.h): the copies are one straight block, and each
// iteration's loads whose addresses do not depend on a load of the loop climb above the first copy's uses, so
// every iteration's loaded values are in flight together (spec_constants.comp's seven taps: seven loads, then the
// sum; image_blur.comp's eight image loads). Per unrolled loop: the vector components live into it (less the
// header phis that start from a constant: they hold nothing until the first copy computes them) plus trip count x
// the components its hoistable loads produce, at most `ceiling`. Returns the largest such demand (0 without one).
uint32_t UnrolledLoadsInFlight(const ir::Module& module, const analysis::Liveness& liveness,
                               const analysis::LoopInfo& loops, const LoopUnrolling& unrolling,
                               std::span<const uint32_t> components, uint32_t ceiling);

}  // namespace crashtest::statistics
