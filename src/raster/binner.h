// Binning: triangles are clipped and set up once, then listed in every screen tile their bounds touch, so tiles can
// be rasterised and shaded independently on several threads. Each worker bins a contiguous range of the draw's
// triangles into its own chunk; a tile then walks the chunks in order, which keeps primitive order within every
// pixel ("Primitive Order", Vulkan 1.3, 21.2: fragments of one pixel are merged in primitive order).
#pragma once

#include <cstdint>
#include <vector>

#include "raster/clipper.h"
#include "raster/draw_state.h"
#include "raster/primitive_assembly.h"
#include "raster/triangle_setup.h"

namespace crashtest::raster {

// The screen tiles of a draw: kSize-pixel squares from framebuffer (0, 0), those meeting the scissor. kSize is
// even, so a 2x2 quad never spans two tiles.
struct TileGrid {
  static constexpr int32_t kSize = 64;
  int32_t firstX = 0, firstY = 0;  // tile coordinates of the scissor's first tile
  int32_t columns = 0, rows = 0;
  Rect scissor;

  static TileGrid Cover(const Rect& scissor);
  uint32_t count() const { return static_cast<uint32_t>(columns * rows); }
  // The pixels of tile `index` inside the scissor.
  Rect Tile(uint32_t index) const;
};

// One worker's share of the draw's triangles, set up and listed per tile.
class BinnedChunk {
 public:
  // Clips, sets up and bins triangles [first, last) of `triangles`, whose slots index `vertices` (`stride`
  // floats each). Triangle i's primitive id is primitiveIds[i] (nullptr: i). `polygon`: see SetUpTriangle.
  // `clip`: where the vertices keep their clip and cull distances.
  void Bin(const DrawState& state, const TileGrid& grid, const std::vector<AssembledTriangle>& triangles,
           size_t first, size_t last, const float* vertices, uint32_t stride, const uint32_t* primitiveIds,
           bool polygon, const ClipLayout& clip);

  const std::vector<uint32_t>& TileTriangles(uint32_t tile) const { return tiles_[tile]; }
  const TriangleSetup& Triangle(uint32_t i) const { return setups_[i]; }
  // Triangles that left the clipping stage (a polygon clipped into a fan counts each of its triangles), before
  // culling: the clipping-primitives statistic.
  uint64_t clippedOutput() const { return clippedOutput_; }

 private:
  std::vector<TriangleSetup> setups_;
  uint64_t clippedOutput_ = 0;
  std::vector<float> clipped_;                // vertices made by clipping, `stride` floats each
  std::vector<std::vector<uint32_t>> tiles_;  // per tile: indices into setups_, in primitive order
};

}  // namespace crashtest::raster
