// Triangle setup: a clipped triangle in clip space becomes what rasterisation needs — framebuffer positions
// ("Coordinate Transformations", Vulkan 1.3, 27.5-27.6) snapped to subPixelPrecisionBits, the facing and culling
// decision ("Basic Polygon Rasterization", 28.7.1), edge functions with the top-left rule, depth bias (28.7.4) and
// the pixel bounds. Done once per triangle by the binner; every tile the triangle touches then rasterises from it.
#pragma once

#include <cstdint>

#include "raster/draw_state.h"

namespace crashtest::raster {

struct TriangleSetup {
  int64_t X[3], Y[3];        // snapped positions (units of 2^-subPixelBits pixels)
  int64_t A[3], B[3];        // edge k (opposite vertex k): E_k(P) = B_k (Py - Y_a) + A_k (Px - X_a), a = k + 1
  int64_t E0[3];             // E_k(0, 0): E_k(P) = A_k Px + B_k Py + E0_k, exact in 64 bits
  int64_t bias[3];           // 0 for top and left edges, -1 for the others (the top-left rule)
  int64_t C = 0;             // E_0 + E_1 + E_2 everywhere: twice the snapped area
  double invC = 0;           // 1 / C: barycentric weight k = E_k(P) / C
  double invW[3], z[3];
  const float* data[3];      // the vertices (position, then varyings)
  const float* provoking;    // the flat varyings' source
  Rect bounds;               // pixels whose centres may be covered, inside the scissor
  bool front = true;
  uint32_t primitiveId = 0;
  float depthOffset = 0;
  uint32_t bits = 8;
};

// Face determination and culling from the signed doubled area of a triangle in framebuffer coordinates (y down;
// "a = -1/2 Σ x_f^i y_f^(i+1) - x_f^(i+1) y_f^i", 28.7.1.1, and a = -area / 2): whether it faces front, and whether
// the state's cull mode discards it. Shared by filled triangles and the non-solid polygon modes.
bool FacesFront(const DrawState& state, double area);
bool CullsFace(const DrawState& state, bool front);

// Sets up triangle (a, b, c) (clip-space vertices in VertexBuffer form, already clipped). False when nothing of it
// can be drawn: degenerate after snapping, culled, non-finite, or outside the scissor. `polygon` is false for the
// triangles of points and lines: never culled, always front-facing, no depth bias (which applies to polygons).
bool SetUpTriangle(const DrawState& state, const float* a, const float* b, const float* c, const float* provoking,
                   uint32_t primitiveId, bool polygon, TriangleSetup* t);

}  // namespace crashtest::raster
