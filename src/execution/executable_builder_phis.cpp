// Loop phis that share their slot with the value their back edge brings (`x = x * 0.999 + y` in a loop): the
// value is computed straight into the phi's slot, and the back edge copies nothing. Without it, every iteration
// copies each loop-carried value across the back edge (a fifth of an ALU-bound loop's time, measured with perf).
//
// The phi P and its back-edge value V may share a slot when writing V cannot destroy a P that is still needed:
//   - the loop has one latch, and V is defined in a block B of this loop itself (not of a loop nested in it), so
//     V runs once per iteration, after everything before it in structured order (executable.h: within an
//     iteration, control only moves forward);
//   - every use of P inside the loop comes before V: in a block placed before B, or earlier in B; a phi's use
//     counts at the end of the edge's source block (so P feeding a phi of the header, a swap, never shares);
//   - P is used outside the loop only if the loop is left from blocks placed before B (the header of a `for`
//     loop), where P is exactly the value it would have been;
//   - V's operation works lane by lane and component by component (arithmetic, comparisons, conversions,
//     selects, componentwise GLSL.std.450), so it may read P from the slot it writes.
// Lanes that left the loop earlier keep their P: operations write inactive lanes through their masks.
#include "execution/executable_builder_internal.h"
#include "execution/lane_wise_ops.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "pipeline/analysis/dominators.h"
#include "pipeline/analysis/loops.h"

namespace crashtest::execution::builder {
namespace {

// Operations whose kernels compute each lane's component from the same lane's components only, reading every
// operand before writing the result: their result may be written over an operand.
bool WorksLaneByLane(const ir::Module& m, const ir::Instruction& inst) {
  if (LaneWiseFormOf(inst.op) != LaneWiseForm::kNone) return true;
  return inst.op == spv::OpExtInst && IsComponentwiseGlsl(m.Operands(inst)[inst.valueCount]);
}

}  // namespace

void Builder::CoalesceLoopPhis() {
  const ir::Function& f = m_.function;
  bool anyLoop = false;
  for (const ir::Block& block : f.blocks) anyLoop |= block.mergeKind == ir::MergeKind::Loop;
  if (!anyLoop) return;
  const analysis::DominatorTree dominators = analysis::DominatorTree::Build(f);
  const analysis::LoopInfo loopInfo = analysis::LoopInfo::Build(m_, dominators);

  // Candidates: (phi, back-edge value, loop index, the value's block position).
  struct Candidate {
    ir::ValueId phi, value;
    uint32_t loop;
    uint32_t position;  // of the block defining the value
    bool ok = true;
  };
  std::vector<Candidate> candidates;
  std::vector<uint32_t> candidateOf(m_.values.size(), kNone);
  std::vector<bool> valueTaken(m_.values.size(), false);
  for (uint32_t l = 0; l < loopInfo.loops().size(); ++l) {
    const analysis::Loop& loop = loopInfo.loops()[l];
    if (loop.latches.size() != 1 || position_[loop.header] == kNone) continue;
    const ir::BlockId latch = loop.latches[0];
    for (const ir::Instruction& phi : f.blocks[loop.header].instructions) {
      if (phi.op != spv::OpPhi) break;
      auto operands = m_.Operands(phi);
      ir::ValueId value = kNone;
      for (uint32_t k = 0; k < phi.valueCount; ++k)
        if (operands[phi.valueCount + k] == latch) value = operands[k];
      if (value == kNone || valueTaken[value] || slot_[phi.result] == kNone || slot_[value] == kNone) continue;
      const ir::Value& v = m_.values[value];
      if (v.kind != ir::ValueKind::Instruction || v.type != phi.type) continue;
      if (loopInfo.LoopOf(v.owner) != l || position_[v.owner] == kNone) continue;
      if (!WorksLaneByLane(m_, f.blocks[v.owner].instructions[v.index])) continue;
      valueTaken[value] = true;
      candidateOf[phi.result] = static_cast<uint32_t>(candidates.size());
      candidates.push_back({phi.result, value, l, position_[v.owner]});
    }
  }
  if (candidates.empty()) return;

  // Blocks that leave each loop: P may be used after its loop only when all of them come before V's block.
  std::vector<uint32_t> lastExit(loopInfo.loops().size(), 0);
  std::vector<bool> inLoop(f.blocks.size(), false);
  for (uint32_t l = 0; l < loopInfo.loops().size(); ++l) {
    const analysis::Loop& loop = loopInfo.loops()[l];
    for (ir::BlockId b : loop.blocks) inLoop[b] = true;
    for (ir::BlockId b : loop.blocks)
      for (ir::BlockId next : f.blocks[b].successors)
        if (!inLoop[next] && position_[b] != kNone) lastExit[l] = std::max(lastExit[l], position_[b] + 1);
    for (ir::BlockId b : loop.blocks) inLoop[b] = false;
  }
  auto inside = [&](uint32_t l, ir::BlockId b) {
    for (uint32_t in = loopInfo.LoopOf(b); in != kNone; in = loopInfo.loops()[in].parent)
      if (in == l) return true;
    return false;
  };

  // Every use of a candidate phi must come before its value.
  for (ir::BlockId b = 0; b < f.blocks.size(); ++b) {
    if (position_[b] == kNone) continue;
    const ir::Block& block = f.blocks[b];
    for (uint32_t i = 0; i < block.instructions.size(); ++i) {
      const ir::Instruction& inst = block.instructions[i];
      auto operands = m_.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        const uint32_t c = candidateOf[operands[k]];
        if (c == kNone || !candidates[c].ok) continue;
        Candidate& cand = candidates[c];
        // Where the use happens: a phi's at the end of its edge's source block.
        ir::BlockId at = b;
        uint32_t index = i;
        if (inst.op == spv::OpPhi) {
          at = operands[inst.valueCount + k];
          index = UINT32_MAX;
          if (position_[at] == kNone) continue;  // an edge that never runs
        }
        const ir::Value& v = m_.values[cand.value];
        bool before;
        if (inside(cand.loop, at)) {
          // V's own instruction may read P: it works lane by lane.
          before = position_[at] < cand.position || (at == v.owner && index <= v.index);
        } else {
          before = lastExit[cand.loop] <= cand.position;
        }
        if (!before) cand.ok = false;
      }
    }
  }
  for (const Candidate& cand : candidates)
    if (cand.ok) slot_[cand.value] = slot_[cand.phi];
}

}  // namespace crashtest::execution::builder
