// One draw on the CPU: vertex indices (with primitive restart), the vertex stage, primitive assembly, clipping,
// rasterisation and the fragment stage, instance after instance, in primitive order (src/raster/README in
// docs/execution.md, "Draws").
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "execution/shader_fault.h"
#include "raster/draw_state.h"

namespace crashtest::execution {
class WorkerPool;
}

namespace crashtest::raster {

struct DrawOutcome {
  execution::ShaderFault fault;   // kind None when the draw completed without one
  bool faultInVertexStage = false;
  bool cancelled = false;         // ended early: the device was lost meanwhile
  // What pipeline-statistics queries count ("Pipeline Statistics Queries", Vulkan 1.3, 17.5), over every instance
  // and view, and the samples occlusion queries count.
  uint64_t fragmentsPassed = 0;      // samples that passed every test
  uint64_t inputVertices = 0;        // vertices input assembly read (restart indices are not vertices)
  uint64_t primitives = 0;           // primitives assembled (input-assembly primitives)
  uint64_t vertexInvocations = 0;    // a vertex referenced several times in an instance is shaded once
  uint64_t clippingInvocations = 0;  // primitives that reached the clipping stage
  uint64_t clippingPrimitives = 0;   // primitives clipping output (triangles of a clipped polygon)
  uint64_t fragmentInvocations = 0;  // fragment shader invocations, helper invocations excluded

  // Adds another pass's counts (multiview runs the draw once per view); the fault and flags are not summed.
  void AddCounts(const DrawOutcome& o) {
    fragmentsPassed += o.fragmentsPassed, inputVertices += o.inputVertices, primitives += o.primitives;
    vertexInvocations += o.vertexInvocations, clippingInvocations += o.clippingInvocations;
    clippingPrimitives += o.clippingPrimitives, fragmentInvocations += o.fragmentInvocations;
  }
};

// True when the draw can run: a topology and state the rasteriser handles; otherwise *reason says what it lacks.
bool CanRun(const DrawState& state, std::string* reason);

// Runs the draw: its vertices and its screen tiles spread over `pool`'s threads (nullptr: the calling thread only).
DrawOutcome RunDraw(const DrawState& state, const DrawCall& call, execution::WorkerPool* pool);

}  // namespace crashtest::raster
