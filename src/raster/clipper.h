// Primitive clipping against the view volume ("Primitive Clipping", Vulkan 1.3, 27.4): -w <= x, y <= w and
// 0 <= z <= w (the z planes are dropped with depth clamping). A triangle crossing a plane becomes a convex polygon
// whose new vertices interpolate position and varyings linearly in clip space, which keeps perspective-correct
// interpolation exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace crashtest::raster {

class Clipper {
 public:
  // `stride` floats per vertex, the position first.
  Clipper(uint32_t stride, bool clipDepth) : stride_(stride), clipDepth_(clipDepth) {}

  // Clips the triangle (a, b, c). Returns the polygon's vertex count (0: outside, 3 with the inputs unchanged when
  // nothing was clipped); the vertices are `stride` floats each in polygon(), valid until the next call.
  uint32_t Clip(const float* a, const float* b, const float* c);
  const float* Vertex(uint32_t i) const { return polygon_.data() + static_cast<size_t>(i) * stride_; }

  // Outcode of a position: bit p set when it is outside plane p.
  uint32_t Outcode(const float* v) const;

 private:
  uint32_t stride_;
  bool clipDepth_;
  std::vector<float> polygon_, scratch_;
};

}  // namespace crashtest::raster
