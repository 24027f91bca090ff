#include "statistics/load_scheduling.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include "pipeline/spirv_tables.h"
#include "statistics/instruction_class.h"
#include "statistics/memory_aliasing.h"

namespace crashtest::statistics {
namespace {

// ACO's bounds on one load's moves and on how far it looks (VMEM_MAX_MOVES and VMEM_WINDOW_SIZE at the 7
// pre-GFX10 waves its target occupancy comes to); they keep the cost linear in practice.
constexpr uint32_t kMaxMovesPerLoad = 144;
constexpr size_t kWindow = 576;

// A set of values with O(1) clearing (generation stamps).
class StampSet {
 public:
  explicit StampSet(size_t size) : stamps_(size, 0) {}
  void Clear() { ++generation_; }
  bool Test(ir::ValueId v) const { return stamps_[v] == generation_; }
  void Set(ir::ValueId v) { stamps_[v] = generation_; }
  void Reset(ir::ValueId v) { stamps_[v] = 0; }

 private:
  std::vector<uint32_t> stamps_;
  uint32_t generation_ = 1;
};

enum class Kind : uint8_t {
  Movable,     // arithmetic, address computation, loads of registers or workgroup memory
  VectorLoad,  // a vector memory instruction with a result: buffer/image load, texel fetch, sample, gather
  Fixed,       // stores, atomics, barriers, kills, emission, branches: nothing moves a load across them
};

// Only a load or an image instruction can be a VectorLoad (texture latency comes from the image class, memory
// latency with a result from OpLoad): a cheap test before classifying the instruction.
bool MayBeVectorLoad(uint16_t op) { return op == spv::OpLoad || spirv::OpcodeClass(op) == spirv::OpClass::Image; }

struct BlockScheduler {
  const ir::Module& module;
  const analysis::Liveness& liveness;
  std::span<const uint32_t> components;
  uint32_t ceiling;
  bool inputsFromMemory;
  MemoryAliasing aliasing;
  StampSet live, liveOut, depends, readAfter;

  BlockScheduler(const ir::Module& m, const analysis::Liveness& l, std::span<const uint32_t> c, uint32_t limit,
                 bool inputs)
      : module(m), liveness(l), components(c), ceiling(limit), inputsFromMemory(inputs), aliasing(m),
        live(m.values.size()), liveOut(m.values.size()),
        depends(m.values.size()), readAfter(m.values.size()), readsBelow(m.values.size(), 0) {
    // The scratch lists at their largest, once: grown by push_back they were reallocated a few times per shader,
    // about a third of the scheduler's allocations.
    size_t largestBlock = 0;
    for (const ir::Block& block : m.function.blocks) largestBlock = std::max(largestBlock, block.instructions.size());
    counted.reserve(m.values.size());  // each value at most once between two ResetReads
    order_.reserve(largestBlock);
    loads_.reserve(largestBlock);
    kinds_.reserve(largestBlock);
  }

  // Whether a store above the load may move below it (memory_aliasing.h): a store to registers or workgroup
  // memory always, one to buffers or images when the load reads memory the shader never writes. Only while no
  // barrier, atomic, other store or vector load has stayed in between, which the store would cross.
  bool StoreMayMoveBelow(const ir::Instruction& store, bool loadReorders) const {
    switch (aliasing.TargetOf(store)) {
      case StoreTarget::kRegisters: case StoreTarget::kWorkgroup: return true;
      case StoreTarget::kBufferOrImage: return loadReorders;
      default: return false;
    }
  }

  bool Tracked(ir::ValueId v) const { return module.values[v].kind == ir::ValueKind::Instruction; }

  Kind KindOf(const ir::Instruction& inst) const {
    // ClassifyInstruction's BarrierAtomic class is exactly the atomic and barrier opcodes; only loads and image
    // instructions need the full classification (their latency).
    const spirv::OpClass opClass = spirv::OpcodeClass(inst.op);
    if (inst.result == ir::kNone || opClass == spirv::OpClass::Atomic || opClass == spirv::OpClass::Barrier)
      return Kind::Fixed;
    if (components[inst.result] == 0) return Kind::Movable;  // a scalar (SMEM) load: not this scheduler's
    if (inst.op != spv::OpLoad && opClass != spirv::OpClass::Image) return Kind::Movable;
    if (inputsFromMemory && inst.op == spv::OpLoad &&
        module.TypeOf(module.Operands(inst)[0]).storageClass == spv::StorageClassInput)
      return Kind::VectorLoad;
    const InstructionCost cost = ClassifyInstruction(module, inst);
    if (cost.latency == LatencyKind::Texture) return Kind::VectorLoad;
    if (cost.latency == LatencyKind::Memory && inst.op == spv::OpLoad) {
      const ir::Type& pointer = module.TypeOf(module.Operands(inst)[0]);
      // Private arrays are registers or scratch; neither is a load the scheduler hoists.
      if (pointer.storageClass != spv::StorageClassFunction && pointer.storageClass != spv::StorageClassPrivate)
        return Kind::VectorLoad;
    }
    return Kind::Movable;
  }

  // The block's peak vector demand in this order, or ceiling + 1 as soon as it exceeds the ceiling.
  uint32_t Peak(const ir::Block& block, const std::vector<uint32_t>& order, uint32_t liveInSum,
                uint32_t liveOutSum, std::span<const ir::ValueId> out) {
    live.Clear();
    for (ir::ValueId v : out) live.Set(v);
    uint32_t sum = liveOutSum, peak = liveInSum;
    for (size_t i = order.size(); i-- > 0;) {
      const ir::Instruction& inst = block.instructions[order[i]];
      const bool defined = inst.result != ir::kNone && live.Test(inst.result);
      const uint32_t pressure = sum + (inst.result != ir::kNone && !defined ? components[inst.result] : 0);
      peak = std::max(peak, pressure);
      if (peak > ceiling) return peak;
      if (defined) {
        live.Reset(inst.result);
        sum -= components[inst.result];
      }
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (Tracked(operands[k]) && !live.Test(operands[k])) {
          live.Set(operands[k]);
          sum += components[operands[k]];
        }
    }
    return peak;
  }

  // Reads of each value below the instruction being looked at, for the load being scheduled: an instruction reads
  // a value last when no read of it is below and it does not live out of the block.
  std::vector<uint32_t> readsBelow;
  std::vector<ir::ValueId> counted;
  std::vector<uint32_t> order_, loads_;
  std::vector<Kind> kinds_;

  bool ReadLast(ir::ValueId v) const { return !liveOut.Test(v) && readsBelow[v] == 0; }
  void CountReads(const ir::Instruction& inst) {
    auto operands = module.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k)
      if (Tracked(operands[k])) {
        if (readsBelow[operands[k]]++ == 0) counted.push_back(operands[k]);
      }
  }
  void ResetReads() {
    for (ir::ValueId v : counted) readsBelow[v] = 0;
    counted.clear();
  }

  bool Reads(const ir::Instruction& inst, const StampSet& set) const {
    auto operands = module.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k)
      if (Tracked(operands[k]) && set.Test(operands[k])) return true;
    return false;
  }

  // Marks the operands of the instruction at `position` as needed above the load (`depends`) and those it reads
  // last as values that must not be read below it (`readAfter`).
  void Pin(const ir::Instruction& inst) {
    auto operands = module.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k) {
      if (!Tracked(operands[k])) continue;
      depends.Set(operands[k]);
      if (ReadLast(operands[k])) readAfter.Set(operands[k]);
    }
    CountReads(inst);
  }

  // Whether moving `inst` below the load can raise the block's peak: only by keeping an operand it reads last
  // alive longer, or by a dead result (counted where it is defined); otherwise every position it passes loses
  // its result and its own demand is that of the instruction it lands after.
  bool MayRaisePeak(const ir::Instruction& inst) const {
    if (inst.result != ir::kNone && ReadLast(inst.result)) return true;
    auto operands = module.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k)
      if (Tracked(operands[k]) && components[operands[k]] != 0 && ReadLast(operands[k])) return true;
    return false;
  }

  uint32_t Schedule(ir::BlockId b, uint32_t& moves) {
    const ir::Block& block = module.function.blocks[b];
    // A block without a vector load keeps its order and its peak (the caller has the unscheduled one).
    bool anyLoad = false;
    for (const ir::Instruction& inst : block.instructions)
      if (inst.result != ir::kNone && components[inst.result] != 0 && MayBeVectorLoad(inst.op) &&
          KindOf(inst) == Kind::VectorLoad) {
        anyLoad = true;
        break;
      }
    if (!anyLoad) return 0;
    // Scratch kept across blocks: allocated once per shader, not grown per block.
    std::vector<uint32_t>& order = order_;
    std::vector<Kind>& kinds = kinds_;
    std::vector<uint32_t>& loads = loads_;
    order.clear();
    loads.clear();
    kinds.assign(block.instructions.size(), Kind::Movable);
    order.reserve(block.instructions.size());
    for (uint32_t i = 0; i < block.instructions.size(); ++i) {
      if (block.instructions[i].op == spv::OpPhi) continue;  // phis stay at the top
      kinds[i] = KindOf(block.instructions[i]);
      if (kinds[i] == Kind::VectorLoad) loads.push_back(i);
      order.push_back(i);
    }
    uint32_t liveInSum = 0, liveOutSum = 0;
    for (ir::ValueId v : liveness.LiveIn(b)) liveInSum += components[v];
    liveOut.Clear();
    for (ir::ValueId v : liveness.LiveOut(b)) {
      liveOut.Set(v);
      liveOutSum += components[v];
    }
    auto peak = [&] { return Peak(block, order, liveInSum, liveOutSum, liveness.LiveOut(b)); };

    for (uint32_t load : loads) {
      size_t current = static_cast<size_t>(std::find(order.begin(), order.end(), load) - order.begin());
      uint32_t k = 0;
      // Upwards: independent instructions above the load move to just below it, keeping their order.
      depends.Clear();
      readAfter.Clear();
      for (size_t j = current + 1; j < order.size(); ++j) CountReads(block.instructions[order[j]]);
      Pin(block.instructions[order[current]]);
      size_t insert = current + 1;
      bool fenced = false;  // a store, atomic or barrier stays between: no memory read may cross it
      bool ordered = false;  // ... or a vector load: no store may cross it either
      const bool loadReorders = aliasing.CanReorder(block.instructions[load]);
      for (size_t q = current; q-- > 0 && k < kMaxMovesPerLoad && current - q < kWindow;) {
        const ir::Instruction& candidate = block.instructions[order[q]];
        const bool dependent = candidate.result != ir::kNone && depends.Test(candidate.result);
        const bool movableStore = kinds[order[q]] == Kind::Fixed && candidate.result == ir::kNone && !ordered &&
                                  (candidate.op == spv::OpStore || candidate.op == spv::OpImageWrite) &&
                                  StoreMayMoveBelow(candidate, loadReorders);
        if ((kinds[order[q]] != Kind::Movable && !movableStore) || dependent || Reads(candidate, readAfter) ||
            (fenced && candidate.op == spv::OpLoad)) {
          fenced |= kinds[order[q]] == Kind::Fixed;
          ordered |= kinds[order[q]] != Kind::Movable;
          Pin(candidate);
          continue;
        }
        const bool check = MayRaisePeak(candidate);
        std::rotate(order.begin() + static_cast<ptrdiff_t>(q), order.begin() + static_cast<ptrdiff_t>(q) + 1,
                    order.begin() + static_cast<ptrdiff_t>(insert));
        const uint32_t reached = check ? peak() : 0;
        if (reached > ceiling) {
          std::rotate(order.begin() + static_cast<ptrdiff_t>(q), order.begin() + static_cast<ptrdiff_t>(insert) - 1,
                      order.begin() + static_cast<ptrdiff_t>(insert));
          break;
        }
        if (reached == ceiling) {
          // The block is at the ceiling: no further move can put more in flight, and the demand is settled (a
          // shader with many loads, a tessellation evaluation shader's control points, would otherwise recompute
          // the peak for every remaining move).
          ++moves;
          ResetReads();
          return ceiling;
        }
        CountReads(candidate);
        --current;
        --insert;
        ++k;
        ++moves;
      }
      ResetReads();
    }
    return peak();
  }
};

}  // namespace

uint32_t UnrolledLoadsInFlight(const ir::Module& module, const analysis::Liveness& liveness,
                               const analysis::LoopInfo& loops, const LoopUnrolling& unrolling,
                               std::span<const uint32_t> components, uint32_t ceiling) {
  uint32_t demand = 0;
  if (std::find(unrolling.unrolled.begin(), unrolling.unrolled.end(), true) == unrolling.unrolled.end()) return 0;
  std::vector<bool> fromLoad(module.values.size(), false);  // depends on a load of the loop being looked at
  for (uint32_t l = 0; l < loops.loops().size(); ++l) {
    const analysis::Loop& loop = loops.loops()[l];
    if (!unrolling.unrolled[l] || !loop.tripCount || *loop.tripCount < 2) continue;
    uint64_t loaded = 0;
    for (ir::BlockId b : loop.blocks)
      for (const ir::Instruction& inst : module.function.blocks[b].instructions) {
        if (inst.result == ir::kNone) continue;
        auto operands = module.Operands(inst);
        bool dependent = false;
        for (uint32_t k = 0; k < inst.valueCount && !dependent; ++k)
          dependent = module.values[operands[k]].kind == ir::ValueKind::Instruction && fromLoad[operands[k]];
        const InstructionCost cost = ClassifyInstruction(module, inst);
        bool load = cost.latency == LatencyKind::Texture && inst.op != spv::OpSampledImage;
        if (cost.latency == LatencyKind::Memory && inst.op == spv::OpLoad) {
          const uint32_t storage = module.TypeOf(operands[0]).storageClass;
          load = storage != spv::StorageClassFunction && storage != spv::StorageClassPrivate;
        }
        load = load && components[inst.result] != 0;  // not a descriptor, not a scalar (uniform) load
        if (load && !dependent) loaded += components[inst.result];
        fromLoad[inst.result] = dependent || load;
      }
    for (ir::BlockId b : loop.blocks)
      for (const ir::Instruction& inst : module.function.blocks[b].instructions)
        if (inst.result != ir::kNone) fromLoad[inst.result] = false;
    if (loaded == 0) continue;
    uint64_t liveIn = 0;
    for (ir::ValueId v : liveness.LiveIn(loop.header)) liveIn += components[v];
    for (const ir::Instruction& inst : module.function.blocks[loop.header].instructions) {
      if (inst.op != spv::OpPhi) break;
      // A phi whose value on entry is a constant holds nothing before the first copy computes it.
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        const ir::BlockId from = operands[inst.valueCount + k];
        const bool entry = std::find(loop.blocks.begin(), loop.blocks.end(), from) == loop.blocks.end();
        if (entry && module.values[operands[k]].kind == ir::ValueKind::Constant) {
          liveIn -= std::min<uint64_t>(liveIn, components[inst.result]);
          break;
        }
      }
    }
    const uint64_t inFlight = liveIn + loaded * *loop.tripCount;
    demand = std::max<uint32_t>(demand, static_cast<uint32_t>(std::min<uint64_t>(inFlight, ceiling)));
  }
  return demand;
}

LoadScheduling ScheduleLoads(const ir::Module& module, const analysis::Liveness& liveness,
                             std::span<const uint32_t> components, uint32_t ceiling, bool inputsFromMemory) {
  LoadScheduling result;
  // The scheduler's tables are per value; a shader without a vector load (a block without one keeps its order
  // and its peak, which the caller has) needs none of them.
  std::optional<BlockScheduler> scheduler;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) {
    if (!scheduler) {
      bool anyLoad = false;
      for (const ir::Instruction& inst : module.function.blocks[b].instructions)
        anyLoad |= inst.result != ir::kNone && components[inst.result] != 0 && MayBeVectorLoad(inst.op);
      if (!anyLoad) continue;
      scheduler.emplace(module, liveness, components, ceiling, inputsFromMemory);
    }
    result.demand = std::max(result.demand, scheduler->Schedule(b, result.moves));
  }
  return result;
}

}  // namespace crashtest::statistics
