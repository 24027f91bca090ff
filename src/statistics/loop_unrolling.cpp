#include "statistics/loop_unrolling.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <numeric>
#include <optional>

#include "pipeline/ir/passes/instruction_properties.h"
#include "statistics/loop_weights.h"

namespace crashtest::statistics {
namespace {

// NIR's size limit: the unrolled loop may have 26 instructions per iteration the model allows
// (LOOP_UNROLL_LIMIT: "around 5 instructions per node" of the GLSL IR limit it replaced).
constexpr uint64_t kInstructionsPerAllowedIteration = 26;

bool IsAccessChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain;
}

bool IsSampleOrFetch(uint16_t op) {
  return (op >= spv::OpImageSampleImplicitLod && op <= spv::OpImageRead) ||
         (op >= spv::OpImageSparseSampleImplicitLod && op <= spv::OpImageSparseRead);
}

struct Pointers {
  std::vector<ir::ValueId> root;     // the variable a pointer points into
  std::vector<bool> dynamicIndex;    // the pointer's access chain has a non-constant index
  std::vector<uint32_t> chainIndexCount;  // elements of the outermost array it indexes (0 when not an array)
};

Pointers TracePointers(const ir::Module& module) {
  Pointers p;
  p.root.assign(module.values.size(), ir::kNone);
  p.dynamicIndex.assign(module.values.size(), false);
  p.chainIndexCount.assign(module.values.size(), 0);
  for (const ir::Global& global : module.globals) p.root[global.value] = global.value;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op == spv::OpVariable && inst.result != ir::kNone) p.root[inst.result] = inst.result;
      if (!IsAccessChain(inst.op) || inst.valueCount == 0 || inst.result == ir::kNone) continue;
      auto operands = module.Operands(inst);
      p.root[inst.result] = p.root[operands[0]];
      bool dynamic = p.dynamicIndex[operands[0]];
      for (uint32_t k = 1; k < inst.valueCount; ++k)
        dynamic |= module.values[operands[k]].kind != ir::ValueKind::Constant;
      p.dynamicIndex[inst.result] = dynamic;
      const ir::Type& base = module.types[module.TypeOf(operands[0]).element];
      if (base.kind == ir::TypeKind::Array) p.chainIndexCount[inst.result] = base.count;
    }
  return p;
}

uint32_t StorageClassOfRoot(const ir::Module& module, ir::ValueId root) {
  if (root == ir::kNone) return ir::kNone;
  const ir::Type& t = module.types[module.values[root].type];
  return t.kind == ir::TypeKind::Pointer ? t.storageClass : ir::kNone;
}

struct LoopBody {
  uint64_t instructions = 0;     // IR instructions, inner unrolled loops counted per copy
  uint32_t conditionalBranches = 0;
  bool dynamicLoad = false;      // a load from a buffer at a computed address, or an image access
  bool indexesPrivateArrayOfTripCount = false;
};

LoopBody Inspect(const ir::Module& module, const analysis::Loop& loop, const Pointers& pointers,
                 const std::vector<uint64_t>& blockCopies) {
  LoopBody body;
  for (ir::BlockId b : loop.blocks)
    for (const ir::Instruction& inst : module.function.blocks[b].instructions) {
      body.instructions = SaturatingAdd(body.instructions, blockCopies[b]);
      if (inst.op == spv::OpBranchConditional || inst.op == spv::OpSwitch) ++body.conditionalBranches;
      if (IsSampleOrFetch(inst.op)) body.dynamicLoad = true;
      if (inst.valueCount == 0) continue;
      ir::ValueId pointer = module.Operands(inst)[0];
      if (pointer >= pointers.root.size() || !pointers.dynamicIndex[pointer]) continue;
      uint32_t storage = StorageClassOfRoot(module, pointers.root[pointer]);
      if (inst.op == spv::OpLoad &&
          (storage == spv::StorageClassStorageBuffer || storage == spv::StorageClassUniform ||
           storage == spv::StorageClassPhysicalStorageBuffer))
        body.dynamicLoad = true;
      if ((inst.op == spv::OpLoad || inst.op == spv::OpStore) &&
          (storage == spv::StorageClassFunction || storage == spv::StorageClassPrivate) && loop.tripCount &&
          pointers.chainIndexCount[pointer] == *loop.tripCount)
        body.indexesPrivateArrayOfTripCount = true;
    }
  return body;
}

// Optimistic fixpoint: every phi in the header of an unrolled loop and every pure instruction in an unrolled
// loop starts as foldable; one with an operand that is neither a constant nor foldable is not.
void MarkIterationConstants(const ir::Module& module, const analysis::LoopInfo& loops, LoopUnrolling& result) {
  result.foldsAway.assign(module.values.size(), false);
  const auto& blocks = module.function.blocks;
  auto inUnrolledLoop = [&](ir::BlockId b) {
    uint32_t l = loops.LoopOf(b);
    return l != ir::kNone && result.unrolled[l];
  };
  bool any = false;
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    if (!inUnrolledLoop(b)) continue;
    for (const ir::Instruction& inst : blocks[b].instructions) {
      if (inst.result == ir::kNone) continue;
      const bool headerPhi = inst.op == spv::OpPhi && loops.loops()[loops.LoopOf(b)].header == b;
      if (headerPhi || (inst.op != spv::OpPhi && inst.op != spv::OpLoad && ir::IsPureInstruction(module, inst))) {
        result.foldsAway[inst.result] = true;
        any = true;
      }
    }
  }
  for (bool changed = any; changed;) {
    changed = false;
    for (ir::BlockId b = 0; b < blocks.size(); ++b)
      for (const ir::Instruction& inst : blocks[b].instructions) {
        if (inst.result == ir::kNone || !result.foldsAway[inst.result]) continue;
        auto operands = module.Operands(inst);
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          const ir::ValueId v = operands[k];
          if (module.values[v].kind == ir::ValueKind::Constant || result.foldsAway[v]) continue;
          result.foldsAway[inst.result] = false;
          changed = true;
          break;
        }
      }
  }
}

}  // namespace

LoopUnrolling UnrollLoops(const ir::Module& module, const analysis::LoopInfo& loops, const MachineModel& model) {
  const auto& all = loops.loops();
  const size_t blockCount = module.function.blocks.size();
  LoopUnrolling result;
  result.unrolled.assign(all.size(), false);
  result.blockCopies.assign(blockCount, 1);
  result.exitTestRemoved.assign(blockCount, false);
  result.foldsAway.assign(module.values.size(), false);
  if (model.loopUnrollIterations == 0 || all.empty()) return result;

  std::optional<Pointers> pointers;  // traced for the first loop whose body is inspected
  // Innermost loops first: a loop is considered once every loop inside it has been decided.
  std::vector<uint32_t> order(all.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return all[a].depth > all[b].depth; });
  std::vector<bool> keepsInnerLoop(all.size(), false);
  for (uint32_t l : order) {
    const analysis::Loop& loop = all[l];
    const bool parentKeeps = loop.parent != ir::kNone;
    const uint32_t control = module.function.blocks[loop.header].loopControl;
    bool unroll = loop.tripCount.has_value() && !keepsInnerLoop[l] && (control & spv::LoopControlDontUnrollMask) == 0;
    if (unroll && (control & spv::LoopControlUnrollMask) == 0) {
      if (!pointers) pointers = TracePointers(module);
      const LoopBody body = Inspect(module, loop, *pointers, result.blockCopies);
      const uint64_t trips = *loop.tripCount;
      const bool straightLine = body.conditionalBranches <= 1;
      const uint64_t limit = straightLine && body.dynamicLoad && model.loopUnrollIterationsForLoads != 0
                                 ? std::max(model.loopUnrollIterationsForLoads, model.loopUnrollIterations)
                                 : model.loopUnrollIterations;
      unroll = trips <= limit && (body.indexesPrivateArrayOfTripCount ||
                                  SaturatingMul(body.instructions, trips) <= limit * kInstructionsPerAllowedIteration);
    }
    if (!unroll) {
      if (parentKeeps) keepsInnerLoop[loop.parent] = true;
      continue;
    }
    result.unrolled[l] = true;
    const uint64_t copies = std::max<uint64_t>(*loop.tripCount, 1);
    for (ir::BlockId b : loop.blocks) result.blockCopies[b] = SaturatingMul(result.blockCopies[b], copies);
    result.exitTestRemoved[loop.header] = true;
    for (ir::BlockId latch : loop.latches) result.exitTestRemoved[latch] = true;
  }
  // Nothing folds without an unrolled loop (foldsAway is already all false).
  if (std::find(result.unrolled.begin(), result.unrolled.end(), true) != result.unrolled.end())
    MarkIterationConstants(module, loops, result);
  return result;
}

}  // namespace crashtest::statistics
