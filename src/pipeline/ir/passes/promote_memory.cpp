#include "pipeline/ir/passes/promote_memory.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "pipeline/analysis/dominators.h"

namespace crashtest::ir {

namespace {

// A variable whose split would need more parts than this stays in memory: a back end keeps so large an aggregate
// in scratch memory too, and rebuilding it from registers at every whole load would cost more than it saves.
constexpr uint32_t kMaxNodesPerVariable = 256;

struct Candidate {
  ValueId variable = kNone;     // the OpVariable result, or the Private global's value
  ValueId initializer = kNone;  // kNone: undefined at entry
  uint32_t global = kNone;      // index into Module::globals for a Private global
  uint32_t root = kNone;        // its node
  uint32_t nodeCount = 1;
  bool promotable = true;
};

// The parts of a candidate variable its accesses reach: the root is the whole variable; a node that some access
// chain goes through is split into all its children (a whole access to it then needs every child); the leaves
// are the slots, one SSA variable each. Slots are numbered in preorder, so the slots under a node are contiguous.
struct Node {
  TypeId type = kNone;
  uint32_t candidate = kNone;
  uint32_t parent = kNone;
  uint32_t index = 0;            // position in the parent composite
  uint32_t firstChild = kNone;   // children are contiguous
  uint32_t childCount = 0;
  uint32_t slotBegin = 0, slotEnd = 0;
};

// Where a slot's current value came from: part of `value`, which was stored whole to `node`. A whole load of a
// node whose slots all share one origin reuses that value instead of rebuilding it.
struct Origin {
  ValueId value = kNone;
  uint32_t node = kNone;
  bool operator==(const Origin&) const = default;
};

struct NewPhi {
  uint32_t slot;
  Instruction inst;
};

struct Undo {
  uint32_t slot;
  ValueId value;
  Origin origin;
};

bool IsAccessChain(uint16_t op) { return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain; }

class Promoter {
 public:
  explicit Promoter(Module& module) : m_(module), blocks_(module.function.blocks) {}

  bool Run();

 private:
  // Analysis: which variables can be promoted, and how they split.
  void FindCandidates();
  void TraceAccessChains();
  void ClassifyUses();
  bool ConstantIndex(ValueId index, uint64_t* out) const;
  uint32_t ChildOf(uint32_t node, uint64_t index);
  void NumberSlots();
  // SSA construction.
  void PlacePhis(const analysis::DominatorTree& dom);
  void Rename(const analysis::DominatorTree& dom);
  void Visit(BlockId b);
  void RewriteUnreachable(BlockId b);
  void ResolveOperands();
  void RemoveUnusedCreated();
  void Renumber();
  void RemovePromotedGlobals();

  bool Promoted(ValueId pointer) const {
    return pointer < nodeOf_.size() && nodeOf_[pointer] != kNone &&
           candidates_[nodes_[nodeOf_[pointer]].candidate].promotable;
  }
  ValueId Resolve(ValueId v) const {
    while (v < replacement_.size() && replacement_[v] != kNone) v = replacement_[v];
    return v;
  }
  ValueId ReadNode(uint32_t node, std::vector<Instruction>& out);
  void WriteNode(uint32_t node, ValueId value, std::vector<Instruction>& out);
  void SetSlot(uint32_t slot, ValueId value, Origin origin);
  // `value`'s part at `path` (indices below the value's type), folded for constants and undef.
  ValueId Extract(ValueId value, std::span<const uint32_t> path, TypeId type, std::vector<Instruction>& out);
  // Indices from `ancestor` down to `node`.
  void PathBetween(uint32_t ancestor, uint32_t node, std::vector<uint32_t>* path) const;
  bool IsAncestorOrSelf(uint32_t ancestor, uint32_t node) const;

  ValueId NewValue(TypeId type, ValueKind kind, uint32_t owner);
  ValueId Undef(TypeId type);
  ValueId NullConstant(TypeId type);
  ValueId Emit(std::vector<Instruction>& out, uint16_t op, TypeId type, std::span<const ValueId> values,
               std::span<const uint32_t> literals);
  std::vector<uint32_t>& Pool() { return m_.function.operands; }

  Module& m_;
  std::vector<Block>& blocks_;
  size_t originalValueCount_ = 0;
  uint32_t nextSpirvId_ = 0;

  std::vector<Candidate> candidates_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> nodeOf_;       // per original value: the node a candidate pointer names, kNone otherwise
  std::vector<uint32_t> slotNode_;     // per slot: its leaf node
  std::vector<uint8_t> slotRead_;      // per slot: some load reads it
  std::vector<uint32_t> loadedNodes_;
  std::vector<std::pair<uint32_t, BlockId>> storedNodes_;  // (node, block) per store

  std::vector<std::vector<NewPhi>> phis_;  // per block
  std::vector<std::vector<BlockId>> domChildren_;
  std::vector<std::vector<Instruction>> rewritten_;  // per block, the new instruction list
  std::vector<ValueId> current_;   // per slot
  std::vector<Origin> origin_;     // per slot
  std::vector<Undo> undo_;
  std::vector<ValueId> replacement_;  // per original value: what a removed load's uses read instead
  std::vector<Instruction> created_;  // per new value (index - originalValueCount_): its instruction, if any
  std::vector<ValueId> undefOfType_, nullOfType_;
  bool nullsScanned_ = false;
  std::vector<uint32_t> scratchPath_;
};

bool Promoter::Run() {
  if (blocks_.empty() || !blocks_[0].predecessors.empty()) return false;  // the entry must not be a branch target
  originalValueCount_ = m_.values.size();
  FindCandidates();
  if (candidates_.empty()) return false;
  TraceAccessChains();
  ClassifyUses();
  if (std::none_of(candidates_.begin(), candidates_.end(), [](const Candidate& c) { return c.promotable; }))
    return false;
  NumberSlots();
  for (const Value& value : m_.values) nextSpirvId_ = std::max(nextSpirvId_, value.spirvId + 1);
  for (const Block& block : blocks_) nextSpirvId_ = std::max(nextSpirvId_, block.spirvId + 1);
  if (m_.valueNames.size() < m_.values.size()) m_.valueNames.resize(m_.values.size());
  undefOfType_.assign(m_.types.size(), kNone);
  nullOfType_.assign(m_.types.size(), kNone);
  replacement_.assign(originalValueCount_, kNone);

  analysis::DominatorTree dom = analysis::DominatorTree::Build(m_.function);
  PlacePhis(dom);
  Rename(dom);
  for (BlockId b = 0; b < blocks_.size(); ++b)
    if (!dom.IsReachable(b)) RewriteUnreachable(b);
  ResolveOperands();
  RemoveUnusedCreated();
  Renumber();
  RemovePromotedGlobals();
  return true;
}

void Promoter::FindCandidates() {
  for (uint32_t g = 0; g < m_.globals.size(); ++g) {
    const Global& global = m_.globals[g];
    if (global.storageClass != spv::StorageClassPrivate) continue;
    Candidate candidate;
    candidate.variable = global.value;
    candidate.initializer = global.initializer;
    candidate.global = g;
    candidates_.push_back(candidate);
  }
  // "All OpVariable instructions in a function must be the first instructions in the first block" (SPIR-V 2.4).
  for (const Instruction& inst : blocks_[0].instructions) {
    if (inst.op != spv::OpVariable || inst.result == kNone) continue;
    auto operands = m_.Operands(inst);
    if (inst.operandCount <= inst.valueCount || operands[inst.valueCount] != spv::StorageClassFunction) continue;
    Candidate candidate;
    candidate.variable = inst.result;
    if (inst.valueCount > 0) candidate.initializer = operands[0];
    candidates_.push_back(candidate);
  }
  nodeOf_.assign(m_.values.size(), kNone);
  for (uint32_t c = 0; c < candidates_.size(); ++c) {
    Candidate& candidate = candidates_[c];
    const Type& pointer = m_.TypeOf(candidate.variable);
    if (pointer.kind != TypeKind::Pointer || pointer.element >= m_.types.size()) {
      candidate.promotable = false;
      continue;
    }
    candidate.root = static_cast<uint32_t>(nodes_.size());
    Node root;
    root.type = pointer.element;
    root.candidate = c;
    nodes_.push_back(root);
    nodeOf_[candidate.variable] = candidate.root;
  }
  // An initializer may be the address of another module-scope variable (variable pointers): that variable is
  // then reachable through the initialised one and must stay in memory.
  for (const Candidate& candidate : candidates_)
    if (candidate.initializer != kNone && nodeOf_[candidate.initializer] != kNone)
      candidates_[nodes_[nodeOf_[candidate.initializer]].candidate].promotable = false;
}

bool Promoter::ConstantIndex(ValueId index, uint64_t* out) const {
  const Value& value = m_.values[index];
  if (value.kind != ValueKind::Constant || value.type >= m_.types.size()) return false;
  const Type& type = m_.types[value.type];
  const Constant& constant = m_.constants[value.owner];
  if (type.kind != TypeKind::Int || constant.isSpecialization) return false;
  uint64_t bits = constant.isNull ? 0 : constant.bits;
  if (type.isSigned && type.width > 0 && type.width <= 64 && ((bits >> (type.width - 1)) & 1) != 0)
    return false;  // negative: out of range for every composite
  *out = bits;
  return true;
}

// The child of `node` at `index`, splitting the node on first use; kNone when the index is out of range (an
// out-of-bounds constant index is undefined behaviour: leave such a variable alone) or the node too large.
uint32_t Promoter::ChildOf(uint32_t node, uint64_t index) {
  if (nodes_[node].firstChild == kNone) {
    const Type& type = m_.types[nodes_[node].type];
    uint32_t count = 0;
    switch (type.kind) {
      case TypeKind::Struct: count = static_cast<uint32_t>(type.members.size()); break;
      case TypeKind::Array: case TypeKind::Vector: case TypeKind::Matrix: count = type.count; break;
      default: return kNone;
    }
    Candidate& candidate = candidates_[nodes_[node].candidate];
    if (count == 0 || candidate.nodeCount + count > kMaxNodesPerVariable) return kNone;
    candidate.nodeCount += count;
    uint32_t first = static_cast<uint32_t>(nodes_.size());
    for (uint32_t i = 0; i < count; ++i) {
      Node child;
      child.type = type.kind == TypeKind::Struct ? type.members[i] : type.element;
      child.candidate = nodes_[node].candidate;
      child.parent = node;
      child.index = i;
      nodes_.push_back(child);
    }
    nodes_[node].firstChild = first;
    nodes_[node].childCount = count;
  }
  if (index >= nodes_[node].childCount) return kNone;
  return nodes_[node].firstChild + static_cast<uint32_t>(index);
}

// Gives every access chain into a candidate its node. Blocks are in dominance order, so a chain's base is
// normally traced before it; the retry loop covers chains in unreachable blocks, where SPIR-V allows any order.
void Promoter::TraceAccessChains() {
  std::vector<const Instruction*> pending;
  for (const Block& block : blocks_)
    for (const Instruction& inst : block.instructions)
      if (IsAccessChain(inst.op) && inst.valueCount > 0 && inst.result != kNone) pending.push_back(&inst);
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    size_t kept = 0;
    for (const Instruction* inst : pending) {
      auto operands = m_.Operands(*inst);
      uint32_t node = nodeOf_[operands[0]];
      if (node == kNone) {
        pending[kept++] = inst;
        continue;
      }
      progress = true;
      Candidate& candidate = candidates_[nodes_[node].candidate];
      if (!candidate.promotable) continue;
      for (uint32_t k = 1; k < inst->valueCount && node != kNone; ++k) {
        uint64_t index;
        node = ConstantIndex(operands[k], &index) ? ChildOf(node, index) : kNone;
      }
      if (node == kNone || m_.types[inst->type].element != nodes_[node].type) {
        candidate.promotable = false;  // dynamic or out-of-range index: the variable stays in memory
        continue;
      }
      nodeOf_[inst->result] = node;
    }
    pending.resize(kept);
  }
}

void Promoter::ClassifyUses() {
  auto plainAccess = [&](const Instruction& inst, uint32_t memoryOperand) {
    // Memory operands: Volatile must stay a memory access; the rest (Aligned, Nontemporal, ...) mean nothing for
    // a value in a register. Scope operands of MakePointer* would be extra values.
    auto operands = m_.Operands(inst);
    if (inst.operandCount <= memoryOperand) return true;
    return (operands[memoryOperand] & spv::MemoryAccessVolatileMask) == 0;
  };
  for (BlockId b = 0; b < blocks_.size(); ++b) {
    for (const Instruction& inst : blocks_[b].instructions) {
      auto operands = m_.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        uint32_t node = nodeOf_[operands[k]];
        if (node == kNone) continue;
        Candidate& candidate = candidates_[nodes_[node].candidate];
        if (!candidate.promotable) continue;
        bool ok = false;
        if (IsAccessChain(inst.op)) {
          ok = k == 0 && nodeOf_[inst.result] != kNone;
        } else if (inst.op == spv::OpLoad) {
          ok = k == 0 && inst.valueCount == 1 && inst.type == nodes_[node].type && plainAccess(inst, 1);
          if (ok) loadedNodes_.push_back(node);
        } else if (inst.op == spv::OpStore) {
          ok = k == 0 && inst.valueCount == 2 && m_.values[operands[1]].type == nodes_[node].type &&
               plainAccess(inst, 2);
          if (ok) storedNodes_.push_back({node, b});
        }
        if (!ok) candidate.promotable = false;  // the pointer escapes into another instruction
      }
    }
  }
}

void Promoter::NumberSlots() {
  uint32_t slots = 0;
  std::vector<std::pair<uint32_t, bool>> stack;  // (node, children done)
  for (const Candidate& candidate : candidates_) {
    if (!candidate.promotable) continue;
    stack.push_back({candidate.root, false});
    while (!stack.empty()) {
      auto [node, done] = stack.back();
      stack.pop_back();
      Node& n = nodes_[node];
      if (done) {
        n.slotEnd = slots;
        continue;
      }
      n.slotBegin = slots;
      if (n.firstChild == kNone) {
        slotNode_.push_back(node);
        n.slotEnd = ++slots;
        continue;
      }
      stack.push_back({node, true});
      for (uint32_t c = n.childCount; c-- > 0;) stack.push_back({n.firstChild + c, false});
    }
  }
  slotRead_.assign(slots, 0);
  for (uint32_t node : loadedNodes_)
    if (candidates_[nodes_[node].candidate].promotable)
      std::fill(slotRead_.begin() + nodes_[node].slotBegin, slotRead_.begin() + nodes_[node].slotEnd, 1);
  current_.assign(slots, kNone);
  origin_.assign(slots, Origin{});
}

// Phis at the iterated dominance frontier of each read slot's stores (Cytron et al.); the entry's initial value
// needs none (the entry dominates every block). Phis nothing reads are removed at the end.
void Promoter::PlacePhis(const analysis::DominatorTree& dom) {
  size_t n = blocks_.size();
  std::vector<std::vector<BlockId>> frontier(n);
  for (BlockId b : dom.ReversePostOrder()) {
    if (blocks_[b].predecessors.size() < 2) continue;
    for (BlockId p : blocks_[b].predecessors) {
      if (!dom.IsReachable(p)) continue;
      for (BlockId runner = p; runner != kNone && runner != dom.ImmediateDominator(b);
           runner = dom.ImmediateDominator(runner)) {
        auto& df = frontier[runner];
        if (df.empty() || df.back() != b) df.push_back(b);
      }
    }
  }
  std::vector<std::pair<uint32_t, BlockId>> defs;  // (slot, block)
  for (auto [node, block] : storedNodes_) {
    const Node& stored = nodes_[node];
    if (!candidates_[stored.candidate].promotable || !dom.IsReachable(block)) continue;
    for (uint32_t slot = stored.slotBegin; slot < stored.slotEnd; ++slot)
      if (slotRead_[slot]) defs.push_back({slot, block});
  }
  std::sort(defs.begin(), defs.end());
  defs.erase(std::unique(defs.begin(), defs.end()), defs.end());
  phis_.resize(n);
  std::vector<uint32_t> hasPhi(n, kNone), queued(n, kNone);
  std::vector<BlockId> worklist;
  for (size_t i = 0; i < defs.size();) {
    uint32_t slot = defs[i].first;
    worklist.clear();
    for (; i < defs.size() && defs[i].first == slot; ++i) {
      queued[defs[i].second] = slot;
      worklist.push_back(defs[i].second);
    }
    TypeId type = nodes_[slotNode_[slot]].type;
    ValueId variable = candidates_[nodes_[slotNode_[slot]].candidate].variable;
    while (!worklist.empty()) {
      BlockId d = worklist.back();
      worklist.pop_back();
      for (BlockId f : frontier[d]) {
        if (hasPhi[f] == slot) continue;
        hasPhi[f] = slot;
        // One (value, block) pair per predecessor; values are filled in while renaming the predecessors, and
        // unreachable predecessors keep undef.
        const auto& preds = blocks_[f].predecessors;
        Instruction phi;
        phi.op = spv::OpPhi;
        phi.valueCount = static_cast<uint16_t>(preds.size());
        phi.operandCount = static_cast<uint16_t>(preds.size() * 2);
        phi.type = type;
        phi.firstOperand = static_cast<uint32_t>(Pool().size());
        Pool().insert(Pool().end(), preds.size(), Undef(type));
        Pool().insert(Pool().end(), preds.begin(), preds.end());
        phi.result = NewValue(type, ValueKind::Instruction, f);
        m_.valueNames[phi.result] = m_.valueNames[variable];
        created_[phi.result - originalValueCount_] = phi;
        phis_[f].push_back({slot, phi});
        if (queued[f] != slot) {
          queued[f] = slot;
          worklist.push_back(f);
        }
      }
    }
  }
}

// Renaming along the dominator tree in preorder, with an undo log restoring the slots' values on the way up.
void Promoter::Rename(const analysis::DominatorTree& dom) {
  rewritten_.resize(blocks_.size());
  domChildren_.resize(blocks_.size());
  for (BlockId b : dom.ReversePostOrder())
    if (dom.ImmediateDominator(b) != kNone) domChildren_[dom.ImmediateDominator(b)].push_back(b);
  struct Frame {
    BlockId block;
    size_t undoMark;
    size_t nextChild;
  };
  std::vector<Frame> stack;
  stack.push_back({0, undo_.size(), 0});
  Visit(0);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.nextChild < domChildren_[top.block].size()) {
      BlockId child = domChildren_[top.block][top.nextChild++];
      size_t mark = undo_.size();
      Visit(child);
      stack.push_back({child, mark, 0});
      continue;
    }
    for (size_t i = undo_.size(); i-- > top.undoMark;) {
      current_[undo_[i].slot] = undo_[i].value;
      origin_[undo_[i].slot] = undo_[i].origin;
    }
    undo_.resize(top.undoMark);
    stack.pop_back();
  }
}

void Promoter::Visit(BlockId b) {
  const Block& block = blocks_[b];
  std::vector<Instruction>& out = rewritten_[b];
  out.reserve(block.instructions.size() + phis_[b].size());
  size_t i = 0;
  for (; i < block.instructions.size() && block.instructions[i].op == spv::OpPhi; ++i)
    out.push_back(block.instructions[i]);
  for (const NewPhi& phi : phis_[b]) {
    out.push_back(phi.inst);
    SetSlot(phi.slot, phi.inst.result, Origin{});
  }
  if (b == 0) {
    // Function variables are initialised where they are declared, at the start of the entry block; a Private
    // variable holds its initializer when the invocation starts ("Private: ... visible across all functions in
    // the current invocation"); without an initializer the content is undefined.
    for (const Candidate& candidate : candidates_)
      if (candidate.promotable)
        WriteNode(candidate.root,
                  candidate.initializer != kNone ? candidate.initializer : Undef(nodes_[candidate.root].type), out);
  }
  for (; i < block.instructions.size(); ++i) {
    const Instruction& inst = block.instructions[i];
    auto operands = m_.Operands(inst);
    if ((inst.op == spv::OpVariable || IsAccessChain(inst.op)) && Promoted(inst.result)) continue;
    if (inst.op == spv::OpLoad && Promoted(operands[0])) {
      replacement_[inst.result] = ReadNode(nodeOf_[operands[0]], out);
      continue;
    }
    if (inst.op == spv::OpStore && Promoted(operands[0])) {
      WriteNode(nodeOf_[operands[0]], Resolve(operands[1]), out);
      continue;
    }
    out.push_back(inst);
  }
  for (BlockId s : block.successors) {
    const auto& preds = blocks_[s].predecessors;
    size_t position = static_cast<size_t>(std::find(preds.begin(), preds.end(), b) - preds.begin());
    if (position == preds.size()) continue;  // inconsistent CFG lists: leave undef rather than write elsewhere
    for (const NewPhi& phi : phis_[s]) Pool()[phi.inst.firstOperand + position] = current_[phi.slot];
  }
}

// Nothing reaches these blocks: their loads read undef, their stores vanish.
void Promoter::RewriteUnreachable(BlockId b) {
  std::vector<Instruction>& out = rewritten_[b];
  for (const Instruction& inst : blocks_[b].instructions) {
    auto operands = m_.Operands(inst);
    if ((inst.op == spv::OpVariable || IsAccessChain(inst.op)) && Promoted(inst.result)) continue;
    if (inst.op == spv::OpStore && Promoted(operands[0])) continue;
    if (inst.op == spv::OpLoad && Promoted(operands[0])) {
      replacement_[inst.result] = Undef(inst.type);
      continue;
    }
    out.push_back(inst);
  }
}

ValueId Promoter::ReadNode(uint32_t node, std::vector<Instruction>& out) {
  const Node& n = nodes_[node];
  if (n.firstChild == kNone) return current_[n.slotBegin];
  Origin origin = origin_[n.slotBegin];
  if (origin.value != kNone && IsAncestorOrSelf(origin.node, node) &&
      std::all_of(origin_.begin() + n.slotBegin, origin_.begin() + n.slotEnd,
                  [&](const Origin& o) { return o == origin; })) {
    if (origin.node == node) return origin.value;
    PathBetween(origin.node, node, &scratchPath_);
    return Extract(origin.value, scratchPath_, n.type, out);
  }
  std::vector<ValueId> parts(n.childCount);
  for (uint32_t c = 0; c < n.childCount; ++c) parts[c] = ReadNode(n.firstChild + c, out);
  return Emit(out, spv::OpCompositeConstruct, n.type, parts, {});
}

void Promoter::WriteNode(uint32_t node, ValueId value, std::vector<Instruction>& out) {
  const Node& n = nodes_[node];
  Origin origin{value, node};
  if (n.firstChild == kNone) {
    SetSlot(n.slotBegin, value, origin);
    return;
  }
  for (uint32_t slot = n.slotBegin; slot < n.slotEnd; ++slot) {
    if (!slotRead_[slot]) {
      SetSlot(slot, kNone, origin);  // never read: no extract
      continue;
    }
    PathBetween(node, slotNode_[slot], &scratchPath_);
    SetSlot(slot, Extract(value, scratchPath_, nodes_[slotNode_[slot]].type, out), origin);
  }
}

void Promoter::SetSlot(uint32_t slot, ValueId value, Origin origin) {
  undo_.push_back({slot, current_[slot], origin_[slot]});
  current_[slot] = value;
  origin_[slot] = origin;
}

ValueId Promoter::Extract(ValueId value, std::span<const uint32_t> path, TypeId type, std::vector<Instruction>& out) {
  size_t k = 0;
  for (; k < path.size(); ++k) {
    const Value& v = m_.values[value];
    if (v.kind == ValueKind::Undef) return Undef(type);
    if (v.kind == ValueKind::Constant) {
      const Constant& constant = m_.constants[v.owner];
      if (constant.isNull) return NullConstant(type);
      if (path[k] >= constant.constituents.size()) break;
      value = constant.constituents[path[k]];
      continue;
    }
    // Part of a composite built by OpCompositeConstruct: the constituent itself, when there is one constituent
    // per element (a vector may also be built from smaller vectors). The original blocks are untouched until
    // Renumber, so an original value's owner and index still find its instruction.
    const Instruction* construct = nullptr;
    if (value >= originalValueCount_) {
      construct = &created_[value - originalValueCount_];
    } else if (v.kind == ValueKind::Instruction && v.owner != kNone) {
      construct = &blocks_[v.owner].instructions[v.index];
    }
    if (construct == nullptr || construct->op != spv::OpCompositeConstruct) break;
    const Type& composite = m_.types[v.type];
    uint32_t elements = composite.kind == TypeKind::Struct ? static_cast<uint32_t>(composite.members.size())
                                                           : composite.count;
    if (construct->valueCount != elements || path[k] >= elements) break;
    value = Resolve(Pool()[construct->firstOperand + path[k]]);
  }
  if (k == path.size()) return value;
  return Emit(out, spv::OpCompositeExtract, type, std::span<const ValueId>(&value, 1), path.subspan(k));
}

void Promoter::PathBetween(uint32_t ancestor, uint32_t node, std::vector<uint32_t>* path) const {
  path->clear();
  for (; node != ancestor; node = nodes_[node].parent) path->push_back(nodes_[node].index);
  std::reverse(path->begin(), path->end());
}

bool Promoter::IsAncestorOrSelf(uint32_t ancestor, uint32_t node) const {
  for (; node != kNone; node = nodes_[node].parent)
    if (node == ancestor) return true;
  return false;
}

ValueId Promoter::NewValue(TypeId type, ValueKind kind, uint32_t owner) {
  m_.values.push_back({type, kind, owner, kNone, nextSpirvId_++});
  m_.valueNames.emplace_back();
  created_.emplace_back();
  return static_cast<ValueId>(m_.values.size() - 1);
}

ValueId Promoter::Undef(TypeId type) {
  if (undefOfType_[type] == kNone) undefOfType_[type] = NewValue(type, ValueKind::Undef, kNone);
  return undefOfType_[type];
}

ValueId Promoter::NullConstant(TypeId type) {
  if (!nullsScanned_) {
    nullsScanned_ = true;
    for (const Constant& constant : m_.constants)
      if (constant.isNull && nullOfType_[m_.values[constant.value].type] == kNone)
        nullOfType_[m_.values[constant.value].type] = constant.value;
  }
  if (nullOfType_[type] == kNone) {
    Constant constant;
    constant.isNull = true;
    constant.value = NewValue(type, ValueKind::Constant, static_cast<uint32_t>(m_.constants.size()));
    m_.constants.push_back(constant);
    nullOfType_[type] = constant.value;
  }
  return nullOfType_[type];
}

ValueId Promoter::Emit(std::vector<Instruction>& out, uint16_t op, TypeId type, std::span<const ValueId> values,
                       std::span<const uint32_t> literals) {
  Instruction inst;
  inst.op = op;
  inst.valueCount = static_cast<uint16_t>(values.size());
  inst.operandCount = static_cast<uint16_t>(values.size() + literals.size());
  inst.type = type;
  inst.firstOperand = static_cast<uint32_t>(Pool().size());
  Pool().insert(Pool().end(), values.begin(), values.end());
  Pool().insert(Pool().end(), literals.begin(), literals.end());
  inst.result = NewValue(type, ValueKind::Instruction, kNone);
  created_[inst.result - originalValueCount_] = inst;
  out.push_back(inst);
  return inst.result;
}

// Uses of removed loads now read the value the load would have returned.
void Promoter::ResolveOperands() {
  for (auto& instructions : rewritten_)
    for (Instruction& inst : instructions)
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        uint32_t& operand = Pool()[inst.firstOperand + k];
        operand = Resolve(operand);
      }
}

// Phis, extracts and constructs the pass made that no original instruction needs, directly or through each
// other (including cycles of phis only used by each other), are removed: the result is pruned SSA.
void Promoter::RemoveUnusedCreated() {
  std::vector<uint8_t> live(created_.size(), 0);
  std::vector<ValueId> worklist;
  auto use = [&](ValueId v) {
    if (v < originalValueCount_) return;
    size_t i = v - originalValueCount_;
    if (live[i] || created_[i].result == kNone) return;
    live[i] = 1;
    worklist.push_back(v);
  };
  for (const auto& instructions : rewritten_)
    for (const Instruction& inst : instructions) {
      if (inst.result != kNone && inst.result >= originalValueCount_) continue;
      for (uint32_t k = 0; k < inst.valueCount; ++k) use(Pool()[inst.firstOperand + k]);
    }
  while (!worklist.empty()) {
    const Instruction& inst = created_[worklist.back() - originalValueCount_];
    worklist.pop_back();
    for (uint32_t k = 0; k < inst.valueCount; ++k) use(Pool()[inst.firstOperand + k]);
  }
  for (auto& instructions : rewritten_)
    std::erase_if(instructions, [&](const Instruction& inst) {
      return inst.result != kNone && inst.result >= originalValueCount_ && !live[inst.result - originalValueCount_];
    });
}

void Promoter::Renumber() {
  for (BlockId b = 0; b < blocks_.size(); ++b)
    for (const Instruction& inst : blocks_[b].instructions)
      if (inst.result != kNone) m_.values[inst.result].owner = m_.values[inst.result].index = kNone;
  for (ValueId v = static_cast<ValueId>(originalValueCount_); v < m_.values.size(); ++v)
    if (m_.values[v].kind == ValueKind::Instruction) m_.values[v].owner = m_.values[v].index = kNone;
  for (BlockId b = 0; b < blocks_.size(); ++b) {
    blocks_[b].instructions = std::move(rewritten_[b]);
    const auto& instructions = blocks_[b].instructions;
    for (uint32_t i = 0; i < instructions.size(); ++i) {
      if (instructions[i].result == kNone) continue;
      m_.values[instructions[i].result].owner = b;
      m_.values[instructions[i].result].index = i;
    }
  }
}

// A promoted Private global leaves the module: Module::globals loses it (later globals move down) and so does
// the entry point's interface (SPIR-V 1.4+ lists every global the entry point uses there).
void Promoter::RemovePromotedGlobals() {
  std::vector<uint8_t> removed(m_.globals.size(), 0);
  bool any = false;
  for (const Candidate& candidate : candidates_)
    if (candidate.promotable && candidate.global != kNone) removed[candidate.global] = any = true;
  if (!any) return;
  std::vector<Global> kept;
  kept.reserve(m_.globals.size());
  for (uint32_t g = 0; g < m_.globals.size(); ++g) {
    Value& value = m_.values[m_.globals[g].value];
    if (removed[g]) {
      value.owner = kNone;
      continue;
    }
    value.owner = static_cast<uint32_t>(kept.size());
    kept.push_back(std::move(m_.globals[g]));
  }
  m_.globals = std::move(kept);
  std::erase_if(m_.entryPoint.interface, [&](ValueId v) {
    return m_.values[v].kind == ValueKind::Global && m_.values[v].owner == kNone;
  });
}

}  // namespace

bool PromoteMemoryToRegisters(Module& module) {
  Promoter promoter(module);
  return promoter.Run();
}

}  // namespace crashtest::ir
