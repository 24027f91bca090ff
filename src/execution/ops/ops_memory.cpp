// Loads, stores, access chains, atomics and barriers. Pointer encodings per storage class are in executable.h.
//
// Every access is checked against the range it may touch before the host memory is read or written: an access
// outside it is a fault (ShaderFault, the dispatch stops at the subgroup's next check) or, with robust buffer
// access, reads zero and writes nothing ("out-of-bounds ... reads return zero, writes are discarded" is what
// robustBufferAccess2 guarantees, and one of the behaviours robustBufferAccess allows).
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "execution/dispatch_context.h"
#include "execution/ops/ops.h"

namespace crashtest::execution::ops {
namespace {

constexpr uint64_t kOffsetMask = (uint64_t{1} << 40) - 1;
// Byte offsets in a descriptor from 2^39 on are negative ones (a pointer stepped before its descriptor's start
// borrows from the slot bits): ranges are far smaller than 512 GiB.
constexpr uint64_t kNegativeOffsets = uint64_t{1} << 39;

uint64_t PointerOf(const SubgroupState& s, uint32_t slot, uint32_t lane) {
  const uint32_t* p = s.Slot(slot);
  return Join(p[lane], p[s.width + lane]);
}

// Records a fault at `op` for `lane`. Returns true when the access must be skipped and the dispatch continues
// (masked or robust), false when the subgroup must stop now.
bool OutOfRange(SubgroupState& s, const Op& op, uint32_t lane, uint64_t address, bool write, uint32_t slot,
                bool freed = false, bool null = false) {
  const OutOfRangeMode mode = s.dispatch->outOfRange;
  if (mode == OutOfRangeMode::Robust) return true;
  if (s.fault.kind == ShaderFaultKind::None) {
    s.fault.kind = write ? ShaderFaultKind::WriteInvalid : ShaderFaultKind::ReadInvalid;
    s.fault.address = address;
    s.fault.op = static_cast<uint32_t>(&op - s.exe->ops.data());
    for (int i = 0; i < 3; ++i) s.fault.workgroup[i] = s.workgroup[i];
    s.fault.localIndex = s.firstLocalIndex + lane;
    s.fault.descriptorSlot = slot;
    s.fault.freed = freed;
    s.fault.null = null;
  }
  if (mode == OutOfRangeMode::Masked) return true;
  s.stop = true;
  return false;
}

// The host bytes of `bytes` at the explicit-layout pointer `p` of `storageClass` for `lane`, or nullptr when out of
// range (after OutOfRange decided; *stop is set when the subgroup must stop).
std::byte* Resolve(SubgroupState& s, const Op& op, uint32_t storageClass, uint64_t p, uint64_t bytes, uint32_t lane,
                   bool write, bool* stop) {
  if (storageClass == spv::StorageClassImage) return ImageTexelHost(s, p, bytes);  // bounds-checked, never a fault
  if (storageClass == spv::StorageClassPhysicalStorageBuffer) {
    if (!s.cachedRange.Contains(p, bytes)) {
      bool freed = false;
      AddressRange range;
      if (s.dispatch->addresses == nullptr || !s.dispatch->addresses->Find(p, &range, &freed) ||
          !range.Contains(p, bytes)) {
        *stop = !OutOfRange(s, op, lane, p, write, 0, freed);
        return nullptr;
      }
      s.cachedRange = range;
    }
    return s.cachedRange.host + (p - s.cachedRange.base);
  }
  uint32_t slot = static_cast<uint32_t>(p >> 40);
  uint64_t offset = p & kOffsetMask;
  if (offset >= kNegativeOffsets) {
    // An index before the start of the range: the negative offset borrowed from the descriptor slot above it
    // (no range is that large). The fault names the address before the descriptor's own.
    ++slot;
    offset -= uint64_t{1} << 40;  // two's complement: the address arithmetic below wraps back below the base
  }
  if (slot < s.dispatch->bufferCount) {
    const BufferRange& range = s.dispatch->buffers[slot];
    if (range.data != nullptr && bytes <= range.size && offset <= range.size - bytes) return range.data + offset;
    if (range.null) return nullptr;  // nullDescriptor: defined as zero / dropped
    *stop = !OutOfRange(s, op, lane, range.address + offset, write, slot);
    return nullptr;
  }
  // Past the table: a null pointer (descriptor slot kNullDescriptorSlot, or below it after a negative step).
  *stop = !OutOfRange(s, op, lane, offset, write, slot, false, slot >= (kNullDescriptorSlot & ~0xffu));
  return nullptr;
}

void ReadLeaf(uint32_t* d, uint32_t w, uint32_t lane, const Leaf& leaf, const std::byte* host) {
  const std::byte* src = host + leaf.offset;
  uint32_t* lo = d + static_cast<size_t>(leaf.slot) * w + lane;
  switch (leaf.bytes) {
    case 1: *lo = static_cast<uint32_t>(static_cast<uint8_t>(*src)); break;
    case 2: { uint16_t v; std::memcpy(&v, src, 2); *lo = v; break; }
    case 8: { uint32_t v[2]; std::memcpy(v, src, 8); lo[0] = v[0]; lo[w] = v[1]; break; }
    default: std::memcpy(lo, src, 4); break;
  }
}

void WriteLeaf(const uint32_t* v, uint32_t w, uint32_t lane, const Leaf& leaf, std::byte* host) {
  std::byte* dst = host + leaf.offset;
  const uint32_t* lo = v + static_cast<size_t>(leaf.slot) * w + lane;
  switch (leaf.bytes) {
    case 1: { uint8_t b = static_cast<uint8_t>(*lo); std::memcpy(dst, &b, 1); break; }
    case 2: { uint16_t h = static_cast<uint16_t>(*lo); std::memcpy(dst, &h, 2); break; }
    case 8: { uint32_t words[2] = {lo[0], lo[w]}; std::memcpy(dst, words, 8); break; }
    default: std::memcpy(dst, lo, 4); break;
  }
}

// The pointer every active lane holds, or UINT32_MAX when they differ (the common case is a variable's own
// address, the same for all).
uint32_t UniformPointer(const SubgroupState& s, uint32_t slot) {
  const uint32_t* p = s.Slot(slot);
  const uint32_t first = p[std::countr_zero(s.active)];
  uint32_t differ = 0;
  if (s.full) {
    for (uint32_t l = 0; l < s.width; ++l) differ |= p[l] ^ first;
  } else {
    ForEachLane(s.active, [&](uint32_t l) { differ |= p[l] ^ first; });
  }
  return differ == 0 ? first : UINT32_MAX;
}

// The common case of a descriptor access: every active lane points into the same descriptor, inside its range,
// and the value is one 32-bit word. Returns the descriptor's base, or nullptr when the case does not apply (the
// general per-lane path then decides, faults included).
template <uint32_t StorageClass>
std::byte* UniformWordBase(const SubgroupState& s, const Op& op, const MemoryAccess& access, const Leaf* leaves) {
  if constexpr (StorageClass == spv::StorageClassPhysicalStorageBuffer) {
    return nullptr;
  } else {
    if (access.leafCount != 1 || leaves[0].bytes != 4 || leaves[0].offset != 0) return nullptr;
    const uint32_t w = s.width;
    const uint32_t* lo = s.Slot(op.a);
    const uint32_t* hi = lo + w;
    const uint32_t first = static_cast<uint32_t>(std::countr_zero(s.active));
    const uint32_t high = hi[first];
    uint32_t same = 0, maxOffset = 0;
    if (s.full) {
      for (uint32_t l = 0; l < w; ++l) {
        same |= hi[l] ^ high;
        maxOffset = std::max(maxOffset, lo[l]);
      }
    } else {
      ForEachLane(s.active, [&](uint32_t l) {
        same |= hi[l] ^ high;
        maxOffset = std::max(maxOffset, lo[l]);
      });
    }
    const uint32_t slot = high >> 8;
    if (same != 0 || (high & 0xff) != 0 || slot >= s.dispatch->bufferCount) return nullptr;
    const BufferRange& range = s.dispatch->buffers[slot];
    if (range.data == nullptr || range.size < 4 || maxOffset > range.size - 4) return nullptr;
    return range.data;
  }
}

// Explicit-layout memory: buffers, push constants, physical storage buffers.
template <uint32_t StorageClass>
void LoadExplicit(const Op& op, SubgroupState& s) {
  const MemoryAccess& access = s.exe->accesses[op.aux];
  const Leaf* leaves = s.exe->leaves.data() + access.firstLeaf;
  const uint32_t w = s.width;
  uint32_t* d = s.Slot(op.dst);
  if (const std::byte* base = UniformWordBase<StorageClass>(s, op, access, leaves)) {
    const uint32_t* lo = s.Slot(op.a);
    if (s.full && lo[0] == lo[w - 1] && UniformPointer(s, op.a) != UINT32_MAX) {
      // Every lane reads the same word (a push constant, a uniform): read it once.
      uint32_t value;
      std::memcpy(&value, base + lo[0], 4);
      std::fill_n(d, w, value);
    } else if (s.full) {
      for (uint32_t l = 0; l < w; ++l) std::memcpy(d + l, base + lo[l], 4);
    } else {
      ForEachLane(s.active, [&](uint32_t l) { std::memcpy(d + l, base + lo[l], 4); });
    }
    return;
  }
  uint64_t lanes = s.active;
  while (lanes != 0) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(lanes));
    lanes &= lanes - 1;
    bool stop = false;
    const std::byte* host = Resolve(s, op, StorageClass, PointerOf(s, op.a, l), access.extent, l, false, &stop);
    if (host == nullptr) {
      if (stop) return;
      for (uint32_t k = 0; k < op.n; ++k) d[static_cast<size_t>(k) * w + l] = 0;
      continue;
    }
    for (uint32_t i = 0; i < access.leafCount; ++i) ReadLeaf(d, w, l, leaves[i], host);
  }
}

template <uint32_t StorageClass>
void StoreExplicit(const Op& op, SubgroupState& s) {
  const MemoryAccess& access = s.exe->accesses[op.aux];
  const Leaf* leaves = s.exe->leaves.data() + access.firstLeaf;
  const uint32_t w = s.width;
  const uint32_t* v = s.Slot(op.b);
  if (std::byte* base = UniformWordBase<StorageClass>(s, op, access, leaves)) {
    const uint32_t* lo = s.Slot(op.a);
    // Lanes in increasing order: when two write the same word, the highest lane's value stays, as on the
    // general path.
    ForEachLane(s.active & ~s.helpers, [&](uint32_t l) { std::memcpy(base + lo[l], v + l, 4); });
    return;
  }
  // Helper invocations' stores and atomics "do not have any effect" (Vulkan 1.3, "Helper Invocations"): fragment
  // quads' helper lanes write nothing (and so cannot fault either).
  uint64_t lanes = s.active & ~s.helpers;
  while (lanes != 0) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(lanes));
    lanes &= lanes - 1;
    bool stop = false;
    std::byte* host = Resolve(s, op, StorageClass, PointerOf(s, op.a, l), access.extent, l, true, &stop);
    if (host == nullptr) {
      if (stop) return;
      continue;
    }
    for (uint32_t i = 0; i < access.leafCount; ++i) WriteLeaf(v, w, l, leaves[i], host);
  }
}

// Slot-layout memory. Private memory is [word][lane]; an index past the variable (undefined in SPIR-V) reads zero
// and writes nothing rather than touching another invocation's words.
void LoadPrivate(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, words = s.exe->privateWords;
  const uint32_t* p = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  if (const uint32_t at = UniformPointer(s, op.a); at != UINT32_MAX && at <= words && op.n <= words - at) {
    // Private memory is [word][lane]: the value's words are whole rows, copied like registers.
    const uint32_t* src = s.priv + static_cast<size_t>(at) * w;
    const size_t total = static_cast<size_t>(op.n) * w;
    if (s.full) {
      std::memcpy(d, src, total * sizeof(uint32_t));
    } else {
      for (size_t i = 0; i < total; ++i) d[i] = Blend(s.laneMask[i % w], src[i], d[i]);
    }
    return;
  }
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t at = p[l];
    const bool inside = at <= words && op.n <= words - at;
    for (uint32_t k = 0; k < op.n; ++k)
      d[static_cast<size_t>(k) * w + l] = inside ? s.priv[static_cast<size_t>(at + k) * w + l] : 0;
  });
}

void StorePrivate(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, words = s.exe->privateWords;
  const uint32_t* p = s.Slot(op.a);
  const uint32_t* v = s.Slot(op.b);
  if (const uint32_t at = UniformPointer(s, op.a); at != UINT32_MAX && at <= words && op.n <= words - at) {
    uint32_t* dst = s.priv + static_cast<size_t>(at) * w;
    const size_t total = static_cast<size_t>(op.n) * w;
    if (s.full) {
      std::memcpy(dst, v, total * sizeof(uint32_t));
    } else {
      for (size_t i = 0; i < total; ++i) dst[i] = Blend(s.laneMask[i % w], v[i], dst[i]);
    }
    return;
  }
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t at = p[l];
    if (at > words || op.n > words - at) return;
    for (uint32_t k = 0; k < op.n; ++k)
      s.priv[static_cast<size_t>(at + k) * w + l] = v[static_cast<size_t>(k) * w + l];
  });
}

// Workgroup memory. An index past the end reads zero and writes nothing, as for private memory; a pointer whose high
// word is set is a null workgroup pointer (executable.h) or one stepped below the start of workgroup memory: a
// fault reported at its low word (for a null pointer, the words stepped from null), never an access.
bool NullShared(SubgroupState& s, const Op& op, uint32_t lane, bool write, bool* stop) {
  const uint32_t* p = s.Slot(op.a);
  if (p[s.width + lane] == 0) return false;
  *stop = !OutOfRange(s, op, lane, p[lane], write, 0, false, true);
  return true;
}

void LoadShared(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, words = s.exe->sharedWords;
  const uint32_t* p = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  bool stop = false;
  ForEachLane(s.active, [&](uint32_t l) {
    if (stop) return;
    const uint32_t at = p[l];
    bool inside = at <= words && op.n <= words - at;
    if (NullShared(s, op, l, false, &stop)) inside = false;
    for (uint32_t k = 0; k < op.n; ++k) d[static_cast<size_t>(k) * w + l] = inside ? s.shared[at + k] : 0;
  });
}

void StoreShared(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, words = s.exe->sharedWords;
  const uint32_t* p = s.Slot(op.a);
  const uint32_t* v = s.Slot(op.b);
  bool stop = false;
  ForEachLane(s.active, [&](uint32_t l) {
    if (stop) return;
    const uint32_t at = p[l];
    if (NullShared(s, op, l, true, &stop) || at > words || op.n > words - at) return;
    for (uint32_t k = 0; k < op.n; ++k) s.shared[at + k] = v[static_cast<size_t>(k) * w + l];
  });
}

// Atomics. Workgroup and private memory belong to one host thread at a time (a workgroup's subgroups run on one
// worker), so plain operations are atomic there; buffer memory uses std::atomic_ref, sequentially consistent,
// which also gives the acquire/release semantics any memory-semantics operand can ask for.
template <typename U, typename F>
U Rmw(U* word, bool shared, F&& f) {
  if (shared) {
    U old = *word;
    *word = f(old);
    return old;
  }
  std::atomic_ref<U> ref(*word);
  U old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, f(old), std::memory_order_seq_cst, std::memory_order_relaxed)) {
  }
  return old;
}

template <uint32_t SpvOp, Scalar K>
auto Combine(typename Lane<K>::T old, typename Lane<K>::T value) {
  using T = typename Lane<K>::T;
  if constexpr (SpvOp == spv::OpAtomicExchange || SpvOp == spv::OpAtomicStore) return value;
  else if constexpr (SpvOp == spv::OpAtomicIIncrement) return static_cast<T>(old + 1);
  else if constexpr (SpvOp == spv::OpAtomicIDecrement) return static_cast<T>(old - 1);
  else if constexpr (SpvOp == spv::OpAtomicIAdd || SpvOp == spv::OpAtomicFAddEXT) return static_cast<T>(old + value);
  else if constexpr (SpvOp == spv::OpAtomicISub) return static_cast<T>(old - value);
  else if constexpr (SpvOp == spv::OpAtomicSMin || SpvOp == spv::OpAtomicUMin) return old < value ? old : value;
  else if constexpr (SpvOp == spv::OpAtomicSMax || SpvOp == spv::OpAtomicUMax) return old > value ? old : value;
  else if constexpr (SpvOp == spv::OpAtomicFMinEXT) return std::fmin(old, value);
  else if constexpr (SpvOp == spv::OpAtomicFMaxEXT) return std::fmax(old, value);
  else if constexpr (SpvOp == spv::OpAtomicAnd) return static_cast<T>(old & value);
  else if constexpr (SpvOp == spv::OpAtomicOr) return static_cast<T>(old | value);
  else if constexpr (SpvOp == spv::OpAtomicXor) return static_cast<T>(old ^ value);
  else return old;  // OpAtomicLoad
}

// op.a pointer, op.b value (CompareExchange: op.b value, op.c comparator), op.aux the access (explicit layout).
template <uint32_t SpvOp, uint32_t StorageClass, Scalar K>
void AtomicOp(const Op& op, SubgroupState& s) {
  using T = typename Lane<K>::T;
  using U = std::conditional_t<SlotsOf(K) == 2, uint64_t, uint32_t>;
  constexpr uint32_t bytes = sizeof(U);
  const uint32_t w = s.width;
  const uint32_t* v = s.Slot(op.b);
  const uint32_t* cmp = s.Slot(op.c);
  uint32_t* d = s.Slot(op.dst);
  // Helper invocations' atomics have no effect (their results are undefined: left as they were).
  uint64_t lanes = s.active & ~s.helpers;
  // Lanes in increasing order, so the values each receives are deterministic within a subgroup.
  while (lanes != 0) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(lanes));
    lanes &= lanes - 1;
    const uint64_t p = PointerOf(s, op.a, l);
    U* word = nullptr;
    bool shared = true;
    if constexpr (StorageClass == spv::StorageClassWorkgroup) {
      bool stop = false;
      if (NullShared(s, op, l, SpvOp != spv::OpAtomicLoad, &stop)) {
        if (stop) return;
      } else if (p + bytes / 4 <= s.exe->sharedWords) {
        word = reinterpret_cast<U*>(s.shared + p);
      }
    } else if constexpr (StorageClass == spv::StorageClassFunction || StorageClass == spv::StorageClassPrivate) {
      // Private words are [word][lane]: a 64-bit private atomic is not contiguous; the interpreter keeps private
      // atomics to 32 bits (builder).
      if (p < s.exe->privateWords) word = reinterpret_cast<U*>(s.priv + static_cast<size_t>(p) * w + l);
    } else {
      bool stop = false;
      std::byte* host = Resolve(s, op, StorageClass, p, bytes, l, SpvOp != spv::OpAtomicLoad, &stop);
      if (host == nullptr && stop) return;
      word = reinterpret_cast<U*>(host);
      shared = false;
      if (word != nullptr && reinterpret_cast<uintptr_t>(word) % alignof(U) != 0) word = nullptr;  // misaligned
    }
    if (word == nullptr) {
      if constexpr (SpvOp != spv::OpAtomicStore) Put<K, true>(d, w, 0, l, T{}, ~0u);
      continue;
    }
    const T value = Get<K>(v, w, 0, l);
    U oldBits;
    if constexpr (SpvOp == spv::OpAtomicCompareExchange) {
      const U expected = static_cast<U>(Lane<K>::Encode(Get<K>(cmp, w, 0, l)));
      const U desired = static_cast<U>(Lane<K>::Encode(value));
      oldBits = Rmw<U>(word, shared, [&](U old) { return old == expected ? desired : old; });
    } else if constexpr (SpvOp == spv::OpAtomicLoad) {
      oldBits = shared ? *word : std::atomic_ref<U>(*word).load(std::memory_order_seq_cst);
    } else {
      oldBits = Rmw<U>(word, shared, [&](U old) {
        return static_cast<U>(Lane<K>::Encode(Combine<SpvOp, K>(Lane<K>::Decode(old), value)));
      });
    }
    if constexpr (SpvOp != spv::OpAtomicStore) Put<K, true>(d, w, 0, l, Lane<K>::Decode(oldBits), ~0u);
  }
}

constexpr bool IsFloatAtomic(uint32_t op) {
  return op == spv::OpAtomicFAddEXT || op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT;
}
constexpr bool MovesBits(uint32_t op) {
  return op == spv::OpAtomicLoad || op == spv::OpAtomicStore || op == spv::OpAtomicExchange ||
         op == spv::OpAtomicCompareExchange;
}

template <uint32_t SpvOp, uint32_t StorageClass>
OpHandler AtomicFor(Scalar k) {
  constexpr bool kPrivate = StorageClass == spv::StorageClassFunction || StorageClass == spv::StorageClassPrivate;
  if constexpr (MovesBits(SpvOp) || !IsFloatAtomic(SpvOp)) {
    switch (k) {
      case Scalar::U32: return &AtomicOp<SpvOp, StorageClass, Scalar::U32>;
      case Scalar::S32: return &AtomicOp<SpvOp, StorageClass, Scalar::S32>;
      case Scalar::U64: if constexpr (!kPrivate) return &AtomicOp<SpvOp, StorageClass, Scalar::U64>; else return nullptr;
      case Scalar::S64: if constexpr (!kPrivate) return &AtomicOp<SpvOp, StorageClass, Scalar::S64>; else return nullptr;
      default: break;
    }
  }
  if constexpr (MovesBits(SpvOp) || IsFloatAtomic(SpvOp)) {
    switch (k) {
      case Scalar::F32: return &AtomicOp<SpvOp, StorageClass, Scalar::F32>;
      case Scalar::F64: if constexpr (!kPrivate) return &AtomicOp<SpvOp, StorageClass, Scalar::F64>; else return nullptr;
      default: break;
    }
  }
  return nullptr;
}

template <uint32_t SpvOp>
OpHandler AtomicIn(uint32_t storageClass, Scalar k) {
  switch (storageClass) {
    case spv::StorageClassStorageBuffer: return AtomicFor<SpvOp, spv::StorageClassStorageBuffer>(k);
    case spv::StorageClassUniform: return AtomicFor<SpvOp, spv::StorageClassUniform>(k);
    case spv::StorageClassPhysicalStorageBuffer: return AtomicFor<SpvOp, spv::StorageClassPhysicalStorageBuffer>(k);
    case spv::StorageClassWorkgroup: return AtomicFor<SpvOp, spv::StorageClassWorkgroup>(k);
    case spv::StorageClassImage: return AtomicFor<SpvOp, spv::StorageClassImage>(k);
    case spv::StorageClassFunction:
    case spv::StorageClassPrivate: return AtomicFor<SpvOp, spv::StorageClassFunction>(k);
    default: return nullptr;
  }
}

}  // namespace

OpHandler Load(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassStorageBuffer: return &LoadExplicit<spv::StorageClassStorageBuffer>;
    case spv::StorageClassUniform: return &LoadExplicit<spv::StorageClassUniform>;
    case spv::StorageClassPushConstant: return &LoadExplicit<spv::StorageClassPushConstant>;
    case spv::StorageClassPhysicalStorageBuffer: return &LoadExplicit<spv::StorageClassPhysicalStorageBuffer>;
    case spv::StorageClassWorkgroup: return &LoadShared;
    case spv::StorageClassFunction: case spv::StorageClassPrivate: case spv::StorageClassInput:
    case spv::StorageClassOutput: return &LoadPrivate;
    default: return nullptr;
  }
}

OpHandler Store(uint32_t storageClass) {
  switch (storageClass) {
    case spv::StorageClassStorageBuffer: return &StoreExplicit<spv::StorageClassStorageBuffer>;
    case spv::StorageClassUniform: return &StoreExplicit<spv::StorageClassUniform>;
    case spv::StorageClassPhysicalStorageBuffer: return &StoreExplicit<spv::StorageClassPhysicalStorageBuffer>;
    case spv::StorageClassWorkgroup: return &StoreShared;
    case spv::StorageClassFunction: case spv::StorageClassPrivate: case spv::StorageClassOutput:
      return &StorePrivate;
    default: return nullptr;
  }
}

// extra[aux] = term count, extra[aux + 1..2] = static offset (low, high), then per term: index slot, 1 when the
// index is 64-bit (else a signed 32-bit index), stride (low, high).
void AccessChain(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* x = s.exe->extra.data() + op.aux;
  const uint32_t terms = x[0];
  const uint64_t offset = Join(x[1], x[2]);
  const uint32_t* base = s.Slot(op.a);
  uint64_t p[kMaxSubgroupWidth];
  for (uint32_t l = 0; l < w; ++l) p[l] = Join(base[l], base[w + l]) + offset;
  // One pass per index over every lane: each a loop the compiler vectorises.
  for (uint32_t t = 0; t < terms; ++t) {
    const uint32_t* term = x + 3 + 4 * t;
    const uint32_t* index = s.Slot(term[0]);
    const uint64_t stride = Join(term[2], term[3]);
    if (term[1] != 0) {
      for (uint32_t l = 0; l < w; ++l) p[l] += Join(index[l], index[w + l]) * stride;
    } else if (stride <= UINT32_MAX) {
      // A signed 32-bit index times a 32-bit stride as one unsigned 32×32→64 multiply and a correction for
      // negative indices: a form SSE2 vectorises (it has no 64-bit multiply).
      const uint32_t narrow = static_cast<uint32_t>(stride);
      for (uint32_t l = 0; l < w; ++l) {
        const uint64_t product = uint64_t{index[l]} * narrow;
        const uint64_t negative = uint64_t{index[l] >> 31} * narrow;
        p[l] += product - (negative << 32);
      }
    } else {
      for (uint32_t l = 0; l < w; ++l)
        p[l] += static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(index[l]))) * stride;
    }
  }
  uint32_t* d = s.Slot(op.dst);
  if (s.full) {
    for (uint32_t l = 0; l < w; ++l) {
      d[l] = static_cast<uint32_t>(p[l]);
      d[w + l] = static_cast<uint32_t>(p[l] >> 32);
    }
    return;
  }
  for (uint32_t l = 0; l < w; ++l) {
    d[l] = Blend(s.laneMask[l], static_cast<uint32_t>(p[l]), d[l]);
    d[w + l] = Blend(s.laneMask[l], static_cast<uint32_t>(p[l] >> 32), d[w + l]);
  }
}

// The common access chain `global[i]`: a base pointer the same in every lane (a global variable), one signed
// 32-bit index, a stride below 2^32 (extra as for AccessChain). When no active lane's index is negative and the
// largest offset stays inside the base's low word, every lane's pointer is the base's high word and a 32-bit sum —
// one vectorised multiply-add. Otherwise the general form runs.
void AccessChainUniformBase(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* x = s.exe->extra.data() + op.aux;
  const uint32_t* base = s.Slot(op.a);
  const uint64_t start = Join(base[0], base[w]) + Join(x[1], x[2]);
  const uint32_t* index = s.Slot(x[3]);
  const uint32_t stride = x[5];
  uint32_t largest = 0;
  for (uint32_t l = 0; l < w; ++l) largest = std::max(largest, index[l] & s.laneMask[l]);
  const uint64_t low = static_cast<uint32_t>(start);
  if (largest > INT32_MAX || low + uint64_t{largest} * stride > UINT32_MAX) {
    AccessChain(op, s);
    return;
  }
  const uint32_t lo = static_cast<uint32_t>(start), hi = static_cast<uint32_t>(start >> 32);
  uint32_t* d = s.Slot(op.dst);
  if (s.full) {
    for (uint32_t l = 0; l < w; ++l) d[l] = lo + index[l] * stride;
    for (uint32_t l = 0; l < w; ++l) d[w + l] = hi;
    return;
  }
  for (uint32_t l = 0; l < w; ++l) d[l] = Blend(s.laneMask[l], lo + index[l] * stride, d[l]);
  for (uint32_t l = 0; l < w; ++l) d[w + l] = Blend(s.laneMask[l], hi, d[w + l]);
}

// OpArrayLength: (descriptor range - op.n) / op.aux, per lane's descriptor.
void ArrayLength(const Op& op, SubgroupState& s) {
  const uint32_t* p = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t slot = p[s.width + l] >> 8;
    uint64_t size = slot < s.dispatch->bufferCount ? s.dispatch->buffers[slot].size : 0;
    d[l] = size > op.n ? static_cast<uint32_t>((size - op.n) / op.aux) : 0;
  });
}

void PointerCompare(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t l = 0; l < w; ++l) {
    const uint32_t equal = (a[l] == b[l]) & (a[w + l] == b[w + l]);
    d[l] = Blend(s.laneMask[l], equal ^ op.aux, d[l]);
  }
}

void PointerDiff(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width;
  const uint32_t* a = s.Slot(op.a);
  const uint32_t* b = s.Slot(op.b);
  uint32_t* d = s.Slot(op.dst);
  for (uint32_t l = 0; l < w; ++l) {
    const int64_t distance = static_cast<int64_t>(Join(a[l], a[w + l]) - Join(b[l], b[w + l]));
    const uint64_t elements = static_cast<uint64_t>(distance / static_cast<int64_t>(op.n));
    d[l] = Blend(s.laneMask[l], static_cast<uint32_t>(elements), d[l]);
    if (op.aux == 2) d[w + l] = Blend(s.laneMask[l], static_cast<uint32_t>(elements >> 32), d[w + l]);
  }
}

OpHandler Atomic(uint32_t spvOp, uint32_t storageClass, Scalar k) {
  switch (spvOp) {
#define CT_CASE(Name) case spv::Name: return AtomicIn<spv::Name>(storageClass, k);
    CT_CASE(OpAtomicLoad) CT_CASE(OpAtomicStore) CT_CASE(OpAtomicExchange) CT_CASE(OpAtomicCompareExchange)
    CT_CASE(OpAtomicIIncrement) CT_CASE(OpAtomicIDecrement) CT_CASE(OpAtomicIAdd) CT_CASE(OpAtomicISub)
    CT_CASE(OpAtomicSMin) CT_CASE(OpAtomicUMin) CT_CASE(OpAtomicSMax) CT_CASE(OpAtomicUMax) CT_CASE(OpAtomicAnd)
    CT_CASE(OpAtomicOr) CT_CASE(OpAtomicXor) CT_CASE(OpAtomicFAddEXT) CT_CASE(OpAtomicFMinEXT)
    CT_CASE(OpAtomicFMaxEXT)
#undef CT_CASE
    default: return nullptr;
  }
}

void Barrier(const Op&, SubgroupState& s) { s.yielded = true; }

void Nothing(const Op&, SubgroupState&) {}

}  // namespace crashtest::execution::ops
