#include "statistics/spilling.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "statistics/loop_weights.h"

namespace crashtest::statistics {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

class SpillSimulator {
 public:
  SpillSimulator(const ir::Module& module, const analysis::Liveness& liveness, const analysis::LoopInfo& loops,
                 const std::vector<uint64_t>& weights, uint32_t budget, std::span<const uint32_t> components)
      : module_(module), liveness_(liveness), loops_(loops), weights_(weights), budget_(budget),
        blocks_(module.function.blocks), fileComponents_(components) {}

  SpillResult Run() {
    Prepare();
    ComputeNextUses();
    entry_.resize(blocks_.size());
    exit_.resize(blocks_.size());
    for (ir::BlockId b = 0; b < blocks_.size(); ++b) AllocateBlock(b);
    CoupleEdges();
    return std::move(result_);
  }

 private:
  bool Tracked(ir::ValueId v) const { return module_.values[v].kind == ir::ValueKind::Instruction; }
  // Values that occupy registers (pointers to variables, images and samplers do not).
  bool InRegisters(ir::ValueId v) const { return components_[v] != 0; }

  void Prepare() {
    components_.assign(module_.values.size(), 0);
    for (ir::ValueId v = 0; v < module_.values.size(); ++v)
      if (Tracked(v))
        components_[v] = fileComponents_.empty() ? analysis::RegisterComponents(module_, module_.values[v].type)
                                                 : fileComponents_[v];
    uses_.resize(blocks_.size());
    phiOperands_.resize(blocks_.size());
    for (ir::BlockId b = 0; b < blocks_.size(); ++b) {
      const auto& instructions = blocks_[b].instructions;
      for (uint32_t i = 0; i < instructions.size(); ++i) {
        const ir::Instruction& inst = instructions[i];
        auto operands = module_.Operands(inst);
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          if (!Tracked(operands[k])) continue;
          if (inst.op == spv::OpPhi) {
            // A phi operand is used at the end of its predecessor.
            phiOperands_[b].push_back({operands[inst.valueCount + k], operands[k], inst.result});
          } else {
            auto& list = uses_[b][operands[k]];
            if (list.empty() || list.back() != i) list.push_back(i);
          }
        }
      }
    }
  }

  // Distances (in instructions) from each block's start and end to the next use of each live value, with
  // kLoopExitDistance added per loop-leaving edge; a fixpoint over the CFG because loops feed back.
  void ComputeNextUses() {
    const size_t n = blocks_.size();
    nextIn_.assign(n, {});
    nextOut_.assign(n, {});
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = n; i-- > 0;) {
        auto b = static_cast<ir::BlockId>(i);
        for (ir::ValueId v : liveness_.LiveOut(b)) {
          uint64_t best = kNever;
          for (ir::BlockId s : blocks_[b].successors) {
            uint64_t d = kNever;
            if (IsPhiOperandFrom(s, b, v)) d = 0;
            else if (auto it = nextIn_[s].find(v); it != nextIn_[s].end()) d = it->second;
            if (d == kNever) continue;
            if (LeavesLoop(loops_, b, s)) d += kLoopExitDistance;
            best = std::min(best, d);
          }
          changed |= Lower(nextOut_[b], v, best);
        }
        for (ir::ValueId v : liveness_.LiveIn(b)) {
          if (IsDefinedIn(v, b)) continue;  // a phi of this block
          changed |= Lower(nextIn_[b], v, NextUse(b, v, 0));
        }
      }
    }
  }

  static bool Lower(std::unordered_map<ir::ValueId, uint64_t>& map, ir::ValueId v, uint64_t d) {
    auto [it, inserted] = map.try_emplace(v, d);
    if (inserted) return d != kNever;
    if (d < it->second) {
      it->second = d;
      return true;
    }
    return false;
  }

  bool IsPhiOperandFrom(ir::BlockId successor, ir::BlockId predecessor, ir::ValueId v) const {
    for (const PhiOperand& p : phiOperands_[successor])
      if (p.predecessor == predecessor && p.value == v) return true;
    return false;
  }

  bool IsDefinedIn(ir::ValueId v, ir::BlockId b) const { return module_.values[v].owner == b; }

  // Distance from instruction `index` of block `b` to the next use of `v` at or after it; kNever when dead.
  uint64_t NextUse(ir::BlockId b, ir::ValueId v, uint32_t index) const {
    if (auto it = uses_[b].find(v); it != uses_[b].end()) {
      auto use = std::lower_bound(it->second.begin(), it->second.end(), index);
      if (use != it->second.end()) return *use - index;
    }
    auto out = nextOut_[b].find(v);
    if (out == nextOut_[b].end() || out->second == kNever) return kNever;
    return blocks_[b].instructions.size() - index + out->second;
  }

  void MarkSpilled(ir::ValueId v) {
    if (!spilled_.insert(v).second) return;
    ir::BlockId block = module_.values[v].owner;
    ++result_.spills;
    result_.spilledComponents += components_[v];
    result_.weightedSpills = SaturatingAdd(result_.weightedSpills, weights_[block]);
    if (loops_.LoopOf(block) != ir::kNone) ++result_.spillsInLoops;
    result_.events.push_back({SpillEvent::Kind::Spill, v, block, module_.values[v].index});
  }

  void CountFill(SpillEvent event, uint64_t weight, bool inLoop) {
    MarkSpilled(event.value);  // a value is reloaded only after it was stored
    ++result_.fills;
    result_.weightedFills = SaturatingAdd(result_.weightedFills, weight);
    if (inLoop) ++result_.fillsInLoops;
    result_.events.push_back(event);
  }

  bool Resident(ir::ValueId v) const { return std::find(w_.begin(), w_.end(), v) != w_.end(); }

  void Add(ir::ValueId v) {
    w_.push_back(v);
    occupied_ += components_[v];
  }

  void Remove(size_t position) {
    occupied_ -= components_[w_[position]];
    w_.erase(w_.begin() + static_cast<std::ptrdiff_t>(position));
  }

  // Evicts the resident value used furthest in the future (never one of `protect`) until `need` more
  // components fit. An instruction whose own operands exceed the budget simply overflows.
  void MakeRoom(ir::BlockId b, uint32_t index, uint32_t need, const std::vector<ir::ValueId>& protect) {
    while (occupied_ + need > budget_) {
      size_t victim = w_.size();
      uint64_t furthest = 0;
      for (size_t k = 0; k < w_.size(); ++k) {
        if (std::find(protect.begin(), protect.end(), w_[k]) != protect.end()) continue;
        uint64_t d = NextUse(b, w_[k], index);
        if (victim == w_.size() || d > furthest || (d == furthest && w_[k] < w_[victim])) {
          victim = k;
          furthest = d;
        }
      }
      if (victim == w_.size()) return;
      if (furthest != kNever) MarkSpilled(w_[victim]);
      Remove(victim);
    }
  }

  void DropDead(ir::BlockId b, uint32_t index) {
    for (size_t k = w_.size(); k-- > 0;)
      if (NextUse(b, w_[k], index) == kNever) Remove(k);
  }

  bool IsLoopHeader(ir::BlockId b) const {
    uint32_t loop = loops_.LoopOf(b);
    return loop != ir::kNone && loops_.loops()[loop].header == b;
  }

  // Outside loop headers every predecessor has been allocated (blocks go in dominance order): a value that is in
  // no predecessor's registers stays in scratch until its use instead of being reloaded on the edge, and values
  // that all predecessors hold come first (Braun and Hack's entry rule for ordinary blocks).
  void PreferPredecessorRegisters(ir::BlockId b, std::vector<std::pair<uint64_t, ir::ValueId>>& candidates) const {
    const auto& preds = blocks_[b].predecessors;
    if (preds.empty()) return;
    auto heldBy = [&](ir::ValueId v) {
      uint32_t count = 0;
      for (ir::BlockId p : preds)
        if (std::find(exit_[p].begin(), exit_[p].end(), v) != exit_[p].end()) ++count;
      return count;
    };
    std::vector<std::pair<uint64_t, ir::ValueId>> all, some;
    for (auto candidate : candidates) {
      ir::ValueId v = candidate.second;
      uint32_t held = IsDefinedIn(v, b) ? static_cast<uint32_t>(preds.size()) : heldBy(v);  // phis: see CoupleEdges
      if (held == preds.size()) all.push_back(candidate);
      else if (held != 0) some.push_back(candidate);
    }
    candidates = std::move(all);
    candidates.insert(candidates.end(), some.begin(), some.end());
  }

  // Registers the values live through (and unused in) the loop headed by `b` may keep; the budget when `b` is
  // not a loop header.
  uint32_t LiveThroughLimit(ir::BlockId b, const std::vector<std::pair<uint64_t, ir::ValueId>>& candidates) const {
    if (!IsLoopHeader(b)) return budget_;
    uint32_t loop = loops_.LoopOf(b);
    uint32_t through = 0;
    for (auto [distance, v] : candidates)
      if (distance >= kLoopExitDistance) through += components_[v];
    uint32_t loopPeak = 0;
    for (ir::BlockId block : loops_.loops()[loop].blocks) {
      loopPeak = std::max(loopPeak, liveness_.LiveInComponents(block));
      for (uint32_t i = 0; i < blocks_[block].instructions.size(); ++i)
        loopPeak = std::max(loopPeak, liveness_.LiveComponentsAt(block, i));
    }
    uint32_t loopOwn = loopPeak > through ? loopPeak - through : 0;
    return loopOwn >= budget_ ? 0 : budget_ - loopOwn;
  }

  void AllocateBlock(ir::BlockId b) {
    // Registers at entry: the live-in values (phi results included) with the nearest next uses.
    std::vector<std::pair<uint64_t, ir::ValueId>> candidates;
    for (ir::ValueId v : liveness_.LiveIn(b))
      if (InRegisters(v)) candidates.push_back({NextUse(b, v, 0), v});
    std::sort(candidates.begin(), candidates.end());
    if (!IsLoopHeader(b)) PreferPredecessorRegisters(b, candidates);
    w_.clear();
    occupied_ = 0;
    // At a loop header, values that only cross the loop may keep registers only as far as the loop's own values
    // leave them free everywhere in the loop; otherwise they would be evicted inside it and reloaded on every
    // back edge. The rest are spilled before the loop (Braun and Hack's loop-header rule).
    const uint32_t throughLimit = LiveThroughLimit(b, candidates);
    uint32_t throughOccupied = 0;
    for (auto [distance, v] : candidates) {
      bool through = distance >= kLoopExitDistance;
      if (occupied_ + components_[v] <= budget_ && (!through || throughOccupied + components_[v] <= throughLimit)) {
        Add(v);
        if (through) throughOccupied += components_[v];
      } else {
        MarkSpilled(v);  // lives in scratch on entry: stored once, after its definition
      }
    }
    entry_[b] = w_;
    const auto& instructions = blocks_[b].instructions;
    std::vector<ir::ValueId> operandsUsed;
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      const ir::Instruction& inst = instructions[i];
      if (inst.op == spv::OpPhi) continue;
      operandsUsed.clear();
      auto operands = module_.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        ir::ValueId v = operands[k];
        if (Tracked(v) && InRegisters(v) &&
            std::find(operandsUsed.begin(), operandsUsed.end(), v) == operandsUsed.end())
          operandsUsed.push_back(v);
      }
      for (ir::ValueId u : operandsUsed) {
        if (Resident(u)) continue;
        MakeRoom(b, i, components_[u], operandsUsed);
        CountFill({SpillEvent::Kind::Fill, u, b, i}, weights_[b], loops_.LoopOf(b) != ir::kNone);
        Add(u);
      }
      // Operands whose last use this is free their registers for the result, as the liveness counts it.
      DropDead(b, i + 1);
      if (inst.result != ir::kNone && components_[inst.result] != 0) {
        MakeRoom(b, i + 1, components_[inst.result], {});
        Add(inst.result);
        DropDead(b, i + 1);
      }
    }
    exit_[b] = w_;
  }

  // Values a successor expects in registers but a predecessor ends with in scratch are reloaded on that edge.
  void CoupleEdges() {
    for (ir::BlockId s = 0; s < blocks_.size(); ++s) {
      for (ir::BlockId p : blocks_[s].predecessors) {
        const auto& exitSet = exit_[p];
        auto inExit = [&](ir::ValueId v) { return std::find(exitSet.begin(), exitSet.end(), v) != exitSet.end(); };
        for (ir::ValueId v : entry_[s]) {
          ir::ValueId needed = v;
          if (IsDefinedIn(v, s)) {  // a phi: its operand from p must be in a register at p's end
            needed = ir::kNone;
            for (const PhiOperand& op : phiOperands_[s])
              if (op.phi == v && op.predecessor == p) needed = op.value;
            if (needed == ir::kNone) continue;  // a constant or undef operand
          }
          if (InRegisters(needed) && !inExit(needed)) {
            // The edge runs as often as the rarer of its ends; it is inside a loop when the successor's loop
            // holds the predecessor too (loop entry and exit edges run once per loop, not per iteration).
            uint32_t loop = loops_.LoopOf(s);
            CountFill({SpillEvent::Kind::EdgeFill, needed, p, s}, std::min(weights_[p], weights_[s]),
                      loop != ir::kNone && InLoop(loops_, loop, p));
          }
        }
      }
    }
  }

  struct PhiOperand {
    ir::BlockId predecessor;
    ir::ValueId value;
    ir::ValueId phi;
  };

  const ir::Module& module_;
  const analysis::Liveness& liveness_;
  const analysis::LoopInfo& loops_;
  const std::vector<uint64_t>& weights_;
  const uint32_t budget_;
  const std::vector<ir::Block>& blocks_;

  std::vector<uint32_t> components_;
  std::vector<std::unordered_map<ir::ValueId, std::vector<uint32_t>>> uses_;  // non-phi use positions per block
  std::vector<std::vector<PhiOperand>> phiOperands_;                          // per successor block
  std::vector<std::unordered_map<ir::ValueId, uint64_t>> nextIn_, nextOut_;
  std::vector<std::vector<ir::ValueId>> entry_, exit_;  // resident values at block entry and exit
  std::vector<ir::ValueId> w_;                          // resident values now
  uint32_t occupied_ = 0;
  std::unordered_set<ir::ValueId> spilled_;
  SpillResult result_;
  std::span<const uint32_t> fileComponents_;  // empty: every value in this file, RegisterComponents each
};

}  // namespace

SpillResult SimulateSpilling(const ir::Module& module, const analysis::Liveness& liveness,
                             const analysis::LoopInfo& loops, const std::vector<uint64_t>& weights,
                             uint32_t budget, std::span<const uint32_t> components) {
  if (liveness.MaxLiveComponents() <= budget) return {};
  return SpillSimulator(module, liveness, loops, weights, budget, components).Run();
}

}  // namespace crashtest::statistics
