#include "raster/point_line_expansion.h"

#include <algorithm>
#include <cmath>

#include "raster/clipper.h"
#include "raster/triangle_setup.h"

namespace crashtest::raster {
namespace {

class Expander {
 public:
  Expander(const DrawState& state, uint32_t stride, const ClipLayout& clip, ExpandedPrimitives* out)
      : state_(state), stride_(stride), out_(out), clip_(clip), clipper_(stride, !state.raster.depthClamp, clip) {
    out->stride = stride + 2;
    out->vertices.clear();
    out->triangles.clear();
    out->primitiveIds.clear();
  }

  // The square of side `size` around vertex v (clip space).
  // `flat`: where flat varyings come from (v itself, or a polygon's provoking vertex in point mode).
  void Point(const float* v, float size, uint32_t id, const float* flat = nullptr) {
    // "If the primitive is a point, it is discarded if its vertex lies outside the clip volume" (27.4): x, y and
    // z (unless depth clamping), with the clip volume's own inequalities, and the clip distances.
    if (clipper_.Outcode(v) != 0 || Clipper::Culled(clip_, &v, 1)) return;
    const float h = size * 0.5f;
    const float corners[4][2] = {{-h, -h}, {h, -h}, {-h, h}, {h, h}};
    const float coords[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    const uint32_t first = Count();
    for (int k = 0; k < 4; ++k) Push(v, corners[k][0], corners[k][1], coords[k][0], coords[k][1]);
    if (flat != nullptr && flat != v) {
      Push(flat, 0, 0, 0, 0);
      Quad(first, id, first + 4);
    } else {
      Quad(first, id, first);
    }
  }

  // The rectangle of `width` around segment (a, b), clipped first; a supplies the flat varyings.
  // `flat`: where flat varyings come from (a, or a polygon's provoking vertex in line mode).
  void Line(const float* a, const float* b, float width, uint32_t id, const float* flat = nullptr) {
    const float* ends[2] = {a, b};
    if (Clipper::Culled(clip_, ends, 2)) return;
    float t0 = 0.0f, t1 = 1.0f;
    if (!ClipSegment(a, b, &t0, &t1)) return;
    std::vector<float>& scratch = scratch_;
    scratch.assign(2 * size_t{stride_}, 0.0f);
    for (uint32_t k = 0; k < stride_; ++k) {
      scratch[k] = a[k] + t0 * (b[k] - a[k]);
      scratch[stride_ + k] = a[k] + t1 * (b[k] - a[k]);
    }
    const float* p = scratch.data();
    const float* q = scratch.data() + stride_;
    // The segment in framebuffer coordinates; its unit normal scaled to half the width.
    float px, py, qx, qy;
    Framebuffer(p, &px, &py);
    Framebuffer(q, &qx, &qy);
    const float dx = qx - px, dy = qy - py;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (!(length > 0.0f) || !std::isfinite(length)) return;  // a zero-length segment covers nothing
    const float nx = -dy / length * width * 0.5f, ny = dx / length * width * 0.5f;
    const uint32_t first = Count();
    Push(p, nx, ny, 0, 0);
    Push(p, -nx, -ny, 0, 0);
    Push(q, nx, ny, 0, 0);
    Push(q, -nx, -ny, 0, 0);
    // Flat varyings come from the segment's first vertex as shaded, not from its clipped endpoint: kept as a fifth
    // vertex that only supplies them.
    Push(flat != nullptr ? flat : a, 0, 0, 0, 0);
    Quad(first, id, first + 4);
  }

 private:
  uint32_t Count() const { return static_cast<uint32_t>(out_->vertices.size() / out_->stride); }

  // Framebuffer position of clip-space vertex v ("x_f = (p_x / 2) x_d + o_x", 27.6).
  void Framebuffer(const float* v, float* x, float* y) const {
    const Viewport& vp = state_.viewport;
    *x = vp.width * 0.5f * (v[0] / v[3]) + (vp.x + vp.width * 0.5f);
    *y = vp.height * 0.5f * (v[1] / v[3]) + (vp.y + vp.height * 0.5f);
  }

  // Appends v moved by (dx, dy) framebuffer pixels, in clip space (the offset scaled by w and the viewport), with
  // point coordinate (s, t).
  void Push(const float* v, float dx, float dy, float s, float t) {
    const Viewport& vp = state_.viewport;
    std::vector<float>& o = out_->vertices;
    const size_t at = o.size();
    o.insert(o.end(), v, v + stride_);
    o[at + 0] += vp.width != 0.0f ? dx * 2.0f / vp.width * v[3] : 0.0f;
    o[at + 1] += vp.height != 0.0f ? dy * 2.0f / vp.height * v[3] : 0.0f;
    o.push_back(s);
    o.push_back(t);
  }

  // Two triangles over corners first..first + 3 (a 2x2 arrangement), flat varyings from vertex `provoking`.
  void Quad(uint32_t first, uint32_t id, uint32_t provoking) {
    out_->triangles.push_back({{first, first + 1, first + 2}, provoking});
    out_->triangles.push_back({{first + 1, first + 3, first + 2}, provoking});
    out_->primitiveIds.push_back(id);
    out_->primitiveIds.push_back(id);
  }

  // Parametric clipping of segment a->b against the clip planes (the view volume's and the clip distances, as
  // Clipper measures them): the part inside is [t0, t1]. False when none is.
  bool ClipSegment(const float* a, const float* b, float* t0, float* t1) const {
    for (uint32_t p = 0; p < clipper_.planeCount(); ++p) {
      const float da = clipper_.Distance(a, p), db = clipper_.Distance(b, p);
      if (!(da >= 0.0f) && !(db >= 0.0f)) return false;  // both outside (or NaN)
      if (da < 0.0f) *t0 = std::max(*t0, da / (da - db));
      else if (db < 0.0f) *t1 = std::min(*t1, da / (da - db));
    }
    return *t0 < *t1;
  }

  const DrawState& state_;
  uint32_t stride_;
  ExpandedPrimitives* out_;
  ClipLayout clip_;
  Clipper clipper_;
  std::vector<float> scratch_;
};

}  // namespace

// True when face culling discards the triangle (a, b, c) before its polygon mode applies.
static bool FacingCulled(const DrawState& state, const float* a, const float* b, const float* c) {
  if (state.raster.cullMode == VK_CULL_MODE_NONE) return false;
  // Facing from the signed area in framebuffer coordinates, as for filled polygons (28.7.1.1); a triangle with a
  // vertex at or behind the eye (w <= 0) has no reliable projected area before clipping: it is kept.
  const float* v[3] = {a, b, c};
  float x[3], y[3];
  for (int k = 0; k < 3; ++k) {
    if (!(v[k][3] > 0.0f)) return false;
    x[k] = state.viewport.width * 0.5f * (v[k][0] / v[k][3]);
    y[k] = state.viewport.height * 0.5f * (v[k][1] / v[k][3]);
  }
  const float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
  if (area == 0.0f) return false;
  return CullsFace(state, FacesFront(state, static_cast<double>(area)));
}

bool IsPointTopology(VkPrimitiveTopology topology) { return topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST; }

bool IsLineTopology(VkPrimitiveTopology topology) {
  return topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST || topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
}

uint64_t ExpandPointsAndLines(const DrawState& state, const std::vector<uint32_t>& slots, const float* vertices,
                              uint32_t stride, uint32_t pointSizeOffset, const ClipLayout& clip,
                              ExpandedPrimitives* out) {
  Expander expander(state, stride, clip, out);
  auto vertex = [&](uint32_t slot) { return vertices + size_t{slot} * stride; };
  uint64_t count = 0;
  uint32_t id = 0;
  size_t begin = 0;
  while (begin < slots.size()) {
    size_t end = begin;
    while (end < slots.size() && slots[end] != kRestart) ++end;
    const uint32_t* s = slots.data() + begin;
    const size_t n = end - begin;
    if (IsPointTopology(state.topology)) {
      for (size_t i = 0; i < n; ++i, ++count) {
        const float* v = vertex(s[i]);
        // "the point size is taken from PointSize ... clamped to pointSizeRange" (28.4); 1.0 when not written.
        float size = pointSizeOffset != UINT32_MAX ? v[pointSizeOffset] : 1.0f;
        if (!std::isfinite(size)) size = 1.0f;
        size = std::clamp(size, state.raster.pointSizeRange[0], state.raster.pointSizeRange[1]);
        expander.Point(v, size, id++);
      }
    } else {
      // Line lists take vertices in pairs; strips every consecutive pair ("Line Lists / Strips", 21.1).
      const bool strip = state.topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
      for (size_t i = 0; i + 1 < n; i += strip ? 1 : 2, ++count)
        expander.Line(vertex(s[i]), vertex(s[i + 1]), state.raster.lineWidth, id++);
    }
    begin = end + 1;
  }
  return count;
}


void ExpandPolygonEdges(const DrawState& state, const std::vector<AssembledTriangle>& triangles,
                        const float* vertices, uint32_t stride, const ClipLayout& clip, ExpandedPrimitives* out) {
  Expander expander(state, stride, clip, out);
  auto vertex = [&](uint32_t slot) { return vertices + size_t{slot} * stride; };
  for (size_t i = 0; i < triangles.size(); ++i) {
    const AssembledTriangle& t = triangles[i];
    const float* a = vertex(t.v[0]);
    const float* b = vertex(t.v[1]);
    const float* c = vertex(t.v[2]);
    if (FacingCulled(state, a, b, c)) continue;
    const float* flat = vertex(t.provoking);
    const auto id = static_cast<uint32_t>(i);
    if (state.raster.polygonMode == VK_POLYGON_MODE_LINE) {
      expander.Line(a, b, state.raster.lineWidth, id, flat);
      expander.Line(b, c, state.raster.lineWidth, id, flat);
      expander.Line(c, a, state.raster.lineWidth, id, flat);
    } else {
      // Point mode: each vertex a point of size 1 ("as if ... point size of 1.0" without PointSize here).
      for (const float* v : {a, b, c}) expander.Point(v, 1.0f, id, flat);
    }
  }
}

}  // namespace crashtest::raster
