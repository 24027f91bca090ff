#include "pipeline/analysis/uniformity.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>

namespace crashtest::analysis {
namespace {

using ir::kNone;

// Built-ins that hold one value for a whole subgroup (or a whole draw or dispatch). Everything else an Input
// variable holds — invocation ids, vertex attributes, varyings, even flat ones (a wave mixes primitives) — is
// per invocation.
bool IsUniformBuiltIn(uint32_t builtIn) {
  switch (builtIn) {
    case spv::BuiltInNumWorkgroups: case spv::BuiltInWorkgroupSize: case spv::BuiltInWorkgroupId:
    case spv::BuiltInSubgroupSize: case spv::BuiltInNumSubgroups: case spv::BuiltInSubgroupId:
    case spv::BuiltInDrawIndex: case spv::BuiltInBaseVertex: case spv::BuiltInBaseInstance:
    case spv::BuiltInViewIndex: case spv::BuiltInDeviceIndex:
      return true;
    default: return false;
  }
}

bool IsAccessChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain ||
         op == spv::OpInBoundsPtrAccessChain;
}

bool IsAtomic(uint16_t op) {
  if (op < spv::OpAtomicLoad) return false;  // most instructions: asked of every one on every sweep
  return op <= spv::OpAtomicXor || op == spv::OpAtomicFlagTestAndSet || op == spv::OpAtomicFMinEXT ||
         op == spv::OpAtomicFMaxEXT || op == spv::OpAtomicFAddEXT;
}

enum class GroupResult : uint8_t { NotGroup, Uniform, Divergent, FromOperands };

// What a subgroup operation returns across the subgroup, by the SPIR-V definition of each.
GroupResult ClassifyGroupOperation(const ir::Module& module, const ir::Instruction& inst) {
  auto groupOperation = [&] {
    auto operands = module.Operands(inst);
    return inst.operandCount > inst.valueCount ? operands[inst.valueCount] : uint32_t{spv::GroupOperationReduce};
  };
  switch (inst.op) {
    case spv::OpGroupNonUniformElect:  // true in exactly one invocation
    case spv::OpGroupNonUniformInverseBallot:
      return GroupResult::Divergent;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny: case spv::OpGroupNonUniformAllEqual:
    case spv::OpGroupNonUniformBroadcast: case spv::OpGroupNonUniformBroadcastFirst:
    case spv::OpGroupNonUniformBallot:
    case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR: case spv::OpSubgroupAllKHR:
    case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR: case spv::OpSubgroupReadInvocationKHR:
      return GroupResult::Uniform;
    case spv::OpGroupNonUniformBallotBitExtract: case spv::OpGroupNonUniformBallotFindLSB:
    case spv::OpGroupNonUniformBallotFindMSB:
    // A shuffle of a value every invocation holds returns that value.
    case spv::OpGroupNonUniformShuffle: case spv::OpGroupNonUniformShuffleXor: case spv::OpGroupNonUniformShuffleUp:
    case spv::OpGroupNonUniformShuffleDown: case spv::OpGroupNonUniformQuadBroadcast:
    case spv::OpGroupNonUniformQuadSwap: case spv::OpGroupNonUniformRotateKHR:
      return GroupResult::FromOperands;
    default: break;
  }
  if (inst.op == spv::OpGroupNonUniformBallotBitCount ||
      (inst.op >= spv::OpGroupNonUniformIAdd && inst.op <= spv::OpGroupNonUniformLogicalXor))
    // A reduction leaves its result in every invocation; scans and clustered reductions differ per invocation.
    return groupOperation() == spv::GroupOperationReduce ? GroupResult::Uniform : GroupResult::Divergent;
  return GroupResult::NotGroup;
}

class UniformityBuilder {
 public:
  UniformityBuilder(const ir::Module& module, const DominatorTree& postDominators, const LoopInfo& loops)
      : module_(module), blocks_(module.function.blocks), postDominators_(postDominators), loops_(loops) {}

  void Run(std::vector<uint8_t>& divergent, std::vector<uint32_t>& temporalLoop,
           std::vector<uint8_t>& divergentBranch, std::vector<uint8_t>& divergentControl) {
    const size_t valueCount = module_.values.size();
    divergent_.assign(valueCount, 0);
    temporalLoop_.assign(valueCount, kNone);
    divergentBranch_.assign(blocks_.size(), 0);
    divergentControl_.assign(blocks_.size(), 0);
    blockState_.assign(blocks_.size(), BlockState{});
    divergentExit_.assign(loops_.loops().size(), 0);
    FindRoots();
    // Monotone: values, branches, joins and loop exits only ever become divergent, so this ends; the corpus's
    // shaders need one or two rounds (one more per link of a loop-carried chain of divergence).
    for (bool changed = true; changed;) {
      changed = Sweep();
      changed |= MarkNewRegions();
      changed |= UpdateTemporalLoops();
    }
    divergent = std::move(divergent_);
    temporalLoop = std::move(temporalLoop_);
    divergentBranch = std::move(divergentBranch_);
    divergentControl = std::move(divergentControl_);
  }

 private:
  bool InLoop(ir::BlockId block, uint32_t loop) const {
    for (uint32_t l = loops_.LoopOf(block); l != kNone; l = loops_.loops()[l].parent)
      if (l == loop) return true;
    return false;
  }

  bool DivergentAt(ir::ValueId v, ir::BlockId useBlock) const {
    return divergent_[v] || (temporalLoop_[v] != kNone && !InLoop(useBlock, temporalLoop_[v]));
  }

  // The variable (Function/Private/any global) a pointer points into, through access chains and copies.
  void FindRoots() {
    valueState_.assign(module_.values.size(), ValueState{});
    for (const ir::Global& global : module_.globals) valueState_[global.value].root = global.value;
    // Blocks are in dominator order, so a pointer's base is seen before the pointer.
    for (const ir::Block& block : blocks_)
      for (const ir::Instruction& inst : block.instructions) {
        if (inst.result == kNone) continue;
        if (inst.op == spv::OpVariable) valueState_[inst.result].root = inst.result;
        else if ((IsAccessChain(inst.op) || inst.op == spv::OpCopyObject) && inst.valueCount > 0)
          valueState_[inst.result].root = valueState_[module_.Operands(inst)[0]].root;
      }
  }

  uint32_t StorageClassOf(ir::ValueId pointer) const {
    const ir::Type& type = module_.TypeOf(pointer);
    return type.kind == ir::TypeKind::Pointer ? type.storageClass : kNone;
  }

  bool IsPerInvocationMemory(uint32_t storageClass) const {
    return storageClass == spv::StorageClassFunction || storageClass == spv::StorageClassPrivate;
  }

  bool LoadIsDivergent(ir::ValueId pointer, ir::BlockId block) const {
    if (DivergentAt(pointer, block)) return true;
    const uint32_t storageClass = StorageClassOf(pointer);
    const ir::ValueId root = valueState_[pointer].root;
    switch (storageClass) {
      case spv::StorageClassInput: {
        if (root == kNone || module_.values[root].kind != ir::ValueKind::Global) return true;
        return !IsUniformBuiltIn(module_.globals[module_.values[root].owner].builtIn);
      }
      case spv::StorageClassOutput: return true;  // each invocation's own outputs
      case spv::StorageClassFunction: case spv::StorageClassPrivate:
        return root == kNone || valueState_[root].memoryDivergent;
      default:
        // Push constants, uniform and storage buffers, workgroup memory, descriptors: one memory for the whole
        // subgroup, so the same address reads the same value in every invocation.
        return false;
    }
  }

  // A store that can leave a per-invocation variable holding different values in different invocations.
  bool MarkStore(ir::ValueId pointer, bool divergentData, ir::BlockId block) {
    if (!IsPerInvocationMemory(StorageClassOf(pointer))) return false;
    const ir::ValueId root = valueState_[pointer].root;
    if (root == kNone || valueState_[root].memoryDivergent) return false;
    if (divergentData || DivergentAt(pointer, block) || divergentControl_[block]) {
      valueState_[root].memoryDivergent = 1;
      return true;
    }
    return false;
  }

  bool ResultIsDivergent(const ir::Instruction& inst, ir::BlockId block) const {
    auto operands = module_.Operands(inst);
    auto anyOperandDivergent = [&] {
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (DivergentAt(operands[k], block)) return true;
      return false;
    };
    if (inst.op == spv::OpPhi) {
      if (blockState_[block].join) return true;
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        if (DivergentAt(operands[k], operands[inst.valueCount + k])) return true;
      return false;
    }
    if (inst.op == spv::OpVariable) return false;  // the address of a variable, not its contents
    if (inst.op == spv::OpLoad) return LoadIsDivergent(operands[0], block);
    if (IsAtomic(inst.op)) return true;  // each invocation gets its own old value
    if (inst.op == spv::OpIsHelperInvocationEXT) return true;
    if (inst.op == spv::OpExtInst && inst.operandCount > inst.valueCount) {
      // Interpolation at a sample or offset reads per-invocation inputs.
      uint32_t number = operands[inst.valueCount];
      if (number == GLSLstd450InterpolateAtCentroid || number == GLSLstd450InterpolateAtSample ||
          number == GLSLstd450InterpolateAtOffset)
        return true;
    }
    switch (ClassifyGroupOperation(module_, inst)) {
      case GroupResult::Uniform: return false;
      case GroupResult::Divergent: return true;
      case GroupResult::FromOperands: case GroupResult::NotGroup: break;
    }
    return anyOperandDivergent();
  }

  // Returns whether another sweep can find more: a store made memory divergent (loads of it may come earlier)
  // or a value a phi read before its definition became divergent. Blocks are in dominator order, so every other
  // read comes after the definition in the same sweep: without this, most shaders spent a last sweep confirming
  // what the previous one had settled. A divergent branch is not such a change by itself: only MarkNewRegions
  // reads it, and reports what its region changes.
  bool Sweep() {
    bool changed = false;
    for (ir::BlockId b = 0; b < blocks_.size(); ++b) {
      for (const ir::Instruction& inst : blocks_[b].instructions) {
        auto operands = module_.Operands(inst);
        if (inst.op == spv::OpStore && inst.valueCount >= 2) {
          changed |= MarkStore(operands[0], DivergentAt(operands[1], b), b);
        } else if (inst.op == spv::OpCopyMemory && inst.valueCount >= 2) {
          changed |= MarkStore(operands[0], LoadIsDivergent(operands[1], b), b);
        } else if (IsAtomic(inst.op) && inst.valueCount >= 1) {
          changed |= MarkStore(operands[0], true, b);
        } else if ((inst.op == spv::OpBranchConditional || inst.op == spv::OpSwitch) && inst.valueCount >= 1) {
          if (!divergentBranch_[b] && DivergentAt(operands[0], b)) divergentBranch_[b] = 1;
        }
        if (inst.op == spv::OpExtInst && inst.valueCount >= 2 && inst.operandCount > inst.valueCount) {
          uint32_t number = operands[inst.valueCount];
          if (number == GLSLstd450Modf || number == GLSLstd450Frexp)
            changed |= MarkStore(operands[1], DivergentAt(operands[0], b), b);
        }
        if (inst.result == kNone || divergent_[inst.result]) continue;
        if (ResultIsDivergent(inst, b)) {
          divergent_[inst.result] = 1;
          changed |= valueState_[inst.result].readBeforeDefinition != 0;
        } else if (inst.op == spv::OpPhi) {
          // Operands along a back edge (defined in this block or a later one) are read before the sweep reaches
          // them: if one becomes divergent, this phi needs another look.
          for (uint32_t k = 0; k < inst.valueCount; ++k) {
            const ir::Value& value = module_.values[operands[k]];
            if (value.kind == ir::ValueKind::Instruction && value.owner >= b)
              valueState_[operands[k]].readBeforeDefinition = 1;
          }
        }
      }
    }
    return changed;
  }

  bool IsBackEdge(ir::BlockId from, ir::BlockId to) const {
    uint32_t loop = loops_.LoopOf(to);
    return loop != kNone && loops_.loops()[loop].header == to && InLoop(from, loop);
  }

  // The region a divergent branch at `branch` controls: forward from its targets to its immediate
  // post-dominator. Joins of two region paths get divergent phis; the blocks are in divergent control; every
  // loop the region leaves has a divergent exit.
  bool MarkRegion(ir::BlockId branch) {
    bool changed = false;
    const ir::BlockId stop = postDominators_.ImmediateDominator(branch);  // kNone: the virtual exit
    // The walk's scratch is cleared per region; the work list is kept across regions (each walk allocated its own).
    for (BlockState& state : blockState_) {
      state.regionPreds = 0;
      state.visited = 0;
    }
    std::vector<ir::BlockId>& work = work_;
    work.assign(1, branch);
    blockState_[branch].visited = 1;
    while (!work.empty()) {
      ir::BlockId x = work.back();
      work.pop_back();
      for (ir::BlockId s : blocks_[x].successors) {
        if (IsBackEdge(x, s)) continue;  // invocations still in the loop agree on its iteration
        BlockState& state = blockState_[s];
        if (++state.regionPreds == 2 && !state.join) {
          state.join = 1;
          changed = true;
        }
        if (s == stop || state.visited) continue;
        state.visited = 1;
        if (!divergentControl_[s]) {
          divergentControl_[s] = 1;
          changed = true;
        }
        work.push_back(s);
      }
    }
    for (uint32_t l = loops_.LoopOf(branch); l != kNone; l = loops_.loops()[l].parent) {
      if (stop != kNone && InLoop(stop, l)) break;  // reconverges inside this loop, so inside the outer ones
      if (!divergentExit_[l]) {
        divergentExit_[l] = 1;
        exitsChanged_ = true;
        changed = true;
        // After the first invocations left, the rest run every block of the loop without them.
        for (ir::BlockId block : loops_.loops()[l].blocks) divergentControl_[block] = 1;
      }
    }
    return changed;
  }

  bool MarkNewRegions() {
    bool changed = false;
    for (ir::BlockId b = 0; b < blocks_.size(); ++b)
      if (divergentBranch_[b] && !blockState_[b].regionDone) {
        blockState_[b].regionDone = 1;
        changed |= MarkRegion(b);
      }
    return changed;
  }

  bool UpdateTemporalLoops() {
    // temporalLoop_ depends only on divergentExit_: with no new divergent exit it is already up to date (and
    // with none at all, all kNone as initialised) — most shaders, where this walk over every value was waste.
    if (!exitsChanged_) return false;
    exitsChanged_ = false;
    bool changed = false;
    for (ir::ValueId v = 0; v < module_.values.size(); ++v) {
      const ir::Value& value = module_.values[v];
      if (value.kind != ir::ValueKind::Instruction || value.owner == kNone) continue;
      uint32_t innermost = kNone;
      for (uint32_t l = loops_.LoopOf(value.owner); l != kNone; l = loops_.loops()[l].parent)
        if (divergentExit_[l]) {
          innermost = l;
          break;
        }
      if (innermost != temporalLoop_[v]) {
        temporalLoop_[v] = innermost;
        changed = true;
      }
    }
    return changed;
  }

  const ir::Module& module_;
  const std::vector<ir::Block>& blocks_;
  const DominatorTree& postDominators_;
  const LoopInfo& loops_;
  // The builder's own per-value and per-block state, one record each: one allocation per table instead of one
  // per field (allocations were a tenth of the statistics' time on a typical shader).
  struct ValueState {
    ir::ValueId root = kNone;          // the variable a pointer points into (FindRoots)
    uint8_t memoryDivergent = 0;       // a variable: some invocations stored different values into it
    uint8_t readBeforeDefinition = 0;  // a phi read it before the sweep reached it (Sweep)
  };
  struct BlockState {
    uint32_t regionPreds = 0;  // MarkRegion's scratch: region edges into the block
    uint8_t visited = 0;       // MarkRegion's scratch
    uint8_t join = 0;          // two paths of a divergent branch's region meet here
    uint8_t regionDone = 0;    // its divergent branch's region is marked
  };
  std::vector<ValueState> valueState_;
  std::vector<BlockState> blockState_;
  std::vector<uint8_t> divergent_;  // flags as bytes (uniformity.h)
  std::vector<uint32_t> temporalLoop_;
  std::vector<uint8_t> divergentBranch_, divergentControl_, divergentExit_;
  bool exitsChanged_ = false;  // divergentExit_ changed since UpdateTemporalLoops last ran
  std::vector<ir::BlockId> work_;
};

}  // namespace

Uniformity Uniformity::Build(const ir::Module& module, const DominatorTree& postDominators, const LoopInfo& loops) {
  Uniformity result;
  result.blockLoop_.resize(module.function.blocks.size());
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) result.blockLoop_[b] = loops.LoopOf(b);
  for (const Loop& loop : loops.loops()) result.loopParent_.push_back(loop.parent);
  UniformityBuilder(module, postDominators, loops)
      .Run(result.divergent_, result.temporalLoop_, result.divergentBranch_, result.divergentControl_);
  return result;
}

bool Uniformity::IsDivergentAt(ir::ValueId value, ir::BlockId useBlock) const {
  if (divergent_[value]) return true;
  uint32_t loop = temporalLoop_[value];
  if (loop == ir::kNone) return false;
  for (uint32_t l = blockLoop_[useBlock]; l != ir::kNone; l = loopParent_[l])
    if (l == loop) return false;
  return true;
}

uint32_t Uniformity::DivergentBranchCount() const {
  return static_cast<uint32_t>(divergentBranch_.size() - std::count(divergentBranch_.begin(), divergentBranch_.end(), 0));
}

}  // namespace crashtest::analysis
