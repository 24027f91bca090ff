// The face table is applied to exact integers for edge handling: a texel centre (i + 0.5) / size on face f is the
// direction size * axis(f) + (2i + 1 - size) * sAxis(f) + (2j + 1 - size) * tAxis(f), scaled by size, so finding the
// neighbouring texel needs no floating-point rounding at any level size.
#include "sampling/cube_map.h"

#include <algorithm>
#include <cstdlib>

namespace crashtest::sampling {
namespace {

// Table "Cube map face selection and transformations" for the major axis `axis` (0: x, 1: y, 2: z).
template <typename T>
void Project(int axis, const T d[3], int32_t* face, T* sc, T* tc, T* ma) {
  const T x = d[0], y = d[1], z = d[2];
  if (axis == 2) {
    *face = z >= 0 ? 4 : 5, *sc = z >= 0 ? x : -x, *tc = -y, *ma = z >= 0 ? z : -z;
  } else if (axis == 1) {
    *face = y >= 0 ? 2 : 3, *sc = x, *tc = y >= 0 ? z : -z, *ma = y >= 0 ? y : -y;
  } else {
    *face = x >= 0 ? 0 : 1, *sc = x >= 0 ? -z : z, *tc = -y, *ma = x >= 0 ? x : -x;
  }
}

// The inverse: the direction whose projection on `face` is (sc, tc) with major-axis magnitude ma.
void Unproject(int32_t face, int64_t sc, int64_t tc, int64_t ma, int64_t d[3]) {
  switch (face) {
    case 0: d[0] = ma, d[1] = -tc, d[2] = -sc; break;
    case 1: d[0] = -ma, d[1] = -tc, d[2] = sc; break;
    case 2: d[0] = sc, d[1] = ma, d[2] = tc; break;
    case 3: d[0] = sc, d[1] = -ma, d[2] = -tc; break;
    case 4: d[0] = sc, d[1] = -tc, d[2] = ma; break;
    default: d[0] = -sc, d[1] = -tc, d[2] = -ma; break;
  }
}

// The texel of `size` containing normalised coordinate 0.5 * (c / ma + 1), in exact integer arithmetic.
int32_t TexelOf(int64_t c, int64_t ma, int32_t size) {
  const int64_t texel = size * (c + ma) / (2 * ma);  // c + ma >= 0: the division floors
  return static_cast<int32_t>(std::clamp<int64_t>(texel, 0, size - 1));
}

}  // namespace

CubeFace SelectCubeFace(float rx, float ry, float rz) {
  const float ax = std::abs(rx), ay = std::abs(ry), az = std::abs(rz);
  const int axis = az >= ax && az >= ay ? 2 : ay >= ax ? 1 : 0;
  const float d[3] = {rx, ry, rz};
  CubeFace out;
  Project(axis, d, &out.face, &out.sc, &out.tc, &out.ma);
  return out;
}

uint32_t CubeEdgeTexels(int32_t face, int32_t i, int32_t j, int32_t size, CubeTexel out[3]) {
  const bool outI = i < 0 || i >= size, outJ = j < 0 || j >= size;
  if (!outI && !outJ) {
    out[0] = {face, i, j};
    return 1;
  }
  int64_t d[3];
  const int64_t n = size;
  Unproject(face, 2 * int64_t{i} + 1 - n, 2 * int64_t{j} + 1 - n, n, d);
  if (outI != outJ) {
    // Past one edge: the coordinate beyond it (magnitude size + 1) becomes the major axis of the neighbour.
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (std::llabs(d[a]) > std::llabs(d[axis])) axis = a;
    int32_t next;
    int64_t sc, tc, ma;
    Project(axis, d, &next, &sc, &tc, &ma);
    out[0] = {next, TexelOf(sc, ma, size), TexelOf(tc, ma, size)};
    return 1;
  }
  // Past a corner: the corner texel of each of the three faces meeting at the cube's corner in that direction.
  const int64_t corner[3] = {d[0] < 0 ? -n : n, d[1] < 0 ? -n : n, d[2] < 0 ? -n : n};
  for (int axis = 0; axis < 3; ++axis) {
    int32_t incident;
    int64_t sc, tc, ma;
    Project(axis, corner, &incident, &sc, &tc, &ma);
    out[axis] = {incident, TexelOf(sc, ma, size), TexelOf(tc, ma, size)};
  }
  return 3;
}

}  // namespace crashtest::sampling
