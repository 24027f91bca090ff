// Subgroup operations (OpGroupNonUniform*): the lanes of a subgroup are the lanes of the interpreter's arrays, so
// each operation reads across them directly. Only active lanes take part ("the set of invocations ... that are
// active"), and only active lanes receive a result. Reading from an inactive or nonexistent lane (a shuffle index
// out of range) is undefined in SPIR-V: the reading lane gets zero.
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "execution/ops/ops.h"

namespace crashtest::execution::ops {
namespace {

uint64_t BoolMask(const SubgroupState& s, uint32_t slot) {
  const uint32_t* v = s.Slot(slot);
  uint64_t m = 0;
  for (uint32_t l = 0; l < s.width; ++l) m |= uint64_t{v[l] != 0} << l;
  return m & s.active;
}

uint32_t FirstActive(const SubgroupState& s) { return static_cast<uint32_t>(std::countr_zero(s.active)); }

void Elect(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  const uint32_t first = FirstActive(s);
  ForEachLane(s.active, [&](uint32_t l) { d[l] = l == first ? 1 : 0; });
}

void AllAny(const Op& op, SubgroupState& s) {
  const uint64_t m = BoolMask(s, op.a);
  const uint32_t result = op.aux != 0 ? (m == s.active) : (m != 0);  // aux: All
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) { d[l] = result; });
}

void AllEqual(const Op& op, SubgroupState& s) {
  const uint32_t w = s.width, first = FirstActive(s);
  const uint32_t* v = s.Slot(op.a);
  bool equal = true;
  ForEachLane(s.active, [&](uint32_t l) {
    for (uint32_t k = 0; k < op.n; ++k)
      if (v[static_cast<size_t>(k) * w + l] != v[static_cast<size_t>(k) * w + first]) equal = false;
  });
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) { d[l] = equal ? 1 : 0; });
}

// dst[l] = value[source(l)] for op.n slots; an inactive or out-of-range source gives zero.
template <typename Source>
void Gather(const Op& op, SubgroupState& s, Source&& source) {
  const uint32_t w = s.width;
  const uint32_t* v = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  uint32_t from[kMaxSubgroupWidth];
  ForEachLane(s.active, [&](uint32_t l) { from[l] = source(l); });
  for (uint32_t k = 0; k < op.n; ++k) {
    const uint32_t* vk = v + static_cast<size_t>(k) * w;
    uint32_t* dk = d + static_cast<size_t>(k) * w;
    ForEachLane(s.active, [&](uint32_t l) {
      const uint32_t f = from[l];
      dk[l] = f < w && ((s.active >> f) & 1) ? vk[f] : 0;
    });
  }
}

void Broadcast(const Op& op, SubgroupState& s) {
  // The id is dynamically uniform: read it from the first active lane.
  const uint32_t id = s.Slot(op.b)[FirstActive(s)];
  Gather(op, s, [&](uint32_t) { return id; });
}
void BroadcastFirst(const Op& op, SubgroupState& s) {
  const uint32_t first = FirstActive(s);
  Gather(op, s, [&](uint32_t) { return first; });
}
void ShuffleLanes(const Op& op, SubgroupState& s) {
  const uint32_t* id = s.Slot(op.b);
  Gather(op, s, [&](uint32_t l) { return id[l]; });
}
void ShuffleXor(const Op& op, SubgroupState& s) {
  const uint32_t* mask = s.Slot(op.b);
  Gather(op, s, [&](uint32_t l) { return l ^ mask[l]; });
}
void ShuffleUp(const Op& op, SubgroupState& s) {
  const uint32_t* delta = s.Slot(op.b);
  Gather(op, s, [&](uint32_t l) { return delta[l] <= l ? l - delta[l] : UINT32_MAX; });
}
void ShuffleDown(const Op& op, SubgroupState& s) {
  const uint32_t* delta = s.Slot(op.b);
  Gather(op, s, [&](uint32_t l) { return l + delta[l] >= l ? l + delta[l] : UINT32_MAX; });
}
void QuadBroadcast(const Op& op, SubgroupState& s) {
  const uint32_t index = s.Slot(op.b)[FirstActive(s)] & 3;
  Gather(op, s, [&](uint32_t l) { return (l & ~3u) | index; });
}
void QuadSwap(const Op& op, SubgroupState& s) {
  const uint32_t direction = s.Slot(op.b)[FirstActive(s)];
  const uint32_t flip = direction == 0 ? 1 : direction == 1 ? 2 : 3;  // horizontal, vertical, diagonal
  Gather(op, s, [&](uint32_t l) { return l ^ flip; });
}

void Ballot(const Op& op, SubgroupState& s) {
  const uint64_t m = BoolMask(s, op.a);
  uint32_t* d = s.Slot(op.dst);
  const uint32_t w = s.width;
  ForEachLane(s.active, [&](uint32_t l) {
    d[l] = static_cast<uint32_t>(m);
    d[w + l] = static_cast<uint32_t>(m >> 32);
    d[2 * w + l] = 0;
    d[3 * w + l] = 0;
  });
}

uint64_t BallotOf(const SubgroupState& s, uint32_t slot, uint32_t lane) {
  const uint32_t* v = s.Slot(slot);
  uint64_t m = Join(v[lane], v[s.width + lane]);
  return s.width == 64 ? m : m & ((uint64_t{1} << s.width) - 1);
}

void InverseBallot(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) { d[l] = (BallotOf(s, op.a, l) >> l) & 1; });
}
void BallotBitExtract(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  const uint32_t* index = s.Slot(op.b);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint32_t i = index[l];
    d[l] = i < 64 ? static_cast<uint32_t>((BallotOf(s, op.a, l) >> i) & 1) : 0;
  });
}
void BallotBitCount(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint64_t m = BallotOf(s, op.a, l);
    const uint64_t below = (uint64_t{1} << l) - 1;
    uint64_t counted = m;
    if (op.aux == spv::GroupOperationInclusiveScan) counted = m & (below | (uint64_t{1} << l));
    if (op.aux == spv::GroupOperationExclusiveScan) counted = m & below;
    d[l] = static_cast<uint32_t>(std::popcount(counted));
  });
}
void BallotFind(const Op& op, SubgroupState& s) {
  uint32_t* d = s.Slot(op.dst);
  ForEachLane(s.active, [&](uint32_t l) {
    const uint64_t m = BallotOf(s, op.a, l);
    if (m == 0) d[l] = UINT32_MAX;  // undefined for an empty ballot
    else d[l] = op.aux != 0 ? 63 - static_cast<uint32_t>(std::countl_zero(m)) : static_cast<uint32_t>(std::countr_zero(m));
  });
}

// Arithmetic over the active lanes: reduce, inclusive or exclusive scan, or clustered reduce (clusters of op.c).
struct AddOp {
  template <typename T> static T Identity() { return T(0); }
  template <typename T> static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
    else return a + b;
  }
};
struct MulOp {
  template <typename T> static T Identity() { return T(1); }
  template <typename T> static T Apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::conditional_t<sizeof(T) < 8, uint32_t, uint64_t>;
      return static_cast<T>(static_cast<U>(static_cast<std::make_unsigned_t<T>>(a)) * static_cast<U>(static_cast<std::make_unsigned_t<T>>(b)));
    } else {
      return a * b;
    }
  }
};
struct MinOp {
  template <typename T> static T Identity() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <typename T> static T Apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return std::fmin(a, b);
    else return std::min(a, b);
  }
};
struct MaxOp {
  template <typename T> static T Identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <typename T> static T Apply(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return std::fmax(a, b);
    else return std::max(a, b);
  }
};
struct AndOp {
  template <typename T> static T Identity() { return static_cast<T>(~T(0)); }
  template <typename T> static T Apply(T a, T b) { return static_cast<T>(a & b); }
};
struct OrOp {
  template <typename T> static T Identity() { return T(0); }
  template <typename T> static T Apply(T a, T b) { return static_cast<T>(a | b); }
};
struct XorOp {
  template <typename T> static T Identity() { return T(0); }
  template <typename T> static T Apply(T a, T b) { return static_cast<T>(a ^ b); }
};

template <Scalar K, typename F>
void Arithmetic(const Op& op, SubgroupState& s) {
  using T = std::conditional_t<K == Scalar::Bool, uint32_t, typename Lane<K>::T>;
  const uint32_t w = s.width;
  const uint32_t* v = s.Slot(op.a);
  uint32_t* d = s.Slot(op.dst);
  const uint32_t cluster = op.aux == spv::GroupOperationClusteredReduce ? std::max(1u, op.c) : w;
  for (uint32_t c = 0; c < op.n; ++c) {
    for (uint32_t start = 0; start < w; start += cluster) {
      const uint64_t clusterLanes = (cluster >= 64 ? ~uint64_t{0} : ((uint64_t{1} << cluster) - 1) << start) & s.active;
      T total = F::template Identity<T>();
      if (op.aux == spv::GroupOperationReduce || op.aux == spv::GroupOperationClusteredReduce) {
        ForEachLane(clusterLanes, [&](uint32_t l) {
          if constexpr (K == Scalar::Bool) total = F::template Apply<T>(total, v[c * w + l] != 0 ? 1u : 0u);
          else total = F::template Apply<T>(total, Get<K>(v, w, c, l));
        });
        ForEachLane(clusterLanes, [&](uint32_t l) {
          if constexpr (K == Scalar::Bool) d[c * w + l] = total & 1;
          else Put<K, true>(d, w, c, l, total, ~0u);
        });
      } else {
        const bool inclusive = op.aux == spv::GroupOperationInclusiveScan;
        ForEachLane(clusterLanes, [&](uint32_t l) {
          T value;
          if constexpr (K == Scalar::Bool) value = v[c * w + l] != 0 ? 1u : 0u;
          else value = Get<K>(v, w, c, l);
          const T before = total;
          total = F::template Apply<T>(total, value);
          const T out = inclusive ? total : before;
          if constexpr (K == Scalar::Bool) d[c * w + l] = out & 1;
          else Put<K, true>(d, w, c, l, out, ~0u);
        });
      }
    }
  }
}

template <typename F>
OpHandler ArithmeticFor(Scalar k) {
  switch (k) {
    case Scalar::U8: return &Arithmetic<Scalar::U8, F>;
    case Scalar::S8: return &Arithmetic<Scalar::S8, F>;
    case Scalar::U16: return &Arithmetic<Scalar::U16, F>;
    case Scalar::S16: return &Arithmetic<Scalar::S16, F>;
    case Scalar::U32: return &Arithmetic<Scalar::U32, F>;
    case Scalar::S32: return &Arithmetic<Scalar::S32, F>;
    case Scalar::U64: return &Arithmetic<Scalar::U64, F>;
    case Scalar::S64: return &Arithmetic<Scalar::S64, F>;
    case Scalar::Bool: return &Arithmetic<Scalar::Bool, F>;
    default: break;
  }
  if constexpr (std::is_same_v<F, AddOp> || std::is_same_v<F, MulOp> || std::is_same_v<F, MinOp> ||
                std::is_same_v<F, MaxOp>) {
    switch (k) {
      case Scalar::F16: return &Arithmetic<Scalar::F16, F>;
      case Scalar::F32: return &Arithmetic<Scalar::F32, F>;
      case Scalar::F64: return &Arithmetic<Scalar::F64, F>;
      default: break;
    }
  }
  return nullptr;
}

}  // namespace

OpHandler Subgroup(uint32_t spvOp, uint32_t groupOperation, Scalar k) {
  (void)groupOperation;
  switch (static_cast<spv::Op>(spvOp)) {
    case spv::OpGroupNonUniformElect: return &Elect;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny: return &AllAny;
    case spv::OpGroupNonUniformAllEqual: return &AllEqual;
    case spv::OpGroupNonUniformBroadcast: return &Broadcast;
    case spv::OpGroupNonUniformBroadcastFirst: return &BroadcastFirst;
    case spv::OpGroupNonUniformBallot: return &Ballot;
    case spv::OpGroupNonUniformInverseBallot: return &InverseBallot;
    case spv::OpGroupNonUniformBallotBitExtract: return &BallotBitExtract;
    case spv::OpGroupNonUniformBallotBitCount: return &BallotBitCount;
    case spv::OpGroupNonUniformBallotFindLSB: case spv::OpGroupNonUniformBallotFindMSB: return &BallotFind;
    case spv::OpGroupNonUniformShuffle: return &ShuffleLanes;
    case spv::OpGroupNonUniformShuffleXor: return &ShuffleXor;
    case spv::OpGroupNonUniformShuffleUp: return &ShuffleUp;
    case spv::OpGroupNonUniformShuffleDown: return &ShuffleDown;
    case spv::OpGroupNonUniformQuadBroadcast: return &QuadBroadcast;
    case spv::OpGroupNonUniformQuadSwap: return &QuadSwap;
    case spv::OpGroupNonUniformIAdd: case spv::OpGroupNonUniformFAdd: return ArithmeticFor<AddOp>(k);
    case spv::OpGroupNonUniformIMul: case spv::OpGroupNonUniformFMul: return ArithmeticFor<MulOp>(k);
    case spv::OpGroupNonUniformSMin: return ArithmeticFor<MinOp>(ToSigned(k));
    case spv::OpGroupNonUniformUMin: return ArithmeticFor<MinOp>(ToUnsigned(k));
    case spv::OpGroupNonUniformFMin: return ArithmeticFor<MinOp>(k);
    case spv::OpGroupNonUniformSMax: return ArithmeticFor<MaxOp>(ToSigned(k));
    case spv::OpGroupNonUniformUMax: return ArithmeticFor<MaxOp>(ToUnsigned(k));
    case spv::OpGroupNonUniformFMax: return ArithmeticFor<MaxOp>(k);
    case spv::OpGroupNonUniformBitwiseAnd: return ArithmeticFor<AndOp>(ToUnsigned(k));
    case spv::OpGroupNonUniformBitwiseOr: return ArithmeticFor<OrOp>(ToUnsigned(k));
    case spv::OpGroupNonUniformBitwiseXor: return ArithmeticFor<XorOp>(ToUnsigned(k));
    case spv::OpGroupNonUniformLogicalAnd: return ArithmeticFor<AndOp>(Scalar::Bool);
    case spv::OpGroupNonUniformLogicalOr: return ArithmeticFor<OrOp>(Scalar::Bool);
    case spv::OpGroupNonUniformLogicalXor: return ArithmeticFor<XorOp>(Scalar::Bool);
    default: return nullptr;
  }
}

}  // namespace crashtest::execution::ops
