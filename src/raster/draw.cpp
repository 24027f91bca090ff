#include "raster/draw.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "raster/clipper.h"
#include "raster/fragment_stage.h"
#include "raster/shaded_vertex.h"
#include "raster/vertex_stage.h"

namespace crashtest::raster {
namespace {

// The vertex index of each element of the draw (UINT32_MAX where a primitive restarts). A read past the index
// buffer gives a fault the caller reports (the `address`), like a GPU's page fault.
bool ReadIndices(const DrawState& state, const DrawCall& call, std::vector<uint32_t>* ids, uint64_t* badAddress) {
  ids->resize(call.count);
  if (!call.indexed) {
    for (uint32_t i = 0; i < call.count; ++i) (*ids)[i] = call.first + i;
    return true;
  }
  const uint32_t size = call.indexType == VK_INDEX_TYPE_UINT16 ? 2 : call.indexType == VK_INDEX_TYPE_UINT8_EXT ? 1 : 4;
  const uint32_t restart = size == 2 ? 0xffffu : size == 1 ? 0xffu : 0xffffffffu;
  for (uint32_t i = 0; i < call.count; ++i) {
    const uint64_t offset = (uint64_t{call.first} + i) * size;
    if (call.indices == nullptr || offset + size > call.indexBytes) {
      *badAddress = call.indexAddress + offset;
      return false;
    }
    uint32_t index = 0;
    std::memcpy(&index, call.indices + offset, size);
    // "the value of the primitive restart index ... restarts the primitive assembly" (21.1); the restart value
    // is compared before vertexOffset is added.
    if (state.primitiveRestart && index == restart) {
      (*ids)[i] = UINT32_MAX;
      continue;
    }
    (*ids)[i] = index + static_cast<uint32_t>(call.vertexOffset);
  }
  return true;
}

// Triangles of `count` vertices (positions in the draw's sequence) between restarts, as "Triangle Lists / Strips
// / Fans" (21.1.x) number them; the first vertex of each triangle is the provoking vertex.
template <typename F>
void AssembleTriangles(VkPrimitiveTopology topology, const std::vector<uint32_t>& ids, F&& triangle) {
  size_t begin = 0;
  while (begin < ids.size()) {
    size_t end = begin;
    while (end < ids.size() && ids[end] != UINT32_MAX) ++end;
    const size_t n = end - begin;
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
        for (size_t i = 0; i + 3 <= n; i += 3) triangle(begin + i, begin + i + 1, begin + i + 2);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
        // Triangle i: vertices i, i + (1 + i % 2), i + (2 - i % 2).
        for (size_t i = 0; i + 3 <= n; ++i)
          triangle(begin + i, begin + i + 1 + i % 2, begin + i + 2 - i % 2);
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
        // Triangle i: vertices i + 1, i + 2, 0.
        for (size_t i = 0; i + 3 <= n; ++i) triangle(begin + i + 1, begin + i + 2, begin);
        break;
      default:
        break;
    }
    begin = end + 1;
  }
}

}  // namespace

bool CanRun(const DrawState& state, std::string* reason) {
  switch (state.topology) {
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
      break;
    default:
      *reason = "point, line, adjacency and patch topologies";
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

DrawOutcome RunDraw(const DrawState& state, const DrawCall& call) {
  DrawOutcome outcome;
  if (call.count == 0 || call.instanceCount == 0) return outcome;
  std::vector<uint32_t> ids;
  uint64_t badAddress = 0;
  if (!ReadIndices(state, call, &ids, &badAddress)) {
    outcome.fault.kind = execution::ShaderFaultKind::ReadInvalid;
    outcome.fault.address = badAddress;
    outcome.fault.op = execution::kFetchOperation;
    outcome.faultInVertexStage = true;
    if (state.vertex.outOfRange == execution::OutOfRangeMode::Fault) return outcome;
    // Robust or masked: indices past the buffer read as zero ("robustBufferAccess ... index buffer": out-of-bounds
    // indices are treated as zero or discarded). Re-read with the valid prefix only.
    DrawCall shortened = call;
    const uint32_t size = call.indexType == VK_INDEX_TYPE_UINT16 ? 2 : call.indexType == VK_INDEX_TYPE_UINT8_EXT ? 1 : 4;
    const uint64_t available = call.indices == nullptr || call.indexBytes / size <= call.first
                                   ? 0
                                   : call.indexBytes / size - call.first;
    shortened.count = static_cast<uint32_t>(std::min<uint64_t>(available, call.count));
    ReadIndices(state, shortened, &ids, &badAddress);
    if (state.vertex.outOfRange == execution::OutOfRangeMode::Robust) outcome.fault = execution::ShaderFault{};
  }
  const VaryingLayout varyings = VaryingLayout::Match(*state.vertex.exe, state.fragment.exe);
  VertexStage vertexStage(state, varyings);
  FragmentStage fragmentStage(state, varyings);
  Clipper clipper(4 + static_cast<uint32_t>(varyings.words.size()), !state.raster.depthClamp);
  VertexBuffer vertices;
  uint32_t primitiveId = 0;
  for (uint32_t instance = 0; instance < call.instanceCount; ++instance) {
    execution::ShaderFault fault;
    bool stopped = false;
    const bool ran = vertexStage.Run(ids, instance, call, &vertices, &fault, &stopped);
    outcome.vertexInvocations += ids.size();
    if (fault.kind != execution::ShaderFaultKind::None && outcome.fault.kind == execution::ShaderFaultKind::None) {
      outcome.fault = fault;
      outcome.faultInVertexStage = true;
    }
    if (!ran) {
      outcome.cancelled = stopped;
      return outcome;
    }
    primitiveId = 0;
    bool failed = false;
    AssembleTriangles(state.topology, ids, [&](size_t a, size_t b, size_t c) {
      if (failed) return;
      ++outcome.primitives;
      const uint32_t id = primitiveId++;
      if (state.raster.rasterizerDiscard) return;
      const uint32_t n = clipper.Clip(vertices.Vertex(a), vertices.Vertex(b), vertices.Vertex(c));
      const float* provoking = vertices.Vertex(a);
      for (uint32_t i = 1; i + 1 < n && !failed; ++i) {
        execution::ShaderFault f;
        if (!fragmentStage.Triangle(clipper.Vertex(0), clipper.Vertex(i), clipper.Vertex(i + 1), provoking, id, &f,
                                    &stopped))
          failed = true;
        if (f.kind != execution::ShaderFaultKind::None && outcome.fault.kind == execution::ShaderFaultKind::None)
          outcome.fault = f;
      }
    });
    if (!failed) {
      execution::ShaderFault f;
      if (!fragmentStage.Flush(&f, &stopped)) failed = true;
      if (f.kind != execution::ShaderFaultKind::None && outcome.fault.kind == execution::ShaderFaultKind::None)
        outcome.fault = f;
    }
    if (failed) {
      outcome.cancelled = stopped;
      break;
    }
  }
  outcome.fragmentsPassed = fragmentStage.passed();
  return outcome;
}

}  // namespace crashtest::raster
