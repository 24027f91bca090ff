#include "pipeline/analysis/loops.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

namespace crashtest::analysis {

using ir::kNone;

namespace {

enum class Relation { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };

std::optional<std::pair<Relation, bool>> CompareRelation(uint16_t op) {  // relation, signed
  switch (op) {
    case spv::OpSLessThan: return std::pair{Relation::Less, true};
    case spv::OpULessThan: return std::pair{Relation::Less, false};
    case spv::OpSLessThanEqual: return std::pair{Relation::LessEqual, true};
    case spv::OpULessThanEqual: return std::pair{Relation::LessEqual, false};
    case spv::OpSGreaterThan: return std::pair{Relation::Greater, true};
    case spv::OpUGreaterThan: return std::pair{Relation::Greater, false};
    case spv::OpSGreaterThanEqual: return std::pair{Relation::GreaterEqual, true};
    case spv::OpUGreaterThanEqual: return std::pair{Relation::GreaterEqual, false};
    case spv::OpIEqual: return std::pair{Relation::Equal, true};
    case spv::OpINotEqual: return std::pair{Relation::NotEqual, true};
    default: return std::nullopt;
  }
}

Relation Negate(Relation r) {
  switch (r) {
    case Relation::Less: return Relation::GreaterEqual;
    case Relation::LessEqual: return Relation::Greater;
    case Relation::Greater: return Relation::LessEqual;
    case Relation::GreaterEqual: return Relation::Less;
    case Relation::Equal: return Relation::NotEqual;
    case Relation::NotEqual: return Relation::Equal;
  }
  return r;
}

// r(bound, x) == Mirror(r)(x, bound)
Relation Mirror(Relation r) {
  switch (r) {
    case Relation::Less: return Relation::Greater;
    case Relation::LessEqual: return Relation::GreaterEqual;
    case Relation::Greater: return Relation::Less;
    case Relation::GreaterEqual: return Relation::LessEqual;
    default: return r;
  }
}

// How many consecutive k >= 0 satisfy (x0 + k * step) r bound; nullopt if unbounded or irregular.
std::optional<uint64_t> CountWhile(int64_t x0, int64_t step, Relation r, int64_t bound) {
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  switch (r) {
    case Relation::Less:
      if (!(x0 < bound)) return 0;
      if (step <= 0) return std::nullopt;
      return static_cast<uint64_t>(ceilDiv(bound - x0, step));
    case Relation::LessEqual:
      if (!(x0 <= bound)) return 0;
      if (step <= 0) return std::nullopt;
      return static_cast<uint64_t>((bound - x0) / step + 1);
    case Relation::Greater:
      if (!(x0 > bound)) return 0;
      if (step >= 0) return std::nullopt;
      return static_cast<uint64_t>(ceilDiv(x0 - bound, -step));
    case Relation::GreaterEqual:
      if (!(x0 >= bound)) return 0;
      if (step >= 0) return std::nullopt;
      return static_cast<uint64_t>((x0 - bound) / -step + 1);
    case Relation::NotEqual: {
      if (x0 == bound) return 0;
      if (step == 0 || (bound - x0) % step != 0 || (bound - x0) / step < 0) return std::nullopt;
      return static_cast<uint64_t>((bound - x0) / step);
    }
    case Relation::Equal:
      if (x0 != bound) return 0;
      return step != 0 ? std::optional<uint64_t>(1) : std::nullopt;
  }
  return std::nullopt;
}

class TripCounter {
 public:
  TripCounter(const ir::Module& module, const Loop& loop, const std::vector<uint8_t>& inLoop)
      : module_(module), loop_(loop), inLoop_(inLoop) {}

  std::optional<uint64_t> Count() const;

 private:
  const ir::Instruction* Definition(ir::ValueId value) const {
    const ir::Value& v = module_.values[value];
    if (v.kind != ir::ValueKind::Instruction || v.owner == kNone) return nullptr;
    return &module_.function.blocks[v.owner].instructions[v.index];
  }
  // Sign- or zero-extended integer constant.
  std::optional<int64_t> IntConstant(ir::ValueId value, bool isSigned) const {
    const ir::Value& v = module_.values[value];
    if (v.kind != ir::ValueKind::Constant) return std::nullopt;
    const ir::Type& type = module_.types[v.type];
    if (type.kind != ir::TypeKind::Int) return std::nullopt;
    uint64_t bits = module_.constants[v.owner].bits;
    if (type.width < 64) {
      uint64_t mask = (uint64_t{1} << type.width) - 1;
      bits &= mask;
      if (isSigned && (bits >> (type.width - 1)) != 0) bits |= ~mask;
    }
    return static_cast<int64_t>(bits);
  }

  const ir::Module& module_;
  const Loop& loop_;
  const std::vector<uint8_t>& inLoop_;
};

std::optional<uint64_t> TripCounter::Count() const {
  const auto& blocks = module_.function.blocks;
  ir::BlockId exiting = kNone;
  for (ir::BlockId b : loop_.blocks)
    for (ir::BlockId s : blocks[b].successors)
      if (!inLoop_[s]) {
        if (exiting != kNone && exiting != b) return std::nullopt;  // several exits: data-dependent breaks
        exiting = b;
      }
  if (exiting == kNone || blocks[exiting].instructions.empty()) return std::nullopt;
  const ir::Instruction& branch = blocks[exiting].instructions.back();
  if (branch.op != spv::OpBranchConditional) return std::nullopt;
  auto branchOperands = module_.Operands(branch);
  bool stayOnTrue = inLoop_[branchOperands[1]] != 0;
  const ir::Instruction* compare = Definition(branchOperands[0]);
  if (compare == nullptr) return std::nullopt;
  auto relation = CompareRelation(compare->op);
  if (!relation) return std::nullopt;
  auto [rel, isSigned] = *relation;
  auto compareOperands = module_.Operands(*compare);
  ir::ValueId counted = compareOperands[0];
  auto bound = IntConstant(compareOperands[1], isSigned);
  if (!bound) {
    counted = compareOperands[1];
    bound = IntConstant(compareOperands[0], isSigned);
    rel = Mirror(rel);
  }
  if (!bound) return std::nullopt;
  if (!stayOnTrue) rel = Negate(rel);

  // The induction variable: a header phi of (constant from outside, phi +/- constant from inside).
  for (const ir::Instruction& phi : blocks[loop_.header].instructions) {
    if (phi.op != spv::OpPhi) break;
    auto operands = module_.Operands(phi);
    if (phi.valueCount != 2) continue;
    std::optional<int64_t> init;
    ir::ValueId next = kNone;
    for (int k = 0; k < 2; ++k) {
      if (inLoop_[operands[2 + k]]) next = operands[k];
      else init = IntConstant(operands[k], isSigned);
    }
    if (!init || next == kNone) continue;
    const ir::Instruction* increment = Definition(next);
    if (increment == nullptr || (increment->op != spv::OpIAdd && increment->op != spv::OpISub)) continue;
    auto incOperands = module_.Operands(*increment);
    std::optional<int64_t> step;
    if (incOperands[0] == phi.result) step = IntConstant(incOperands[1], true);
    else if (incOperands[1] == phi.result && increment->op == spv::OpIAdd) step = IntConstant(incOperands[0], true);
    if (!step) continue;
    if (increment->op == spv::OpISub) step = -*step;
    int64_t x0;
    if (counted == phi.result) x0 = *init;
    else if (counted == next) x0 = *init + *step;
    else continue;
    auto stays = CountWhile(x0, *step, rel, *bound);
    if (!stays) return std::nullopt;
    // A test at the bottom (in a latch) runs after the body, so the body runs once more than the test stays.
    bool bottomTested = std::find(loop_.latches.begin(), loop_.latches.end(), exiting) != loop_.latches.end() &&
                        exiting != loop_.header;
    return *stays + (bottomTested ? 1 : 0);
  }
  return std::nullopt;
}

}  // namespace

LoopInfo LoopInfo::Build(const ir::Module& module, const DominatorTree& dominators) {
  const auto& blocks = module.function.blocks;
  LoopInfo info;
  info.blockLoop_.assign(blocks.size(), kNone);
  std::vector<uint32_t> loopOfHeader(blocks.size(), kNone);
  for (ir::BlockId b = 0; b < blocks.size(); ++b) {
    for (ir::BlockId s : blocks[b].successors) {
      if (!dominators.Dominates(s, b)) continue;
      if (loopOfHeader[s] == kNone) {
        loopOfHeader[s] = static_cast<uint32_t>(info.loops_.size());
        Loop loop;
        loop.header = s;
        if (blocks[s].mergeKind == ir::MergeKind::Loop) {
          loop.merge = blocks[s].mergeBlock;
          loop.continueTarget = blocks[s].continueTarget;
        }
        info.loops_.push_back(std::move(loop));
      }
      info.loops_[loopOfHeader[s]].latches.push_back(b);
    }
  }
  // Natural loop bodies: everything that reaches a latch backwards without passing the header.
  std::vector<uint8_t> inLoop(blocks.size(), 0);
  for (Loop& loop : info.loops_) {
    std::fill(inLoop.begin(), inLoop.end(), 0);
    inLoop[loop.header] = 1;
    loop.blocks.push_back(loop.header);
    std::vector<ir::BlockId> work(loop.latches.begin(), loop.latches.end());
    while (!work.empty()) {
      ir::BlockId b = work.back();
      work.pop_back();
      if (inLoop[b] || !dominators.IsReachable(b)) continue;
      inLoop[b] = 1;
      loop.blocks.push_back(b);
      for (ir::BlockId p : blocks[b].predecessors) work.push_back(p);
    }
    loop.tripCount = TripCounter(module, loop, inLoop).Count();
  }
  // Nesting: visit larger loops first, so a smaller loop's header still maps to its innermost enclosing loop.
  std::vector<uint32_t> bySize(info.loops_.size());
  for (uint32_t i = 0; i < bySize.size(); ++i) bySize[i] = i;
  std::stable_sort(bySize.begin(), bySize.end(), [&](uint32_t a, uint32_t b) {
    return info.loops_[a].blocks.size() > info.loops_[b].blocks.size();
  });
  for (uint32_t index : bySize) {
    Loop& loop = info.loops_[index];
    loop.parent = info.blockLoop_[loop.header];
    loop.depth = loop.parent == kNone ? 1 : info.loops_[loop.parent].depth + 1;
    for (ir::BlockId b : loop.blocks) info.blockLoop_[b] = index;
  }
  return info;
}

}  // namespace crashtest::analysis
