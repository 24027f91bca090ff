// Primitive clipping against the view volume ("Primitive Clipping", Vulkan 1.3, 27.4): -w <= x, y <= w and
// 0 <= z <= w (the z planes are dropped with depth clamping), and the half-spaces of the vertex shader's clip
// distances (each >= 0 inside). A triangle crossing a plane becomes a convex polygon
// whose new vertices interpolate position and varyings linearly in clip space, which keeps perspective-correct
// interpolation exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "raster/shaded_vertex.h"

namespace crashtest::raster {

class Clipper {
 public:
  // `stride` floats per vertex, the position first; the clip distances where `layout` says.
  Clipper(uint32_t stride, bool clipDepth, const ClipLayout& layout = {});

  // Clips the triangle (a, b, c). Returns the polygon's vertex count (0: outside, 3 with the inputs unchanged when
  // nothing was clipped); the vertices are `stride` floats each in polygon(), valid until the next call.
  uint32_t Clip(const float* a, const float* b, const float* c);
  const float* Vertex(uint32_t i) const { return polygon_.data() + static_cast<size_t>(i) * stride_; }

  // Outcode of a vertex: bit p set when it is outside plane p (planes_[p]).
  uint32_t Outcode(const float* v) const;
  // Signed distance of vertex v to plane planes_[p] (non-negative inside).
  float Distance(const float* v, uint32_t p) const;
  uint32_t planeCount() const { return static_cast<uint32_t>(planes_.size()); }

  // True when the cull distances say the primitive of these vertices is discarded: all of them negative for one
  // cull distance ("if the cull distance ... is negative for all vertices of the primitive, it is discarded").
  static bool Culled(const ClipLayout& layout, const float* const* vertices, uint32_t count);

 private:
  uint32_t stride_;
  std::vector<uint32_t> planes_;  // 0-5: the view volume's (x, y, z); 6 + i: clip distance i
  std::vector<float> polygon_, scratch_;
};

}  // namespace crashtest::raster
