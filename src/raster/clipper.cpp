#include "raster/clipper.h"

#include <cstring>

namespace crashtest::raster {
namespace {

// Plane numbers below 6 are the view volume's; 6 + i is clip distance i.
constexpr uint32_t kUserPlane = 6;

}  // namespace

Clipper::Clipper(uint32_t stride, bool clipDepth, const ClipLayout& layout) : stride_(stride) {
  for (uint32_t p = 0; p < (clipDepth ? 6u : 4u); ++p) planes_.push_back(p);
  for (uint32_t i = 0; i < layout.clipCount; ++i) planes_.push_back(kUserPlane + layout.clipOffset + i);
}

// Signed distance to the plane (non-negative inside): w + x, w - x, w + y, w - y, z, w - z, or the clip distance
// the vertex shader wrote.
float Clipper::Distance(const float* v, uint32_t p) const {
  const uint32_t plane = planes_[p];
  switch (plane) {
    case 0: return v[3] + v[0];
    case 1: return v[3] - v[0];
    case 2: return v[3] + v[1];
    case 3: return v[3] - v[1];
    case 4: return v[2];
    case 5: return v[3] - v[2];
    default: return v[plane - kUserPlane];
  }
}

uint32_t Clipper::Outcode(const float* v) const {
  uint32_t code = 0;
  for (uint32_t p = 0; p < planes_.size(); ++p)
    if (!(Distance(v, p) >= 0.0f)) code |= 1u << p;  // NaN positions are outside
  return code;
}

bool Clipper::Culled(const ClipLayout& layout, const float* const* vertices, uint32_t count) {
  for (uint32_t c = 0; c < layout.cullCount; ++c) {
    bool allNegative = true;
    for (uint32_t k = 0; k < count && allNegative; ++k) allNegative = vertices[k][layout.cullOffset + c] < 0.0f;
    if (allNegative) return true;
  }
  return false;
}

uint32_t Clipper::Clip(const float* a, const float* b, const float* c) {
  const uint32_t ca = Outcode(a), cb = Outcode(b), cc = Outcode(c);
  polygon_.resize(static_cast<size_t>(3) * stride_);
  if (ca & cb & cc) return 0;  // all three outside one plane
  std::memcpy(polygon_.data(), a, stride_ * sizeof(float));
  std::memcpy(polygon_.data() + stride_, b, stride_ * sizeof(float));
  std::memcpy(polygon_.data() + 2 * stride_, c, stride_ * sizeof(float));
  if ((ca | cb | cc) == 0) return 3;
  uint32_t count = 3;
  for (uint32_t p = 0; p < planes_.size() && count != 0; ++p) {
    if (((ca | cb | cc) & (1u << p)) == 0) continue;
    scratch_.clear();
    for (uint32_t i = 0; i < count; ++i) {
      const float* u = polygon_.data() + static_cast<size_t>(i) * stride_;
      const float* v = polygon_.data() + static_cast<size_t>((i + 1) % count) * stride_;
      const float du = Distance(u, p), dv = Distance(v, p);
      const bool uIn = du >= 0.0f, vIn = dv >= 0.0f;
      if (uIn) scratch_.insert(scratch_.end(), u, u + stride_);
      if (uIn != vIn) {
        // The intersection, always computed from the inside vertex so both triangles sharing the edge get the
        // same point (no cracks).
        const float* in = uIn ? u : v;
        const float* out = uIn ? v : u;
        const float din = uIn ? du : dv, dout = uIn ? dv : du;
        const float t = din / (din - dout);
        const size_t at = scratch_.size();
        scratch_.resize(at + stride_);
        for (uint32_t k = 0; k < stride_; ++k) scratch_[at + k] = in[k] + t * (out[k] - in[k]);
      }
    }
    polygon_.swap(scratch_);
    count = static_cast<uint32_t>(polygon_.size() / stride_);
  }
  return count < 3 ? 0 : count;
}

}  // namespace crashtest::raster
