// Points and lines become the triangles that cover exactly their fragments, so they share triangle setup, binning,
// the top-left rule and the fragment stage with polygons:
// - a point is the square of side PointSize centred on its vertex ("Basic Point Rasterization", Vulkan 1.3, 28.4:
//   fragments whose centres lie in the square), its corners carrying gl_PointCoord's (s, t) from 0 to 1;
// - a line segment, clipped to the view volume first ("Primitive Clipping", 27.4), is the rectangle of lineWidth
//   centred on it ("Basic Line Segment Rasterization", 28.5: the strictLines rectangle, which non-strict lines may
//   also use), its corners carrying the endpoint's values, so attributes interpolate along the segment only.
// Every vertex of the result has the input's `stride` floats then (s, t); the first vertex of each triangle
// carries the primitive's provoking vertex values for flat varyings.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/draw_state.h"
#include "raster/primitive_assembly.h"
#include "raster/shaded_vertex.h"

namespace crashtest::raster {

struct ExpandedPrimitives {
  uint32_t stride = 0;                           // input stride + 2
  std::vector<float> vertices;
  std::vector<AssembledTriangle> triangles;
  std::vector<uint32_t> primitiveIds;            // per triangle: the point's or line's index in the draw
};

bool IsPointTopology(VkPrimitiveTopology topology);
bool IsLineTopology(VkPrimitiveTopology topology);

// The primitives of `slots` (element slots into `vertices`, kRestart between strips) for a point or line
// topology, expanded. `pointSizeOffset` is the float of each vertex holding PointSize (UINT32_MAX: 1.0). Returns
// the number of points or lines assembled (input-assembly primitives).
// `clip`: the vertices' clip distances (clipped against like the view volume) and cull distances (a point or line
// whose vertices are all negative in one of them is discarded).
uint64_t ExpandPointsAndLines(const DrawState& state, const std::vector<uint32_t>& slots, const float* vertices,
                              uint32_t stride, uint32_t pointSizeOffset, const ClipLayout& clip,
                              ExpandedPrimitives* out);

// Non-solid polygon modes ("Polygon Mode", 28.7.2): the triangles that face culling keeps become their three
// edges as lines of lineWidth (VK_POLYGON_MODE_LINE) or their three vertices as points (POINT), with the triangle's
// flat varyings and primitive id.
void ExpandPolygonEdges(const DrawState& state, const std::vector<AssembledTriangle>& triangles,
                        const float* vertices, uint32_t stride, const ClipLayout& clip, ExpandedPrimitives* out);

}  // namespace crashtest::raster
