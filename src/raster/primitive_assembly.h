// Input assembly of a draw ("Drawing Commands" and "Primitive Topologies", Vulkan 1.3, 21): the vertex index of
// each element (index buffer reads with primitive restart), the distinct vertices to shade, and the triangles the
// topology makes of the elements.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/draw_state.h"

namespace crashtest::raster {

constexpr uint32_t kRestart = UINT32_MAX;

// The vertex index of each of the draw's elements (kRestart where a primitive restarts). False with *badAddress on
// a read past the index buffer, like a GPU's page fault; *ids then holds the elements before it.
bool ReadIndices(const DrawState& state, const DrawCall& call, std::vector<uint32_t>* ids, uint64_t* badAddress);

// The distinct vertex indices of `ids` in first-use order (`unique`) and, per element, its position in `unique`
// (`slots`; kRestart stays). A vertex referenced several times is shaded once, as a GPU's post-transform cache
// does ("vertex shader invocations": an implementation may shade a vertex once for several references).
void DeduplicateVertices(const std::vector<uint32_t>& ids, std::vector<uint32_t>* unique,
                         std::vector<uint32_t>* slots);

// One assembled triangle: three vertex slots, and the slot of the vertex its flat varyings come from (the provoking
// vertex: the first for triangles; the line's first endpoint for the rectangles of lines).
struct AssembledTriangle {
  uint32_t v[3];
  uint32_t provoking;
};

// Triangles of the elements between restarts, as "Triangle Lists / Strips / Fans" (21.1.x) number them, their
// vertex order kept, appended to *out (element slots taken from `slots`).
void AssembleTriangles(VkPrimitiveTopology topology, const std::vector<uint32_t>& slots,
                       std::vector<AssembledTriangle>* out);

}  // namespace crashtest::raster
