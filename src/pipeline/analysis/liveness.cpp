#include "pipeline/analysis/liveness.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

namespace crashtest::analysis {

using ir::kNone;

uint32_t RegisterComponents(const ir::Module& module, ir::TypeId typeId) {
  if (typeId == kNone) return 0;
  const ir::Type& type = module.types[typeId];
  switch (type.kind) {
    case ir::TypeKind::Bool: return 1;
    case ir::TypeKind::Int: case ir::TypeKind::Float: return type.width > 32 ? type.width / 32 : 1;
    case ir::TypeKind::Vector: case ir::TypeKind::Matrix: case ir::TypeKind::Array:
      return type.count * RegisterComponents(module, type.element);
    case ir::TypeKind::Struct: {
      uint32_t sum = 0;
      for (ir::TypeId member : type.members) sum += RegisterComponents(module, member);
      return sum;
    }
    case ir::TypeKind::Pointer:
      switch (type.storageClass) {
        case spv::StorageClassPhysicalStorageBuffer: return 2;
        case spv::StorageClassFunction: case spv::StorageClassPrivate: return 0;
        default: return 1;
      }
    default: return 0;
  }
}

namespace {

// A dense bit set over values.
class ValueSet {
 public:
  explicit ValueSet(size_t size = 0) : bits_((size + 63) / 64, 0) {}
  bool Test(ir::ValueId v) const { return (bits_[v >> 6] >> (v & 63)) & 1; }
  void Set(ir::ValueId v) { bits_[v >> 6] |= uint64_t{1} << (v & 63); }
  void Reset(ir::ValueId v) { bits_[v >> 6] &= ~(uint64_t{1} << (v & 63)); }
  void Clear() { std::fill(bits_.begin(), bits_.end(), 0); }
  // this |= other & ~mask; returns whether this changed.
  bool UnionWithout(const ValueSet& other, const ValueSet* mask) {
    bool changed = false;
    for (size_t i = 0; i < bits_.size(); ++i) {
      uint64_t add = other.bits_[i] & (mask != nullptr ? ~mask->bits_[i] : ~uint64_t{0});
      uint64_t merged = bits_[i] | add;
      changed |= merged != bits_[i];
      bits_[i] = merged;
    }
    return changed;
  }
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    for (size_t i = 0; i < bits_.size(); ++i)
      for (uint64_t word = bits_[i]; word != 0; word &= word - 1)
        visit(static_cast<ir::ValueId>(i * 64 + static_cast<size_t>(__builtin_ctzll(word))));
  }

 private:
  std::vector<uint64_t> bits_;
};

}  // namespace

template <typename Use>
void Liveness::ForEachUse(const ir::Module& module, const ir::Instruction& inst, Use&& use) const {
  auto operands = module.Operands(inst);
  for (uint32_t k = 0; k < inst.valueCount; ++k) {
    ir::ValueId v = operands[k];
    if (module.values[v].kind != ir::ValueKind::Instruction) continue;
    use(v);
    if (!alsoUses_.empty() && alsoUses_[v] != kNone) use(alsoUses_[v]);
  }
}

Liveness Liveness::Build(const ir::Module& module, std::span<const ir::ValueId> alsoUses) {
  const auto& blocks = module.function.blocks;
  size_t valueCount = module.values.size();
  size_t n = blocks.size();
  auto tracked = [&](ir::ValueId v) { return module.values[v].kind == ir::ValueKind::Instruction; };
  auto also = [&](ir::ValueId v) { return alsoUses.empty() ? kNone : alsoUses[v]; };

  // Per block: upward-exposed uses (not counting phi operands), definitions, phi results, and the phi operands
  // each predecessor must keep alive to its end.
  std::vector<ValueSet> uses(n, ValueSet(valueCount)), defs(n, ValueSet(valueCount)),
      phiDefs(n, ValueSet(valueCount)), phiUses(n, ValueSet(valueCount));
  for (ir::BlockId b = 0; b < n; ++b) {
    for (const ir::Instruction& inst : blocks[b].instructions) {
      auto operands = module.Operands(inst);
      if (inst.op == spv::OpPhi) {
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          if (!tracked(operands[k])) continue;
          phiUses[operands[inst.valueCount + k]].Set(operands[k]);
          if (also(operands[k]) != kNone) phiUses[operands[inst.valueCount + k]].Set(also(operands[k]));
        }
        phiDefs[b].Set(inst.result);
        defs[b].Set(inst.result);
        continue;
      }
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        if (!tracked(operands[k])) continue;
        if (!defs[b].Test(operands[k])) uses[b].Set(operands[k]);
        if (ir::ValueId h = also(operands[k]); h != kNone && !defs[b].Test(h)) uses[b].Set(h);
      }
      if (inst.result != kNone) defs[b].Set(inst.result);
    }
  }

  // liveIn(B) = uses(B) | phiDefs(B) | (liveOut(B) - defs(B)); liveOut(B) = phiUses(B) | U (liveIn(S) - phiDefs(S)).
  std::vector<ValueSet> liveIn(n, ValueSet(valueCount)), liveOut(n, ValueSet(valueCount));
  for (ir::BlockId b = 0; b < n; ++b) {
    liveIn[b].UnionWithout(uses[b], nullptr);
    liveIn[b].UnionWithout(phiDefs[b], nullptr);
    liveOut[b].UnionWithout(phiUses[b], nullptr);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      ir::BlockId b = static_cast<ir::BlockId>(i);
      for (ir::BlockId s : blocks[b].successors) changed |= liveOut[b].UnionWithout(liveIn[s], &phiDefs[s]);
      changed |= liveIn[b].UnionWithout(liveOut[b], &defs[b]);
    }
  }

  Liveness result;
  result.alsoUses_.assign(alsoUses.begin(), alsoUses.end());
  std::vector<uint32_t> components(valueCount, 0);
  for (ir::ValueId v = 0; v < valueCount; ++v)
    if (tracked(v)) components[v] = RegisterComponents(module, module.values[v].type);
  result.liveIn_.resize(n);
  result.liveOut_.resize(n);
  for (ir::BlockId b = 0; b < n; ++b) {
    liveIn[b].ForEach([&](ir::ValueId v) { result.liveIn_[b].push_back(v); });
    liveOut[b].ForEach([&](ir::ValueId v) { result.liveOut_[b].push_back(v); });
  }
  result.ComputePressure(module, components);
  return result;
}

Liveness Liveness::WithComponents(const ir::Module& module, std::span<const uint32_t> components) const {
  Liveness result;
  result.liveIn_ = liveIn_;
  result.liveOut_ = liveOut_;
  result.alsoUses_ = alsoUses_;
  result.ComputePressure(module, components);
  return result;
}

template <typename Record, typename RecordLiveIn>
uint32_t Liveness::WalkPressure(const ir::Module& module, std::span<const uint32_t> components, Record&& record,
                                RecordLiveIn&& recordLiveIn) const {
  const auto& blocks = module.function.blocks;
  uint32_t peak = 0;
  ValueSet live(module.values.size());
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    uint32_t sum = 0;
    for (ir::ValueId v : liveOut_[b]) {
      live.Set(v);
      sum += components[v];
    }
    const auto& instructions = blocks[b].instructions;
    uint32_t liveInSum = 0;
    for (ir::ValueId v : liveIn_[b]) liveInSum += components[v];
    recordLiveIn(b, liveInSum);
    peak = std::max(peak, liveInSum);
    for (size_t i = instructions.size(); i-- > 0;) {
      const ir::Instruction& inst = instructions[i];
      if (inst.op == spv::OpPhi) {
        record(b, static_cast<uint32_t>(i), liveInSum);
        continue;
      }
      uint32_t pressure = sum + (inst.result != kNone && !live.Test(inst.result) ? components[inst.result] : 0);
      record(b, static_cast<uint32_t>(i), pressure);
      peak = std::max(peak, pressure);
      if (inst.result != kNone && live.Test(inst.result)) {
        live.Reset(inst.result);
        sum -= components[inst.result];
      }
      ForEachUse(module, inst, [&](ir::ValueId v) {
        if (!live.Test(v)) {
          live.Set(v);
          sum += components[v];
        }
      });
    }
    live.Clear();
  }
  return peak;
}

void Liveness::ComputePressure(const ir::Module& module, std::span<const uint32_t> components) {
  const auto& blocks = module.function.blocks;
  const size_t n = blocks.size();
  blockStart_.assign(n + 1, 0);
  liveInComponents_.assign(n, 0);
  for (ir::BlockId b = 0; b < n; ++b)
    blockStart_[b + 1] = blockStart_[b] + static_cast<uint32_t>(blocks[b].instructions.size());
  pressure_.assign(blockStart_[n], 0);
  maxLive_ = WalkPressure(
      module, components,
      [&](ir::BlockId b, uint32_t i, uint32_t pressure) { pressure_[blockStart_[b] + i] = pressure; },
      [&](ir::BlockId b, uint32_t sum) { liveInComponents_[b] = sum; });
}

uint32_t Liveness::MaxLiveComponentsWith(const ir::Module& module, std::span<const uint32_t> components) const {
  return WalkPressure(module, components, [](ir::BlockId, uint32_t, uint32_t) {}, [](ir::BlockId, uint32_t) {});
}

Liveness::TwoPeaks Liveness::MaxLiveComponentsWith(const ir::Module& module, std::span<const uint32_t> first,
                                                   std::span<const uint32_t> second,
                                                   const Temporaries& firstTemporaries) const {
  // WalkPressure's walk with two sums: the same live set, each value weighted once per file.
  const auto& blocks = module.function.blocks;
  const Temporaries& t = firstTemporaries;
  TwoPeaks peak;
  ValueSet live(module.values.size());
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    uint32_t sum1 = 0, sum2 = 0;
    for (ir::ValueId v : liveOut_[b]) {
      live.Set(v);
      sum1 += first[v];
      sum2 += second[v];
    }
    // Temporaries live through the block, and from its start up to an instruction (set when the walk passes it).
    uint32_t extra = t.throughBlock.empty() ? 0 : t.throughBlock[b];
    if (!t.atBlockEnd.empty()) peak.first = std::max(peak.first, sum1 + t.atBlockEnd[b]);
    uint32_t in1 = 0, in2 = 0;
    for (ir::ValueId v : liveIn_[b]) {
      in1 += first[v];
      in2 += second[v];
    }
    peak.second = std::max(peak.second, in2);
    const auto& instructions = blocks[b].instructions;
    for (size_t i = instructions.size(); i-- > 0;) {
      const ir::Instruction& inst = instructions[i];
      if (inst.op == spv::OpPhi) continue;  // recorded as the live-in sum, already in the peaks
      const bool defined = inst.result != kNone && live.Test(inst.result);
      if (inst.result != kNone && !defined) {
        peak.first = std::max(peak.first, sum1 + first[inst.result] + extra);
        peak.second = std::max(peak.second, sum2 + second[inst.result]);
      } else {
        peak.first = std::max(peak.first, sum1 + extra);
        peak.second = std::max(peak.second, sum2);
      }
      if (defined) {
        live.Reset(inst.result);
        sum1 -= first[inst.result];
        sum2 -= second[inst.result];
      }
      ForEachUse(module, inst, [&](ir::ValueId v) {
        if (!live.Test(v)) {
          live.Set(v);
          sum1 += first[v];
          sum2 += second[v];
        }
      });
      // The expansion's temporaries are live with its operands, before the result is written.
      if (inst.result != kNone) {
        // One register set serves every expansion that is live at once (ACO's reduction temporaries are shared).
        if (!t.atDefinition.empty())
          peak.first = std::max(peak.first, sum1 + std::max(extra, t.atDefinition[inst.result]));
        if (!t.beforeDefinition.empty()) extra = std::max(extra, t.beforeDefinition[inst.result]);
      }
    }
    peak.first = std::max(peak.first, in1 + extra);
    live.Clear();
  }
  return peak;
}

}  // namespace crashtest::analysis
