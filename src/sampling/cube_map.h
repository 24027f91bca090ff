// Cube map geometry for sampling (Vulkan 1.3, 16.5.4 "Cube Map Face Selection and Transformations" and 16.5.2
// "Cube Map Edge Handling"): which face a direction selects, and which texels stand in for the texels of a linear
// filter's footprint that lie past a face's edge or corner.
#pragma once

#include <cstdint>

namespace crashtest::sampling {

// The face a direction selects and its coordinates before normalisation: s = 0.5 * (sc / ma + 1), likewise t.
// Face numbers are the layer order of a cube: +X, -X, +Y, -Y, +Z, -Z. Ties go to z, then y (the table's order).
struct CubeFace {
  int32_t face = 0;
  float sc = 0, tc = 0, ma = 0;
};
CubeFace SelectCubeFace(float rx, float ry, float rz);

// One texel of a cube level: face (0-5) and integer coordinates on it.
struct CubeTexel {
  int32_t face = 0, i = 0, j = 0;
};

// Cube map edge handling for texel (i, j) of `face` on a level `size` texels a side, with i and j at most one texel
// outside the face (a linear footprint never reaches further). Writes the texels whose average replaces it and
// returns their count: 1 for a texel on the face or past one edge ("the coordinates (i,j) and the array layer l
// are transformed to select the adjacent texel from the appropriate neighboring face"), 3 past a corner ("the
// average of the three values of the adjacent texels in each incident face").
uint32_t CubeEdgeTexels(int32_t face, int32_t i, int32_t j, int32_t size, CubeTexel out[3]);

}  // namespace crashtest::sampling
