#include "raster/binner.h"

#include <algorithm>

namespace crashtest::raster {
namespace {

int32_t FloorDiv(int32_t a, int32_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

TileGrid TileGrid::Cover(const Rect& scissor) {
  TileGrid grid;
  grid.scissor = scissor;
  if (scissor.x0 >= scissor.x1 || scissor.y0 >= scissor.y1) return grid;
  grid.firstX = FloorDiv(scissor.x0, kSize);
  grid.firstY = FloorDiv(scissor.y0, kSize);
  grid.columns = FloorDiv(scissor.x1 - 1, kSize) - grid.firstX + 1;
  grid.rows = FloorDiv(scissor.y1 - 1, kSize) - grid.firstY + 1;
  return grid;
}

Rect TileGrid::Tile(uint32_t index) const {
  const int32_t tx = firstX + static_cast<int32_t>(index % static_cast<uint32_t>(columns));
  const int32_t ty = firstY + static_cast<int32_t>(index / static_cast<uint32_t>(columns));
  return Rect{std::max(scissor.x0, tx * kSize), std::max(scissor.y0, ty * kSize),
              std::min(scissor.x1, (tx + 1) * kSize), std::min(scissor.y1, (ty + 1) * kSize)};
}

void BinnedChunk::Bin(const DrawState& state, const TileGrid& grid, const std::vector<AssembledTriangle>& triangles,
                      size_t first, size_t last, const float* vertices, uint32_t stride,
                      const uint32_t* primitiveIds, bool polygon, const ClipLayout& clip) {
  setups_.clear();
  clipped_.clear();
  clippedOutput_ = 0;
  tiles_.resize(grid.count());
  for (std::vector<uint32_t>& list : tiles_) list.clear();
  if (grid.count() == 0) return;
  Clipper clipper(stride, !state.raster.depthClamp, clip);
  // Clipped vertices are appended to clipped_, which may reallocate: the setups that use them keep offsets until
  // the chunk is done (pending: setup index, then three offsets).
  std::vector<size_t> pending;
  for (size_t i = first; i < last; ++i) {
    const AssembledTriangle& tri = triangles[i];
    const float* a = vertices + size_t{tri.v[0]} * stride;
    const float* b = vertices + size_t{tri.v[1]} * stride;
    const float* c = vertices + size_t{tri.v[2]} * stride;
    if (clip.cullCount != 0) {
      const float* corners[3] = {a, b, c};
      if (Clipper::Culled(clip, corners, 3)) continue;
    }
    const uint32_t id = primitiveIds != nullptr ? primitiveIds[i] : static_cast<uint32_t>(i);
    const float* provoking = vertices + size_t{tri.provoking} * stride;
    const bool inside = (clipper.Outcode(a) | clipper.Outcode(b) | clipper.Outcode(c)) == 0;
    uint32_t n = 3;
    size_t base = 0;
    if (!inside) {
      n = clipper.Clip(a, b, c);
      base = clipped_.size();
      clipped_.insert(clipped_.end(), clipper.Vertex(0), clipper.Vertex(0) + size_t{n} * stride);
    }
    if (n >= 3) clippedOutput_ += n - 2;
    for (uint32_t k = 1; k + 1 < n; ++k) {
      TriangleSetup t;
      const float* p0 = inside ? a : clipped_.data() + base;
      const float* p1 = inside ? b : clipped_.data() + base + size_t{k} * stride;
      const float* p2 = inside ? c : clipped_.data() + base + size_t{k + 1} * stride;
      if (!SetUpTriangle(state, p0, p1, p2, provoking, id, polygon, &t)) continue;
      const uint32_t index = static_cast<uint32_t>(setups_.size());
      if (!inside) {
        pending.push_back(index);
        for (int v = 0; v < 3; ++v) pending.push_back(static_cast<size_t>(t.data[v] - clipped_.data()));
      }
      setups_.push_back(t);
      const int32_t tx0 = FloorDiv(t.bounds.x0, TileGrid::kSize) - grid.firstX;
      const int32_t tx1 = FloorDiv(t.bounds.x1 - 1, TileGrid::kSize) - grid.firstX;
      const int32_t ty0 = FloorDiv(t.bounds.y0, TileGrid::kSize) - grid.firstY;
      const int32_t ty1 = FloorDiv(t.bounds.y1 - 1, TileGrid::kSize) - grid.firstY;
      for (int32_t ty = std::max(ty0, 0); ty <= std::min(ty1, grid.rows - 1); ++ty)
        for (int32_t tx = std::max(tx0, 0); tx <= std::min(tx1, grid.columns - 1); ++tx)
          tiles_[static_cast<size_t>(ty) * grid.columns + tx].push_back(index);
    }
  }
  for (size_t p = 0; p < pending.size(); p += 4) {
    TriangleSetup& t = setups_[pending[p]];
    for (int v = 0; v < 3; ++v) t.data[v] = clipped_.data() + pending[p + 1 + v];
  }
}

}  // namespace crashtest::raster
