#include "raster/primitive_assembly.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace crashtest::raster {

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
      ids->resize(i);
      return false;
    }
    uint32_t index = 0;
    std::memcpy(&index, call.indices + offset, size);
    // "the value of the primitive restart index ... restarts the primitive assembly" (21.1); the restart value
    // is compared before vertexOffset is added.
    if (state.primitiveRestart && index == restart) {
      (*ids)[i] = kRestart;
      continue;
    }
    (*ids)[i] = index + static_cast<uint32_t>(call.vertexOffset);
  }
  return true;
}

void DeduplicateVertices(const std::vector<uint32_t>& ids, std::vector<uint32_t>* unique,
                         std::vector<uint32_t>* slots) {
  unique->clear();
  slots->resize(ids.size());
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t id : ids) {
    if (id == kRestart) continue;
    lo = std::min(lo, id);
    hi = std::max(hi, id);
  }
  if (lo > hi) {
    std::fill(slots->begin(), slots->end(), kRestart);
    return;
  }
  auto assign = [&](auto& lookup) {
    for (size_t i = 0; i < ids.size(); ++i) {
      const uint32_t id = ids[i];
      if (id == kRestart) {
        (*slots)[i] = kRestart;
        continue;
      }
      uint32_t& slot = lookup(id);
      if (slot == kRestart) {
        slot = static_cast<uint32_t>(unique->size());
        unique->push_back(id);
      }
      (*slots)[i] = slot;
    }
  };
  // A dense table over the index range when it is not much wider than the draw (the usual mesh), else a hash map.
  const uint64_t range = uint64_t{hi} - lo + 1;
  if (range <= 4 * uint64_t{ids.size()} + 4096) {
    std::vector<uint32_t> table(range, kRestart);
    auto lookup = [&](uint32_t id) -> uint32_t& { return table[id - lo]; };
    assign(lookup);
  } else {
    std::unordered_map<uint32_t, uint32_t> map;
    auto lookup = [&](uint32_t id) -> uint32_t& { return map.try_emplace(id, kRestart).first->second; };
    assign(lookup);
  }
}

void AssembleTriangles(VkPrimitiveTopology topology, const std::vector<uint32_t>& slots,
                       std::vector<AssembledTriangle>* out) {
  size_t begin = 0;
  while (begin < slots.size()) {
    size_t end = begin;
    while (end < slots.size() && slots[end] != kRestart) ++end;
    const size_t n = end - begin;
    const uint32_t* s = slots.data() + begin;
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
        for (size_t i = 0; i + 3 <= n; i += 3) out->push_back({{s[i], s[i + 1], s[i + 2]}, s[i]});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
        // Triangle i: vertices i, i + (1 + i % 2), i + (2 - i % 2).
        for (size_t i = 0; i + 3 <= n; ++i) out->push_back({{s[i], s[i + 1 + i % 2], s[i + 2 - i % 2]}, s[i]});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
        // Triangle i: vertices i + 1, i + 2, 0.
        for (size_t i = 0; i + 3 <= n; ++i) out->push_back({{s[i + 1], s[i + 2], s[0]}, s[i + 1]});
        break;
      default:
        break;
    }
    begin = end + 1;
  }
}

}  // namespace crashtest::raster
