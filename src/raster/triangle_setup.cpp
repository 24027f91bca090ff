#include "raster/triangle_setup.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crashtest::raster {
namespace {

// "Depth Bias" (28.7.4): o = m * depthBiasSlopeFactor + r * depthBiasConstantFactor, clamped, with m the maximum
// depth slope and r the format's minimum resolvable difference.
float DepthOffset(const DrawState& state, const TriangleSetup& t, double scale) {
  const double fx[3] = {t.X[0] / scale, t.X[1] / scale, t.X[2] / scale};
  const double fy[3] = {t.Y[0] / scale, t.Y[1] / scale, t.Y[2] / scale};
  const double det = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
  const double dzdx = ((t.z[1] - t.z[0]) * (fy[2] - fy[0]) - (t.z[2] - t.z[0]) * (fy[1] - fy[0])) / det;
  const double dzdy = ((t.z[2] - t.z[0]) * (fx[1] - fx[0]) - (t.z[1] - t.z[0]) * (fx[2] - fx[0])) / det;
  const double m = std::max(std::fabs(dzdx), std::fabs(dzdy));
  double r = 1.0 / 16777216.0;
  const VkFormat depthFormat = state.depthStencil.depth.format;
  if (depthFormat == VK_FORMAT_D16_UNORM || depthFormat == VK_FORMAT_D16_UNORM_S8_UINT) r = 1.0 / 65536.0;
  if (depthFormat == VK_FORMAT_D32_SFLOAT || depthFormat == VK_FORMAT_D32_SFLOAT_S8_UINT) {
    const double maxZ = std::max({std::fabs(t.z[0]), std::fabs(t.z[1]), std::fabs(t.z[2])});
    int e = 0;
    std::frexp(maxZ, &e);
    r = std::ldexp(1.0, e - 1 - 23);
  }
  double o = m * state.raster.depthBiasSlope + r * state.raster.depthBiasConstant;
  const double clampValue = state.raster.depthBiasClamp;
  if (clampValue > 0) o = std::min(o, clampValue);
  if (clampValue < 0) o = std::max(o, clampValue);
  return static_cast<float>(o);
}

// std::llround without the library call: a float times a power of two has at most 24 significant bits, so adding
// one half is exact in double and truncation then rounds half away from zero, as llround does. Values beyond the
// int64 range (already rejected as non-finite positions or far off-screen) saturate.
int64_t RoundHalfAway(double v) {
  if (!(std::fabs(v) < 9.0e18)) return std::llround(std::clamp(v, -9.0e18, 9.0e18));
  return static_cast<int64_t>(v < 0 ? v - 0.5 : v + 0.5);
}

}  // namespace

bool FacesFront(const DrawState& state, double area) {
  return state.raster.frontFace == VK_FRONT_FACE_COUNTER_CLOCKWISE ? area < 0 : area > 0;
}

bool CullsFace(const DrawState& state, bool front) {
  const VkCullModeFlags cull = state.raster.cullMode;
  return ((cull & VK_CULL_MODE_FRONT_BIT) && front) || ((cull & VK_CULL_MODE_BACK_BIT) && !front);
}

bool SetUpTriangle(const DrawState& state, const float* a, const float* b, const float* c, const float* provoking,
                   uint32_t primitiveId, bool polygon, TriangleSetup* out) {
  TriangleSetup& t = *out;
  const Viewport& vp = state.viewport;
  t.bits = std::clamp(state.raster.subPixelBits, 1u, 12u);
  t.provoking = provoking;
  t.primitiveId = primitiveId;
  t.depthOffset = 0;
  const float* in[3] = {a, b, c};
  const double scale = static_cast<double>(int64_t{1} << t.bits);
  for (int k = 0; k < 3; ++k) {
    const float* p = in[k];
    const float invW = 1.0f / p[3];
    // "x_f = (p_x / 2) x_d + o_x", o_x = x + width / 2; likewise y; "z_f = p_z z_d + o_z" (27.6).
    const float xf = vp.width * 0.5f * (p[0] * invW) + (vp.x + vp.width * 0.5f);
    const float yf = vp.height * 0.5f * (p[1] * invW) + (vp.y + vp.height * 0.5f);
    const float zf = (vp.maxDepth - vp.minDepth) * (p[2] * invW) + vp.minDepth;
    if (!std::isfinite(xf) || !std::isfinite(yf)) return false;
    t.X[k] = RoundHalfAway(static_cast<double>(xf) * scale);
    t.Y[k] = RoundHalfAway(static_cast<double>(yf) * scale);
    t.invW[k] = invW;
    t.z[k] = zf;
    t.data[k] = p;
  }
  const int64_t area = (t.X[1] - t.X[0]) * (t.Y[2] - t.Y[0]) - (t.X[2] - t.X[0]) * (t.Y[1] - t.Y[0]);
  if (area == 0) return false;  // degenerate after snapping: no samples are covered
  t.front = !polygon || FacesFront(state, static_cast<double>(area));
  if (polygon && CullsFace(state, t.front)) return false;
  if (area < 0) {
    std::swap(t.X[1], t.X[2]), std::swap(t.Y[1], t.Y[2]);
    std::swap(t.invW[1], t.invW[2]), std::swap(t.z[1], t.z[2]), std::swap(t.data[1], t.data[2]);
  }
  t.C = std::abs(area);
  for (int k = 0; k < 3; ++k) {
    const int from = (k + 1) % 3, to = (k + 2) % 3;
    const int64_t dx = t.X[to] - t.X[from], dy = t.Y[to] - t.Y[from];
    t.A[k] = -dy;
    t.B[k] = dx;
    // Top-left rule in framebuffer coordinates (y down), for this orientation: a top edge runs exactly
    // horizontally to the right, a left edge upwards.
    t.bias[k] = ((dy == 0 && dx > 0) || dy < 0) ? 0 : -1;
    t.E0[k] = -t.A[k] * t.X[from] - t.B[k] * t.Y[from];
  }
  t.invC = 1.0 / static_cast<double>(t.C);
  if (state.raster.depthBias && polygon) t.depthOffset = DepthOffset(state, t, scale);

  // The pixels whose centres may be covered, inside the scissor (already cut to the render area and attachments).
  const int64_t minX = std::min({t.X[0], t.X[1], t.X[2]}), maxX = std::max({t.X[0], t.X[1], t.X[2]});
  const int64_t minY = std::min({t.Y[0], t.Y[1], t.Y[2]}), maxY = std::max({t.Y[0], t.Y[1], t.Y[2]});
  const int64_t x0 = std::max<int64_t>(state.scissor.x0, minX >> t.bits);
  const int64_t x1 = std::min<int64_t>(state.scissor.x1, (maxX >> t.bits) + 1);
  const int64_t y0 = std::max<int64_t>(state.scissor.y0, minY >> t.bits);
  const int64_t y1 = std::min<int64_t>(state.scissor.y1, (maxY >> t.bits) + 1);
  if (x0 >= x1 || y0 >= y1) return false;
  t.bounds = Rect{static_cast<int32_t>(x0), static_cast<int32_t>(y0), static_cast<int32_t>(x1),
                  static_cast<int32_t>(y1)};
  return true;
}

}  // namespace crashtest::raster
