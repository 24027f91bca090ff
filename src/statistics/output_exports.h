// Values written to a graphics stage's outputs, held in vector registers until the shader exports them at its
// end. A GPU back end does not send an output to the next stage when the shader stores it: Mesa copies every
// output of a vertex, tessellation evaluation or fragment shader to a temporary and writes all of them in the
// last block (nir_lower_io_to_temporaries, which RADV runs), and ACO emits the exports there (position and
// parameter exports, the colour exports of a fragment shader); Intel's back end likewise writes a vertex's URB
// entry once, at the end. So a value stored to an output stays in registers from its last use to the end, and
// the register demand of a shader that computes its outputs early includes them all.
//
// A geometry shader's outputs are held only on a model with geometryVerticesHeld (RDNA's NGG geometry shaders):
// there every emitted vertex's outputs stay until the end, once per copy of an unrolled emit loop, since each
// EmitVertex starts a new vertex rather than replacing the last one's outputs. Elsewhere EmitVertex consumes them.
//
// Not held: a tessellation control shader's (stored to
// shared memory where they are written, and readable back), compute stages (no outputs), and constant
// components (materialised next to the export).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "pipeline/analysis/liveness.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

struct HeldOutputs {
  // Per program position (instructions numbered block by block): output components held in vector registers
  // there, beyond what liveness counts. Empty when nothing is held.
  std::vector<uint32_t> componentsAt;
  uint32_t maxComponents = 0;
};

// `vectorComponents`: per value, its components in vector registers (empty = every value's RegisterComponents,
// a model without a scalar register file).
// `blockCopies` and `foldsAway`: the loop unrolling's (LoopUnrolling), for geometry shaders; empty = none.
HeldOutputs FindHeldOutputs(const ir::Module& module, VkShaderStageFlagBits stage,
                            std::span<const uint32_t> vectorComponents, bool geometryVerticesHeld = false,
                            std::span<const uint64_t> blockCopies = {}, const std::vector<bool>& foldsAway = {});

// The peak of the vector file's live components (each value weighted by `vectorComponents`) plus the held
// outputs, walking only the blocks where something is held: the same result as the per-instruction tables of
// liveness.WithComponents, without building them.
uint32_t PeakWithHeldOutputs(const ir::Module& module, const analysis::Liveness& liveness,
                             std::span<const uint32_t> vectorComponents, const HeldOutputs& held);

}  // namespace crashtest::statistics
