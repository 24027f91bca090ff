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
  uint64_t fragmentsPassed = 0;   // samples that passed every test (occlusion queries)
  uint64_t vertexInvocations = 0;
  uint64_t primitives = 0;        // primitives assembled (input-assembly primitives)
};

// True when the draw can run: a topology and state the rasteriser handles; otherwise *reason says what it lacks.
bool CanRun(const DrawState& state, std::string* reason);

// Runs the draw: its vertices and its screen tiles spread over `pool`'s threads (nullptr: the calling thread only).
DrawOutcome RunDraw(const DrawState& state, const DrawCall& call, execution::WorkerPool* pool);

}  // namespace crashtest::raster
