// Buffer loads and stores the builder fused with the address they go through (executable_builder_memory.cpp):
//
//   LoadElement / StoreElement  `global[i]`: one 32-bit word at a global's pointer plus a 32-bit index times a
//                               stride. The access chain is never run on its own: the access checks the largest
//                               index against the descriptor's range once, then copies. Lanes whose indices are
//                               consecutive with a 4-byte stride (`x[gl_GlobalInvocationID.x]`) copy one row.
//   LoadSharedElement /         `shared[i][j]...`: workgroup memory through a chain of 32-bit indices. Each index's
//   StoreSharedElement          bound over the subgroup is taken once; when the furthest word the bounds allow is
//                               inside the workgroup's memory, every lane's word offset is exact in 32 bits and
//                               in range, and the access copies without a check per lane.
//   LoadFixed                   a pointer the same in every lane and known before the dispatch runs (push-constant
//                               and uniform members, a buffer's fixed element): resolved once, each word read once.
//
// Whatever these fast forms do not cover (an index that may be negative or outside the range, a null descriptor, a
// fault to report) goes to the general load and store (ops_memory.cpp), which decide lane by lane exactly as
// without the fusion: the results and faults are the same either way.
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>

#include "execution/dispatch_context.h"
#include "execution/ops/ops.h"

namespace crashtest::execution::ops {
namespace {

constexpr uint64_t kOffsetMask = (uint64_t{1} << 40) - 1;

// The host bytes [offset, offset + bytes) of descriptor `slot`, or nullptr when the range does not hold them all.
std::byte* HostRange(const SubgroupState& s, uint64_t pointer, uint64_t bytes) {
  const uint64_t slot = pointer >> 40, offset = pointer & kOffsetMask;
  if (slot >= s.dispatch->bufferCount) return nullptr;
  const BufferRange& range = s.dispatch->buffers[slot];
  if (range.data == nullptr || bytes > range.size || offset > range.size - bytes) return nullptr;
  return range.data + offset;
}

// The operands of a fused element access: Op::c indexes {base slot, the chain's extra} in Executable::extra; the
// chain's extra is AccessChainUniformBase's: {1, offset low, offset high, index slot, 0, stride low, stride high}.
struct Element {
  std::byte* host = nullptr;  // the element at index 0, when every active lane's element is in range
  const uint32_t* index = nullptr;
  uint32_t stride = 0;
  bool consecutive = false;   // a full subgroup whose lane l reads element index[0] + l, with a 4-byte stride
};

Element Resolve(const Op& op, const SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* fused = s.exe->extra.data() + op.c;
  const uint32_t* chain = s.exe->extra.data() + fused[1];
  const uint32_t* base = s.Slot(fused[0]);  // a global's pointer: the same in every lane
  const uint64_t start = Join(base[0], base[w]) + Join(chain[1], chain[2]);
  Element e;
  e.index = s.Slot(chain[3]);
  e.stride = chain[5];
  // The bitwise or of the active lanes' indices bounds the largest from above and vectorises on every x86-64
  // (an unsigned maximum needs SSE4.1): when the bound's element is in range, every lane's is.
  uint32_t bound = 0, apart = 0;
  const uint32_t first = e.index[0];
  for (uint32_t l = 0; l < w; ++l) {
    bound |= e.index[l] & s.laneMask[l];
    apart |= e.index[l] ^ (first + l);
  }
  e.consecutive = s.full && apart == 0 && e.stride == 4;
  // A negative index (above INT32_MAX as unsigned) steps backwards: the general path decides it.
  if (bound <= INT32_MAX) e.host = HostRange(s, start, uint64_t{bound} * e.stride + 4);
  if (e.host == nullptr && bound != 0) {
    // The bound overshoots near the end of a range: the exact largest index decides.
    uint32_t largest = 0;
    for (uint32_t l = 0; l < w; ++l) largest = std::max(largest, e.index[l] & s.laneMask[l]);
    if (largest <= INT32_MAX) e.host = HostRange(s, start, uint64_t{largest} * e.stride + 4);
  }
  return e;
}

// The access chain's pointer in its own slot (Op::a), for the general path.
void RunChain(const Op& op, SubgroupState& s) {
  const uint32_t* fused = s.exe->extra.data() + op.c;
  Op chain;
  chain.dst = op.a;
  chain.a = fused[0];
  chain.aux = fused[1];
  AccessChain(chain, s);
}

template <uint32_t StorageClass>
void LoadElement(const Op& op, SubgroupState& s) {
  const Element e = Resolve(op, s);
  if (e.host == nullptr) [[unlikely]] {
    RunChain(op, s);
    Load(StorageClass)(op, s);
    return;
  }
  const uint32_t w = s.width;
  uint32_t* d = s.Slot(op.dst);
  if (e.consecutive) {
    std::memcpy(d, e.host + size_t{e.index[0]} * 4, size_t{w} * 4);
    return;
  }
  // Inactive lanes read element 0 (inside the range: the largest active index is) and keep their old value.
  for (uint32_t l = 0; l < w; ++l) {
    uint32_t v;
    std::memcpy(&v, e.host + size_t{e.index[l] & s.laneMask[l]} * e.stride, 4);
    d[l] = Blend(s.laneMask[l], v, d[l]);
  }
}

template <uint32_t StorageClass>
void StoreElement(const Op& op, SubgroupState& s) {
  const Element e = Resolve(op, s);
  if (e.host == nullptr) [[unlikely]] {
    RunChain(op, s);
    Store(StorageClass)(op, s);
    return;
  }
  const uint32_t* v = s.Slot(op.b);
  if (e.consecutive && s.helpers == 0) {
    std::memcpy(e.host + size_t{e.index[0]} * 4, v, size_t{s.width} * 4);
    return;
  }
  // Lanes in increasing order: when two write the same word the highest lane's value stays, as on the general
  // path. Helper invocations write nothing.
  ForEachLane(s.active & ~s.helpers,
              [&](uint32_t l) { std::memcpy(e.host + size_t{e.index[l]} * e.stride, v + l, 4); });
}

template <uint32_t StorageClass>
void LoadFixed(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* p = s.Slot(op.a);  // the same in every lane
  const MemoryAccess& access = s.exe->accesses[op.aux];
  const std::byte* host = HostRange(s, Join(p[0], p[w]), access.extent);
  if (host == nullptr) [[unlikely]] {
    Load(StorageClass)(op, s);
    return;
  }
  const Leaf* leaves = s.exe->leaves.data() + access.firstLeaf;
  uint32_t* d = s.Slot(op.dst);
  auto fill = [&](uint32_t slot, uint32_t value) {
    uint32_t* row = d + size_t{slot} * w;
    if (s.full) {
      std::fill_n(row, w, value);
    } else {
      for (uint32_t l = 0; l < w; ++l) row[l] = Blend(s.laneMask[l], value, row[l]);
    }
  };
  for (uint32_t i = 0; i < access.leafCount; ++i) {
    const Leaf& leaf = leaves[i];
    const std::byte* src = host + leaf.offset;
    switch (leaf.bytes) {
      case 1: fill(leaf.slot, static_cast<uint8_t>(*src)); break;
      case 2: { uint16_t h; std::memcpy(&h, src, 2); fill(leaf.slot, h); break; }
      case 8: {
        uint32_t words[2];
        std::memcpy(words, src, 8);
        fill(leaf.slot, words[0]);
        fill(leaf.slot + 1u, words[1]);
        break;
      }
      default: { uint32_t word; std::memcpy(&word, src, 4); fill(leaf.slot, word); break; }
    }
  }
}

// Word offsets into workgroup memory for a fused chain (Op::c as for Element; the chain is AccessChain's, every
// index 32-bit with a stride below 2^32): true when every active lane's `op.n` words are inside the workgroup's
// memory, with the offsets in `at` (inactive lanes get the chain's start, also inside).
bool SharedOffsets(const Op& op, const SubgroupState& s, uint32_t* at) {
  const uint32_t w = s.width;
  const uint32_t* fused = s.exe->extra.data() + op.c;
  const uint32_t* chain = s.exe->extra.data() + fused[1];
  const uint32_t* base = s.Slot(fused[0]);  // a workgroup variable's word offset: the same in every lane
  const uint64_t start = uint64_t{base[0]} + Join(chain[1], chain[2]);
  if (base[w] != 0 || start > UINT32_MAX) return false;
  uint64_t reach = start;  // at least every active lane's offset
  for (uint32_t l = 0; l < w; ++l) at[l] = static_cast<uint32_t>(start);
  for (uint32_t t = 0; t < chain[0]; ++t) {
    const uint32_t* term = chain + 3 + 4 * t;
    const uint32_t* index = s.Slot(term[0]);
    const uint32_t stride = term[2];
    uint32_t bound = 0;
    for (uint32_t l = 0; l < w; ++l) bound |= index[l] & s.laneMask[l];
    // A negative index is a huge unsigned bound: the general path decides it.
    reach += uint64_t{bound} * stride;
    if (reach > UINT32_MAX) return false;
    for (uint32_t l = 0; l < w; ++l) at[l] += (index[l] & s.laneMask[l]) * stride;
  }
  return reach + op.n <= s.exe->sharedWords;
}

void LoadSharedElement(const Op& op, SubgroupState& s) {
  uint32_t at[kMaxSubgroupWidth];
  if (!SharedOffsets(op, s, at)) [[unlikely]] {
    RunChain(op, s);
    Load(spv::StorageClassWorkgroup)(op, s);
    return;
  }
  const uint32_t w = s.width;
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t k = 0; k < op.n; ++k) {
    uint32_t* row = d + size_t{k} * w;
    const uint32_t* shared = s.shared + k;
    if (s.full) {
      for (uint32_t l = 0; l < w; ++l) row[l] = shared[at[l]];
    } else {
      for (uint32_t l = 0; l < w; ++l) row[l] = Blend(s.laneMask[l], shared[at[l]], row[l]);
    }
  }
}

void StoreSharedElement(const Op& op, SubgroupState& s) {
  uint32_t at[kMaxSubgroupWidth];
  if (!SharedOffsets(op, s, at)) [[unlikely]] {
    RunChain(op, s);
    Store(spv::StorageClassWorkgroup)(op, s);
    return;
  }
  const uint32_t w = s.width;
  const uint32_t* v = s.Slot(op.b);
  // Lanes in increasing order, as on the general path: the highest lane's value stays.
  ForEachLane(s.active, [&](uint32_t l) {
    for (uint32_t k = 0; k < op.n; ++k) s.shared[at[l] + k] = v[size_t{k} * w + l];
  });
}

}  // namespace

// Private memory at a pointer the same in every lane (a variable's own, or one plus constant indices): the value's
// words are whole rows of [word][lane] memory, copied like registers.
void LoadPrivateFixed(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, words = s.exe->privateWords;
  const uint32_t at = s.Slot(op.a)[0];
  if (at > words || op.n > words - at) [[unlikely]] {
    Load(spv::StorageClassPrivate)(op, s);  // reads zero
    return;
  }
  const uint32_t* src = s.priv + size_t{at} * w;
  uint32_t* d = s.Slot(op.dst);
  const size_t total = size_t{op.n} * w;
  if (s.full) {
    std::memcpy(d, src, total * sizeof(uint32_t));
  } else {
    for (size_t i = 0; i < total; ++i) d[i] = Blend(s.laneMask[i % w], src[i], d[i]);
  }
}

OpHandler LoadElement(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassWorkgroup: return &LoadSharedElement;
    case spv::StorageClassStorageBuffer: return &LoadElement<spv::StorageClassStorageBuffer>;
    case spv::StorageClassUniform: return &LoadElement<spv::StorageClassUniform>;
    case spv::StorageClassPushConstant: return &LoadElement<spv::StorageClassPushConstant>;
    default: return nullptr;
  }
}

OpHandler StoreElement(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassWorkgroup: return &StoreSharedElement;
    case spv::StorageClassStorageBuffer: return &StoreElement<spv::StorageClassStorageBuffer>;
    case spv::StorageClassUniform: return &StoreElement<spv::StorageClassUniform>;
    default: return nullptr;
  }
}

OpHandler LoadFixed(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassStorageBuffer: return &LoadFixed<spv::StorageClassStorageBuffer>;
    case spv::StorageClassUniform: return &LoadFixed<spv::StorageClassUniform>;
    case spv::StorageClassPushConstant: return &LoadFixed<spv::StorageClassPushConstant>;
    default: return nullptr;
  }
}

}  // namespace crashtest::execution::ops
