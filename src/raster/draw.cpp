#include "raster/draw.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "execution/worker_pool.h"
#include "raster/binner.h"
#include "raster/fragment_stage.h"
#include "raster/point_line_expansion.h"
#include "raster/primitive_assembly.h"
#include "raster/shaded_vertex.h"
#include "raster/vertex_stage.h"

namespace crashtest::raster {
namespace {

// Below these, one thread does the phase: waking the pool costs more than the work.
constexpr size_t kVerticesPerWorker = 256;
constexpr size_t kTrianglesPerWorker = 256;

bool IsFault(const execution::ShaderFault& f) { return f.kind != execution::ShaderFaultKind::None; }

// The first fault of a phase in draw order: workers report theirs with the position of the work that raised it.
class FirstFault {
 public:
  void Report(const execution::ShaderFault& fault, uint64_t position) {
    std::lock_guard lock(mutex_);
    if (position < position_) {
      fault_ = fault;
      position_ = position;
    }
  }
  const execution::ShaderFault& fault() const { return fault_; }

 private:
  std::mutex mutex_;
  execution::ShaderFault fault_;
  uint64_t position_ = UINT64_MAX;
};

// Splits [0, count) into contiguous ranges (multiples of `align`, at least `grain` long) and runs job(worker,
// first, last) for each on the pool's threads (or the calling thread alone); every worker below the returned
// count is called, some perhaps with an empty range.
template <typename Job>
size_t ForRanges(execution::WorkerPool* pool, size_t count, size_t grain, size_t align, Job&& job) {
  const size_t workers =
      pool != nullptr ? std::clamp<size_t>((count + grain - 1) / grain, 1, pool->threads()) : 1;
  if (workers == 1) {
    job(0, 0, count);
    return 1;
  }
  size_t per = (count + workers - 1) / workers;
  per = (per + align - 1) / align * align;
  pool->Run(static_cast<uint32_t>(workers), [&](uint32_t w) {
    const size_t first = std::min(count, per * w), last = std::min(count, first + per);
    job(w, first, last);
  });
  return workers;
}

}  // namespace

bool CanRun(const DrawState& state, std::string* reason) {
  switch (state.topology) {
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
      break;
    default:
      *reason = "adjacency and patch topologies (geometry and tessellation stages)";
      return false;
  }
  if (state.vertex.exe == nullptr) {
    *reason = "a pipeline without an executable vertex stage";
    return false;
  }
  if (state.fragment.exe != nullptr && (state.fragment.width % 4) != 0) {
    *reason = "fragment subgroups smaller than a quad";
    return false;
  }
  return true;
}

DrawOutcome RunDraw(const DrawState& input, const DrawCall& call, execution::WorkerPool* pool) {
  DrawOutcome outcome;
  if (call.count == 0 || call.instanceCount == 0) return outcome;
  // Every worker's invocations share one cancel flag: a fault that stops the draw, or the device lost, ends them
  // all at their next check.
  std::atomic<bool> cancel{false};
  DrawState state = input;
  state.vertex.cancel = &cancel;
  state.fragment.cancel = &cancel;
  const bool masked = state.vertex.outOfRange != execution::OutOfRangeMode::Fault;

  std::vector<uint32_t> ids;
  uint64_t badAddress = 0;
  if (!ReadIndices(state, call, &ids, &badAddress)) {
    if (state.vertex.outOfRange != execution::OutOfRangeMode::Robust) {
      outcome.fault.kind = execution::ShaderFaultKind::ReadInvalid;
      outcome.fault.address = badAddress;
      outcome.fault.op = execution::kFetchOperation;
      outcome.faultInVertexStage = true;
      if (!masked) return outcome;
    }
    // Robust or masked: indices past the buffer are discarded ("robustBufferAccess ... index buffer": out-of-bounds
    // indices are treated as zero or discarded); ids holds the valid prefix.
  }
  std::vector<uint32_t> unique, slots;
  DeduplicateVertices(ids, &unique, &slots);
  const bool triangleTopology = !IsPointTopology(state.topology) && !IsLineTopology(state.topology);
  // Filled triangles are binned as assembled; points, lines and non-solid polygons become triangles first.
  const bool polygons = triangleTopology && state.raster.polygonMode == VK_POLYGON_MODE_FILL;
  std::vector<AssembledTriangle> assembled;
  if (triangleTopology) AssembleTriangles(state.topology, slots, &assembled);
  ExpandedPrimitives expanded;  // points and lines, per instance

  const VaryingLayout varyings = VaryingLayout::Match(*state.vertex.exe, state.fragment.exe);
  // One vertex stage per worker, built when the worker first needs one; worker 0's is built now, and tells the
  // shaded vertices' layout (position, varyings, PointSize for points, clip and cull distances).
  std::vector<std::unique_ptr<VertexStage>> vertexStages(pool != nullptr ? pool->threads() : 1);
  vertexStages[0] = std::make_unique<VertexStage>(state, varyings);
  const uint32_t stride = vertexStages[0]->Stride();
  const uint32_t pointSizeOffset = vertexStages[0]->PointSizeOffset();
  const ClipLayout clip = vertexStages[0]->Clip();
  const TileGrid grid = TileGrid::Cover(state.scissor);
  const size_t threads = pool != nullptr ? pool->threads() : 1;
  std::vector<float> vertices(unique.size() * stride);
  std::vector<std::unique_ptr<FragmentStage>> fragmentStages(threads);
  std::vector<BinnedChunk> chunks(threads);
  const uint32_t vertexWidth = std::max(1u, state.vertex.width);

  for (uint32_t instance = 0; instance < call.instanceCount; ++instance) {
    // Vertex stage: the distinct vertices, split over the workers in whole subgroups.
    FirstFault vertexFault;
    std::atomic<bool> vertexStopped{false};
    ForRanges(pool, unique.size(), kVerticesPerWorker, vertexWidth, [&](size_t w, size_t first, size_t last) {
      if (first == last) return;
      if (!vertexStages[w]) vertexStages[w] = std::make_unique<VertexStage>(state, varyings);
      execution::ShaderFault fault;
      bool stopped = false;
      const bool ran = vertexStages[w]->Run(unique.data() + first, last - first, instance, call,
                                            vertices.data() + first * stride, &fault, &stopped);
      if (IsFault(fault)) vertexFault.Report(fault, first + fault.localIndex);
      if (!ran) {
        cancel.store(true, std::memory_order_relaxed);
        if (stopped) vertexStopped.store(true, std::memory_order_relaxed);
      }
    });
    outcome.vertexInvocations += unique.size();
    outcome.inputVertices += ids.size() - static_cast<size_t>(std::count(ids.begin(), ids.end(), kRestart));
    if (IsFault(vertexFault.fault()) && !IsFault(outcome.fault)) {
      outcome.fault = vertexFault.fault();
      outcome.faultInVertexStage = true;
    }
    if (cancel.load()) {
      outcome.cancelled = vertexStopped.load() && !IsFault(outcome.fault);
      break;
    }
    // Points and lines become triangles over their fragments (point_line_expansion.h); triangles are binned as
    // assembled.
    const std::vector<AssembledTriangle>* triangles = &assembled;
    const float* binVertices = vertices.data();
    uint32_t binStride = stride;
    const uint32_t* primitiveIds = nullptr;
    uint64_t clippedPoints = 0;
    if (polygons) {
      outcome.primitives += assembled.size();
      outcome.clippingInvocations += assembled.size();
    } else if (triangleTopology) {
      outcome.primitives += assembled.size();
      outcome.clippingInvocations += assembled.size();
      ExpandPolygonEdges(state, assembled, vertices.data(), stride, clip, &expanded);
      triangles = &expanded.triangles;
      binVertices = expanded.vertices.data();
      binStride = expanded.stride;
      primitiveIds = expanded.primitiveIds.data();
      clippedPoints = expanded.triangles.size() / 2;
    } else {
      const uint64_t assembledHere =
          ExpandPointsAndLines(state, slots, vertices.data(), stride, pointSizeOffset, clip, &expanded);
      outcome.primitives += assembledHere;
      outcome.clippingInvocations += assembledHere;
      clippedPoints = expanded.triangles.size() / 2;  // two triangles per point or line that survived clipping
      triangles = &expanded.triangles;
      binVertices = expanded.vertices.data();
      binStride = expanded.stride;
      primitiveIds = expanded.primitiveIds.data();
    }
    if (state.raster.rasterizerDiscard || grid.count() == 0) continue;

    // Clipping, setup and binning: contiguous ranges of triangles, one chunk per worker.
    const size_t binned =
        ForRanges(pool, triangles->size(), kTrianglesPerWorker, 1, [&](size_t w, size_t first, size_t last) {
          // Points and lines were clipped and culled when expanded.
          chunks[w].Bin(state, grid, *triangles, first, last, binVertices, binStride, primitiveIds, polygons,
                        polygons ? clip : ClipLayout{});
        });
    if (polygons)
      for (size_t c = 0; c < binned; ++c) outcome.clippingPrimitives += chunks[c].clippedOutput();
    else
      outcome.clippingPrimitives += clippedPoints;

    // Rasterisation and the fragment stage: tiles taken in turn by the workers, each tile's triangles in order.
    FirstFault fragmentFault;
    std::atomic<bool> fragmentStopped{false};
    std::atomic<uint32_t> nextTile{0};
    const uint32_t tiles = grid.count();
    const uint32_t participants =
        pool != nullptr ? static_cast<uint32_t>(std::min<size_t>(pool->threads(), tiles)) : 1;
    auto rasterise = [&](uint32_t w) {
      if (!fragmentStages[w])
        fragmentStages[w] = std::make_unique<FragmentStage>(state, varyings, polygons ? UINT32_MAX : stride);
      FragmentStage& stage = *fragmentStages[w];
      for (;;) {
        const uint32_t tile = nextTile.fetch_add(1, std::memory_order_relaxed);
        if (tile >= tiles || cancel.load(std::memory_order_relaxed)) break;
        const Rect rect = grid.Tile(tile);
        execution::ShaderFault fault;
        bool stopped = false;
        bool ok = true;
        for (size_t c = 0; c < binned && ok; ++c)
          for (uint32_t index : chunks[c].TileTriangles(tile))
            if (!(ok = stage.Triangle(chunks[c].Triangle(index), rect, &fault, &stopped))) break;
        if (ok) ok = stage.Flush(&fault, &stopped);
        if (IsFault(fault)) fragmentFault.Report(fault, tile);
        if (!ok) {
          cancel.store(true, std::memory_order_relaxed);
          if (stopped) fragmentStopped.store(true, std::memory_order_relaxed);
          break;
        }
      }
    };
    if (participants <= 1) rasterise(0);
    else pool->Run(participants, rasterise);
    if (IsFault(fragmentFault.fault()) && !IsFault(outcome.fault)) outcome.fault = fragmentFault.fault();
    if (cancel.load()) {
      outcome.cancelled = fragmentStopped.load() && !IsFault(outcome.fault);
      break;
    }
  }
  for (size_t w = 0; w < threads; ++w)
    if (fragmentStages[w]) {
      outcome.fragmentsPassed += fragmentStages[w]->passed();
      outcome.fragmentInvocations += fragmentStages[w]->invocations();
    }
  return outcome;
}

}  // namespace crashtest::raster
