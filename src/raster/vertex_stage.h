// The vertex stage of a draw: fetches each vertex's attributes from the bound vertex buffers ("Vertex Input
// Description", Vulkan 1.3, 22; formats through the texel codec), runs the vertex shader on the interpreter with
// vertices as lanes, and keeps the position and the varyings the fragment stage reads.
#pragma once

#include <cstdint>
#include <vector>

#include "execution/invocation_batch.h"
#include "execution/shader_fault.h"
#include "raster/draw_state.h"
#include "raster/shaded_vertex.h"

namespace crashtest::raster {

class VertexStage {
 public:
  VertexStage(const DrawState& state, const VaryingLayout& varyings);

  // Shades `count` vertices `ids` (vertex indices as gl_VertexIndex sees them; UINT32_MAX: left unshaded) of
  // `instance` into `out` (Stride() floats per vertex: VertexBuffer's form). False with *fault on a fault (a shader
  // bug, or a vertex fetch outside its buffer with robustness off) or when the draw was cancelled (*stopped).
  bool Run(const uint32_t* ids, size_t count, uint32_t instance, const DrawCall& call, float* out,
           execution::ShaderFault* fault, bool* stopped);
  // Floats per shaded vertex: position, varyings, PointSize when the draw has points, then the clip and cull
  // distances the shader writes.
  uint32_t Stride() const {
    return 4 + static_cast<uint32_t>(varyings_.words.size()) + (pointSizes_ ? 1 : 0) + clip_.clipCount +
           clip_.cullCount;
  }
  const ClipLayout& Clip() const { return clip_; }
  // The float of a shaded vertex that holds PointSize (UINT32_MAX: none; points are then 1.0).
  uint32_t PointSizeOffset() const {
    return pointSizes_ && pointSizeWord_ != UINT32_MAX ? 4 + static_cast<uint32_t>(varyings_.words.size())
                                                       : UINT32_MAX;
  }

 private:
  bool Fetch(uint32_t lane, uint32_t vertexIndex, uint32_t instance, const DrawCall& call,
             execution::ShaderFault* fault);

  const DrawState& state_;
  const VaryingLayout& varyings_;
  execution::InvocationBatch batch_;
  // Per attribute: the vertex shader input slots it feeds.
  std::vector<std::vector<const execution::InterfaceSlot*>> attributeInputs_;
  uint32_t positionWord_ = UINT32_MAX;
  uint32_t pointSizeWord_ = UINT32_MAX;
  uint32_t clipWord_ = UINT32_MAX, cullWord_ = UINT32_MAX;
  ClipLayout clip_;
  bool pointSizes_ = false;
};

}  // namespace crashtest::raster
