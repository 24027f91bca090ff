// The attributes of one set-up triangle as planes over its pixels. Everything the fragment stage interpolates is an
// affine function of the pixel position once written with barycentric weights b_k = E_k / C (edge functions over
// twice the area): depth, the weighted reciprocal w (Σ b_k / w_k), each varying's perspective numerator
// (Σ b_k f_k / w_k) or, without perspective, the varying itself (Σ b_k f_k). "Basic Polygon Rasterization" (28.7.1):
// f = (Σ b_k f_k / w_k) / (Σ b_k / w_k). A plane is the value at an origin pixel plus a step per pixel in x and y, so a
// quad's four lanes cost two multiply-adds per value instead of a barycentric sum per lane.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/shaded_vertex.h"
#include "raster/triangle_setup.h"

namespace crashtest::raster {

// value(x, y) = at + dx (x - originX) + dy (y - originY), at pixel centres.
template <typename T>
struct Plane {
  T at = 0, dx = 0, dy = 0;
};

class AttributePlanes {
 public:
  // Planes of triangle `t` around pixel (originX, originY) (near the pixels that will be evaluated, so the float
  // planes stay precise): depth and 1/w in double, varyings (and gl_PointCoord's s and t at `pointCoordOffset`
  // unless UINT32_MAX) in float.
  void Build(const TriangleSetup& t, const VaryingLayout& varyings, uint32_t pointCoordOffset, int64_t originX,
             int64_t originY);

  int64_t originX = 0, originY = 0;
  Plane<double> z, invW;              // Σ b_k z_k (before the depth offset); Σ b_k / w_k
  Plane<float> invWf;                 // Σ b_k / w_k again, for the varyings' divisions
  // An affine triangle (the same w at its three vertices: 2D, full-screen passes) has a flat 1/w plane: its
  // reciprocal is then the same at every pixel, 1 / invWf.at, which the fragment stage takes instead of a division
  // per quad (at + 0·x + 0·y is at, so the bits are the same).
  bool flatInvW = false;
  float wAtEveryPixel = 1.0f;
  std::vector<Plane<float>> varying;  // per VaryingLayout word: the numerator, or the value when noPerspective/flat
  Plane<float> pointCoord[2];         // linear, as the square's texture coordinate

 private:
  // The plane of Σ b_k f_k for vertex values f.
  template <typename T>
  Plane<T> Of(double f0, double f1, double f2) const;
  double at_[3] = {}, dx_[3] = {}, dy_[3] = {};  // b_k at the origin and its steps
};

}  // namespace crashtest::raster
