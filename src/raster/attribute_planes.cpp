#include "raster/attribute_planes.h"

namespace crashtest::raster {

template <typename T>
Plane<T> AttributePlanes::Of(double f0, double f1, double f2) const {
  return Plane<T>{static_cast<T>(at_[0] * f0 + at_[1] * f1 + at_[2] * f2),
                  static_cast<T>(dx_[0] * f0 + dx_[1] * f1 + dx_[2] * f2),
                  static_cast<T>(dy_[0] * f0 + dy_[1] * f1 + dy_[2] * f2)};
}

void AttributePlanes::Build(const TriangleSetup& t, const VaryingLayout& varyings, uint32_t pointCoordOffset,
                            int64_t x, int64_t y) {
  originX = x, originY = y;
  // E_k at the origin pixel's centre, exact in 64 bits; one pixel moves P by 2^bits sub-pixel units.
  const int64_t half = int64_t{1} << (t.bits - 1);
  const int64_t px = (x << t.bits) + half, py = (y << t.bits) + half;
  const double step = static_cast<double>(int64_t{1} << t.bits);
  for (int k = 0; k < 3; ++k) {
    at_[k] = static_cast<double>(t.A[k] * px + t.B[k] * py + t.E0[k]) * t.invC;
    dx_[k] = static_cast<double>(t.A[k]) * step * t.invC;
    dy_[k] = static_cast<double>(t.B[k]) * step * t.invC;
  }
  z = Of<double>(t.z[0], t.z[1], t.z[2]);
  invW = Of<double>(t.invW[0], t.invW[1], t.invW[2]);
  invWf = Of<float>(t.invW[0], t.invW[1], t.invW[2]);
  flatInvW = invWf.dx == 0.0f && invWf.dy == 0.0f && invWf.at != 0.0f;
  wAtEveryPixel = flatInvW ? 1.0f / invWf.at : 1.0f;
  varying.resize(varyings.words.size());
  for (size_t i = 0; i < varyings.words.size(); ++i) {
    const VaryingWord& v = varyings.words[i];
    const size_t at = 4 + i;
    if (v.flat) {
      varying[i] = Plane<float>{t.provoking[at], 0.0f, 0.0f};
    } else if (v.noPerspective) {
      varying[i] = Of<float>(t.data[0][at], t.data[1][at], t.data[2][at]);
    } else {
      varying[i] = Of<float>(t.data[0][at] * t.invW[0], t.data[1][at] * t.invW[1], t.data[2][at] * t.invW[2]);
    }
  }
  for (uint32_t k = 0; k < 2; ++k)
    pointCoord[k] = pointCoordOffset == UINT32_MAX ? Plane<float>{}
                                                   : Of<float>(t.data[0][pointCoordOffset + k],
                                                               t.data[1][pointCoordOffset + k],
                                                               t.data[2][pointCoordOffset + k]);
}

}  // namespace crashtest::raster
