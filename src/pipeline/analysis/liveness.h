// Liveness of SSA values (instruction results; constants and variables live in memory or immediates), per block
// and per instruction, counted in 32-bit register components: the register demand the statistics report.
//
// Phi semantics follow SSA: a phi's operand is used at the end of the matching predecessor, its result is
// defined at the top of its block.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pipeline/ir/module.h"

namespace crashtest::analysis {

// 32-bit components a value of `type` occupies in vector registers: 64-bit scalars take two, vectors, matrices,
// arrays and structs the sum of their parts, physical-storage-buffer pointers two, other pointers into
// descriptors one (an offset); pointers to Function/Private variables, images, samplers and runtime arrays none.
uint32_t RegisterComponents(const ir::Module& module, ir::TypeId type);

class Liveness {
 public:
  // `alsoUses[v]`, when given and not kNone: a value every use of `v` keeps live too (a pointer's shared offset
  // register, offset_registers.h). It must dominate those uses.
  static Liveness Build(const ir::Module& module, std::span<const ir::ValueId> alsoUses = {});

  std::span<const ir::ValueId> LiveIn(ir::BlockId block) const { return liveIn_[block]; }
  std::span<const ir::ValueId> LiveOut(ir::BlockId block) const { return liveOut_[block]; }
  // Components live across instruction `index` of `block`: everything live after it, plus its own result.
  // For phis: the block's live-in components.
  uint32_t LiveComponentsAt(ir::BlockId block, uint32_t index) const {
    return pressure_[blockStart_[block] + index];
  }
  uint32_t LiveInComponents(ir::BlockId block) const { return liveInComponents_[block]; }
  uint32_t MaxLiveComponents() const { return maxLive_; }

  // The same live sets with each value weighted by `components[value]` instead of RegisterComponents: the
  // demand on one register file when values are split between files (0 for a value the file does not hold).
  Liveness WithComponents(const ir::Module& module, std::span<const uint32_t> components) const;
  // Only the peak of WithComponents(module, components).MaxLiveComponents(), without building the tables.
  uint32_t MaxLiveComponentsWith(const ir::Module& module, std::span<const uint32_t> components) const;
  // The peaks of two weightings in one walk (the vector and scalar register files): the live sets are the same,
  // so walking them once halves the cost of the two calls above.
  struct TwoPeaks {
    uint32_t first = 0, second = 0;
  };
  // Registers of the first file that are not SSA values: the temporaries of instructions a back end expands into
  // a sequence (statistics/expansion_temporaries.h). Each span is empty or sized as its index says.
  struct Temporaries {
    std::span<const uint32_t> atDefinition;      // per value: live with the operands of the instruction defining it
    std::span<const uint32_t> beforeDefinition;  // per value: live from its block's start up to that instruction
    std::span<const uint32_t> throughBlock;      // per block: live through the whole block
    std::span<const uint32_t> atBlockEnd;        // per block: live out of it (defined before its branch)
  };
  TwoPeaks MaxLiveComponentsWith(const ir::Module& module, std::span<const uint32_t> first,
                                 std::span<const uint32_t> second, const Temporaries& firstTemporaries = {}) const;

 private:
  void ComputePressure(const ir::Module& module, std::span<const uint32_t> components);
  // Walks every instruction backwards from the live-out sets; `record(block, index, pressure)` per instruction
  // (phis get the block's live-in sum), `recordLiveIn(block, sum)` per block. Returns the peak.
  template <typename Record, typename RecordLiveIn>
  uint32_t WalkPressure(const ir::Module& module, std::span<const uint32_t> components, Record&& record,
                        RecordLiveIn&& recordLiveIn) const;

  // Calls use(v) for each tracked operand of `inst` and the value its use also keeps live.
  template <typename Use>
  void ForEachUse(const ir::Module& module, const ir::Instruction& inst, Use&& use) const;

  std::vector<std::vector<ir::ValueId>> liveIn_, liveOut_;
  std::vector<ir::ValueId> alsoUses_;  // empty when no value keeps another live
  std::vector<uint32_t> blockStart_;  // first index of each block in pressure_
  std::vector<uint32_t> pressure_;
  std::vector<uint32_t> liveInComponents_;
  uint32_t maxLive_ = 0;
};

}  // namespace crashtest::analysis
