#include "execution/executable_builder.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unordered_map>

#include "execution/ops/ops.h"
#include "execution/type_layout.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::execution {
namespace {

using ir::kNone;

bool IsExplicit(uint32_t storageClass) {
  return storageClass == spv::StorageClassStorageBuffer || storageClass == spv::StorageClassUniform ||
         storageClass == spv::StorageClassPushConstant || storageClass == spv::StorageClassPhysicalStorageBuffer;
}

bool IsPrivateMemory(uint32_t storageClass) {
  return storageClass == spv::StorageClassFunction || storageClass == spv::StorageClassPrivate ||
         storageClass == spv::StorageClassInput || storageClass == spv::StorageClassOutput;
}

class Builder {
 public:
  Builder(const ir::Module& module, Executable& out, std::string* message)
      : m_(module), x_(out), message_(message), layout_(module), slot_(module.values.size(), kNone),
        patchedGlobal_(module.values.size(), false) {}

  bool Run();

 private:
  bool Fail(const ir::Instruction& inst, const char* what);
  bool FailText(const std::string& text) {
    *message_ = text;
    return false;
  }
  uint32_t NewSlots(uint32_t count) {
    uint32_t first = x_.slotCount;
    x_.slotCount += count;
    return first;
  }
  uint32_t Slot(ir::ValueId v) const { return slot_[v]; }
  const ir::Type& TypeOf(ir::ValueId v) const { return m_.types[m_.values[v].type]; }
  uint32_t StorageClassOf(ir::ValueId pointer) const { return TypeOf(pointer).storageClass; }

  bool AssignConstants();
  bool WriteConstant(ir::ValueId v);
  bool AssignGlobals();
  bool AssignFunctionVariables();
  // A graphics stage's input or output variable at private word `word`: its built-ins and locations.
  bool AssignInterface(const ir::Global& global, ir::TypeId pointee, uint32_t word, uint32_t words);
  bool AddLocations(const ir::Global& global, ir::TypeId type, uint32_t* location, uint32_t word,
                    std::vector<InterfaceSlot>* out);
  void AssignResults();
  void OrderBlocks();
  bool EmitBlock(ir::BlockId irBlock);
  bool EmitInstruction(const ir::Instruction& inst, uint32_t irBlock, uint32_t irIndex);
  bool EmitTerminator(const ir::Instruction& inst, ir::BlockId irBlock, BlockCode& code);
  uint32_t AddEdge(ir::BlockId from, ir::BlockId to);
  void Emit(OpHandler fn, uint32_t dst, uint32_t a, uint32_t b, uint32_t c, uint32_t n, uint32_t aux) {
    Op op;
    op.fn = fn;
    op.dst = dst, op.a = a, op.b = b, op.c = c, op.n = n, op.aux = aux;
    op.site = site_;
    x_.ops.push_back(op);
  }
  bool EmitAccessChain(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitMemoryAccess(const ir::Instruction& inst, bool store, ir::ValueId pointer, uint32_t valueSlot,
                        uint32_t resultSlot);
  uint32_t AccessFor(ir::TypeId pointee, uint32_t matrixLayout, std::string* why);
  bool EmitExtInst(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitAtomic(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitSubgroup(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitImage(const ir::Instruction& inst, std::span<const uint32_t> operands);
  const ir::Type* ImageTypeOf(ir::ValueId v) const;

  const ir::Module& m_;
  Executable& x_;
  std::string* message_;
  TypeLayout layout_;
  std::vector<uint32_t> slot_;         // per ValueId: first slot (kNone: none)
  std::vector<uint32_t> position_;     // per IR block: position in x_.blocks (kNone: unreachable)
  std::vector<ir::BlockId> order_;     // IR blocks in structured order
  uint32_t zeroSlot_ = 0;
  uint32_t site_ = 0;
  std::vector<std::pair<ir::ValueId, ir::ValueId>> privateInits_;  // (global, initialiser)
  std::vector<bool> patchedGlobal_;    // per ValueId: a global whose pointer is set per dispatch (runtime arrays)
  // Pointers into explicit memory that point at a matrix (or an array of them, or a row-major matrix's column):
  // the matrix layout (type_layout.h) their access chain passed through, which the pointer type does not carry.
  std::unordered_map<ir::ValueId, uint32_t> matrixLayouts_;
};

bool Builder::Fail(const ir::Instruction& inst, const char* what) {
  char text[200];
  uint32_t id = inst.result != kNone ? m_.values[inst.result].spirvId : 0;
  const char* space = *what != '\0' ? " " : "";
  if (id != 0)
    std::snprintf(text, sizeof text, "%s%s%s (result %%%u)", what, space, spirv::OpcodeName(inst.op), id);
  else
    std::snprintf(text, sizeof text, "%s%s%s", what, space, spirv::OpcodeName(inst.op));
  *message_ = text;
  return false;
}

// Constants, undefined values, global pointers and function variables: slots whose contents are fixed for the
// whole dispatch, written once per worker (Executable::constantWords).
bool Builder::AssignConstants() {
  zeroSlot_ = NewSlots(2);
  for (ir::ValueId v = 0; v < m_.values.size(); ++v) {
    const ir::Value& value = m_.values[v];
    if (value.kind != ir::ValueKind::Constant && value.kind != ir::ValueKind::Undef) continue;
    if (value.type == kNone) continue;
    uint32_t slots = layout_.Slots(value.type);
    if (slots == 0) continue;
    slot_[v] = NewSlots(slots);
  }
  x_.constantWords.assign(x_.slotCount, 0);
  for (ir::ValueId v = 0; v < m_.values.size(); ++v)
    if (slot_[v] != kNone && !WriteConstant(v)) return false;
  return true;
}

bool Builder::WriteConstant(ir::ValueId v) {
  const ir::Value& value = m_.values[v];
  if (value.kind == ir::ValueKind::Undef) return true;  // undefined: zero
  const ir::Constant& constant = m_.constants[value.owner];
  uint32_t* words = x_.constantWords.data() + slot_[v];
  if (constant.isNull) return true;
  if (constant.constituents.empty()) {
    words[0] = static_cast<uint32_t>(constant.bits);
    if (layout_.Slots(value.type) == 2) words[1] = static_cast<uint32_t>(constant.bits >> 32);
    return true;
  }
  uint32_t at = 0;
  for (ir::ValueId part : constant.constituents) {
    const uint32_t n = layout_.Slots(m_.values[part].type);
    if (slot_[part] == kNone) return FailText("a constant refers to a value with no register form");
    for (uint32_t i = 0; i < n; ++i) words[at + i] = x_.constantWords[slot_[part] + i];
    at += n;
  }
  return true;
}

bool Builder::AssignGlobals() {
  uint32_t nextDescriptor = 1;  // slot 0: push constants
  for (size_t g = 0; g < m_.globals.size(); ++g) {
    const ir::Global& global = m_.globals[g];
    if (global.value == kNone) continue;
    const ir::Type& pointer = m_.types[m_.values[global.value].type];
    const ir::TypeId pointee = pointer.element;
    uint64_t initial = 0;
    switch (global.storageClass) {
      case spv::StorageClassStorageBuffer:
      case spv::StorageClassUniform: {
        BufferBinding binding;
        binding.set = global.set, binding.binding = global.binding;
        binding.uniform = global.storageClass == spv::StorageClassUniform;
        binding.global = static_cast<uint32_t>(g);
        const ir::Type& t = m_.types[pointee];
        if (t.kind == ir::TypeKind::Array) binding.count = t.count;
        if (t.kind == ir::TypeKind::RuntimeArray && m_.types[t.element].kind == ir::TypeKind::Struct) {
          binding.count = 0;  // placed and patched per dispatch
          binding.pointerSlot = NewSlots(2);
          slot_[global.value] = binding.pointerSlot;
          patchedGlobal_[global.value] = true;
          x_.buffers.push_back(binding);
          x_.constantWords.resize(x_.slotCount, 0);
          continue;
        }
        binding.firstSlot = nextDescriptor;
        nextDescriptor += binding.count;
        x_.buffers.push_back(binding);
        initial = uint64_t{binding.firstSlot} << 40;
        break;
      }
      case spv::StorageClassPushConstant:
        initial = 0;
        break;
      case spv::StorageClassWorkgroup:
        initial = x_.sharedWords;
        x_.sharedWords += layout_.Slots(pointee);
        break;
      case spv::StorageClassInput:
      case spv::StorageClassOutput:
      case spv::StorageClassPrivate: {
        initial = x_.privateWords;
        const uint32_t words = layout_.Slots(pointee);
        x_.privateWords += words;
        if (global.storageClass == spv::StorageClassInput || global.storageClass == spv::StorageClassOutput) {
          if (!AssignInterface(global, pointee, static_cast<uint32_t>(initial), words)) return false;
        }
        if (global.initializer != kNone) privateInits_.push_back({global.value, global.initializer});
        break;
      }
      case spv::StorageClassUniformConstant: {
        // Images, samplers, sampled images and texel buffers (or arrays of them): entries of the image table.
        const ir::Type* t = &m_.types[pointee];
        ImageBinding binding;
        binding.set = global.set, binding.binding = global.binding;
        binding.global = static_cast<uint32_t>(g);
        const bool runtime = t->kind == ir::TypeKind::RuntimeArray;
        if (t->kind == ir::TypeKind::Array || runtime) {
          binding.count = runtime ? 0 : t->count;
          t = &m_.types[t->element];
        }
        if (t->kind != ir::TypeKind::Image && t->kind != ir::TypeKind::Sampler &&
            t->kind != ir::TypeKind::SampledImage)
          return FailText("a UniformConstant variable that is not an image or sampler (\"" + global.name + "\")");
        if (runtime) {  // placed and patched per dispatch
          binding.pointerSlot = NewSlots(2);
          slot_[global.value] = binding.pointerSlot;
          patchedGlobal_[global.value] = true;
          x_.images.push_back(binding);
          x_.constantWords.resize(x_.slotCount, 0);
          continue;
        }
        binding.firstSlot = x_.imageSlots;
        x_.imageSlots += binding.count;
        x_.images.push_back(binding);
        initial = binding.firstSlot;
        break;
      }
      default:
        // Acceleration structures and the like: only a failure when the shader uses them (the IR passes drop
        // unused globals).
        return FailText("a variable of this storage class (\"" + global.name + "\")");
    }
    slot_[global.value] = NewSlots(2);
    x_.constantWords.resize(x_.slotCount, 0);
    x_.constantWords[slot_[global.value]] = static_cast<uint32_t>(initial);
    x_.constantWords[slot_[global.value] + 1] = static_cast<uint32_t>(initial >> 32);
  }
  x_.bufferSlots = nextDescriptor;
  return true;
}

// OpVariable in the function: one private-memory block per variable (there is no recursion); the pointer is
// fixed, so it is a constant slot.
bool Builder::AssignFunctionVariables() {
  for (const ir::Block& block : m_.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op != spv::OpVariable || inst.result == kNone) continue;
      const ir::Type& pointer = m_.types[inst.type];
      const uint32_t words = layout_.Slots(pointer.element);
      const uint32_t at = x_.privateWords;
      x_.privateWords += words;
      slot_[inst.result] = NewSlots(2);
      x_.constantWords.resize(x_.slotCount, 0);
      x_.constantWords[slot_[inst.result]] = at;
    }
  return true;
}

void Builder::AssignResults() {
  for (const ir::Block& block : m_.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.result == kNone || slot_[inst.result] != kNone || inst.type == kNone) continue;
      uint32_t slots = layout_.Slots(inst.type);
      if (slots == 0) continue;
      slot_[inst.result] = NewSlots(slots);
    }
}

// Structured order: a depth-first walk that visits a header's merge block first and its continue target next, so
// in reverse post-order everything inside a construct comes before its merge block and a loop's continue
// construct after its body. Only loop back edges then point backwards.
void Builder::OrderBlocks() {
  const auto& blocks = m_.function.blocks;
  std::vector<uint8_t> state(blocks.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<ir::BlockId> post;
  struct Frame {
    ir::BlockId block;
    std::vector<ir::BlockId> next;
  };
  std::vector<Frame> stack;
  auto push = [&](ir::BlockId b) {
    state[b] = 1;
    Frame frame{b, {}};
    const ir::Block& block = blocks[b];
    // Visited last to first: regular successors, then the continue target, then the merge block (popped first).
    for (auto it = block.successors.rbegin(); it != block.successors.rend(); ++it) frame.next.push_back(*it);
    std::reverse(frame.next.begin(), frame.next.end());
    if (block.continueTarget != kNone) frame.next.push_back(block.continueTarget);
    if (block.mergeBlock != kNone) frame.next.push_back(block.mergeBlock);
    stack.push_back(std::move(frame));
  };
  push(0);
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next.empty()) {
      state[top.block] = 2;
      post.push_back(top.block);
      stack.pop_back();
      continue;
    }
    ir::BlockId n = top.next.back();
    top.next.pop_back();
    if (n < blocks.size() && state[n] == 0) push(n);
  }
  order_.assign(post.rbegin(), post.rend());
  position_.assign(blocks.size(), kNone);
  for (uint32_t i = 0; i < order_.size(); ++i) position_[order_[i]] = i;
}

bool Builder::Run() {
  const ir::EntryPoint& entry = m_.entryPoint;
  x_.entryPoint = entry.name;
  x_.executionModel = entry.executionModel;
  x_.sourceFiles = m_.sourceFiles;
  for (int i = 0; i < 3; ++i) x_.localSize[i] = std::max(1u, entry.localSize[i]);
  if (m_.function.blocks.empty()) return FailText("a shader without a body");
  if (!AssignConstants()) return false;
  if (!AssignGlobals()) return false;
  if (!AssignFunctionVariables()) return false;
  const uint32_t fixedSlots = x_.slotCount;
  x_.constantWords.resize(fixedSlots, 0);
  AssignResults();
  OrderBlocks();
  x_.blocks.resize(order_.size());
  for (uint32_t i = 0; i < order_.size(); ++i)
    if (!EmitBlock(order_[i])) return false;
  // Scratch for parallel phi copies.
  x_.tempSlot = NewSlots(x_.tempSlots);
  return true;
}

bool Builder::AssignInterface(const ir::Global& global, ir::TypeId pointee, uint32_t word, uint32_t words) {
  const bool input = global.storageClass == spv::StorageClassInput;
  if (global.builtIn != kNone) {
    if (input)
      x_.builtins.push_back(BuiltinInput{global.builtIn, word, words});
    else
      x_.builtinOutputs.push_back(BuiltinOutput{global.builtIn, word, words});
    return true;
  }
  const ir::Type& t = m_.types[pointee];
  if (t.kind == ir::TypeKind::Struct && !t.memberBuiltIns.empty() && t.memberBuiltIns[0] != kNone) {
    // gl_PerVertex and the like: a block of built-ins, one per member.
    uint32_t at = word;
    for (size_t i = 0; i < t.members.size(); ++i) {
      const uint32_t memberWords = layout_.Slots(t.members[i]);
      if (i < t.memberBuiltIns.size() && t.memberBuiltIns[i] != kNone) {
        if (input)
          x_.builtins.push_back(BuiltinInput{t.memberBuiltIns[i], at, memberWords});
        else
          x_.builtinOutputs.push_back(BuiltinOutput{t.memberBuiltIns[i], at, memberWords});
      }
      at += memberWords;
    }
    return true;
  }
  if (m_.entryPoint.executionModel == spv::ExecutionModelGLCompute ||
      m_.entryPoint.executionModel == spv::ExecutionModelKernel)
    return FailText("an input variable without a BuiltIn decoration (\"" + global.name + "\")");
  if (m_.entryPoint.executionModel != spv::ExecutionModelVertex &&
      m_.entryPoint.executionModel != spv::ExecutionModelFragment)
    return FailText("tessellation and geometry stages");
  if (global.location == kNone)
    return FailText("an interface block without Location decorations (\"" + global.name + "\")");
  uint32_t location = global.location;
  return AddLocations(global, pointee, &location, word, input ? &x_.inputs : &x_.outputs);
}

// "Location Assignment" (Vulkan 1.3, 15.1.4): each array element, matrix column and struct member takes the next
// location; 32-bit scalars and vectors take one each. 64-bit vectors of three or four components would take two:
// not executed yet.
bool Builder::AddLocations(const ir::Global& global, ir::TypeId type, uint32_t* location, uint32_t word,
                           std::vector<InterfaceSlot>* out) {
  const ir::Type& t = m_.types[type];
  switch (t.kind) {
    case ir::TypeKind::Array:
    case ir::TypeKind::Matrix: {
      const uint32_t stride = layout_.Slots(t.element);
      for (uint32_t i = 0; i < t.count; ++i)
        if (!AddLocations(global, t.element, location, word + i * stride, out)) return false;
      return true;
    }
    case ir::TypeKind::Struct: {
      uint32_t at = word;
      for (ir::TypeId member : t.members) {
        if (!AddLocations(global, member, location, at, out)) return false;
        at += layout_.Slots(member);
      }
      return true;
    }
    default:
      break;
  }
  Scalar kind;
  if (!layout_.ScalarOf(type, &kind) || SlotsOf(kind) != 1 || kind == Scalar::Bool)
    return FailText("an interface variable of a 64-bit or non-numeric type (\"" + global.name + "\")");
  InterfaceSlot slot;
  slot.location = (*location)++;
  slot.component = global.component;
  slot.word = word;
  slot.components = static_cast<uint8_t>(layout_.Components(type));
  slot.kind = static_cast<uint8_t>(kind);
  // Integer fragment inputs must be Flat ("VUID-StandaloneSpirv-Flat-04744"); interpolating them would be wrong.
  slot.flat = global.flat || !IsFloat(kind);
  slot.noPerspective = global.noPerspective;
  out->push_back(slot);
  return true;
}

bool Builder::EmitBlock(ir::BlockId irBlock) {
  BlockCode& code = x_.blocks[position_[irBlock]];
  code.irBlock = irBlock;
  code.firstOp = static_cast<uint32_t>(x_.ops.size());
  const ir::Block& block = m_.function.blocks[irBlock];
  if (irBlock == 0) {
    // Private variables with initialisers start with their value in every invocation.
    for (const auto& [global, init] : privateInits_) {
      site_ = 0;
      Emit(ops::Store(spv::StorageClassPrivate), 0, slot_[global], slot_[init], 0,
           layout_.Slots(m_.values[init].type), 0);
    }
  }
  for (uint32_t i = 0; i + 1 < block.instructions.size(); ++i)
    if (!EmitInstruction(block.instructions[i], irBlock, i)) return false;
  if (block.instructions.empty()) return FailText("a block without a terminator");
  code.opCount = static_cast<uint32_t>(x_.ops.size()) - code.firstOp;
  return EmitTerminator(block.instructions.back(), irBlock, code);
}

uint32_t Builder::AddEdge(ir::BlockId from, ir::BlockId to) {
  Edge edge;
  edge.target = position_[to];
  edge.firstCopy = static_cast<uint32_t>(x_.copies.size());
  const ir::Block& target = m_.function.blocks[to];
  uint32_t total = 0;
  for (const ir::Instruction& phi : target.instructions) {
    if (phi.op != spv::OpPhi) break;
    auto operands = m_.Operands(phi);
    for (uint32_t k = 0; k < phi.valueCount; ++k) {
      if (operands[phi.valueCount + k] != from) continue;
      const ir::ValueId source = operands[k];
      const uint32_t count = layout_.Slots(phi.type);
      if (slot_[phi.result] == kNone || slot_[source] == kNone || count == 0) break;
      x_.copies.push_back(EdgeCopy{slot_[phi.result], slot_[source], count});
      total += count;
      const ir::Value& src = m_.values[source];
      if (src.kind == ir::ValueKind::Instruction && src.owner == to) edge.parallel = true;
      break;
    }
  }
  edge.copyCount = static_cast<uint32_t>(x_.copies.size()) - edge.firstCopy;
  if (edge.parallel) x_.tempSlots = std::max(x_.tempSlots, total);
  x_.edges.push_back(edge);
  return static_cast<uint32_t>(x_.edges.size() - 1);
}

bool Builder::EmitTerminator(const ir::Instruction& inst, ir::BlockId irBlock, BlockCode& code) {
  auto operands = m_.Operands(inst);
  auto literals = operands.subspan(inst.valueCount);
  code.firstEdge = static_cast<uint32_t>(x_.edges.size());
  switch (inst.op) {
    case spv::OpBranch:
      code.terminator = Terminator::Branch;
      AddEdge(irBlock, literals[0]);
      break;
    case spv::OpBranchConditional:
      code.terminator = Terminator::CondBranch;
      code.condition = slot_[operands[0]];
      AddEdge(irBlock, literals[0]);
      AddEdge(irBlock, literals[1]);
      break;
    case spv::OpSwitch: {
      code.terminator = Terminator::Switch;
      code.condition = slot_[operands[0]];
      const uint32_t width = layout_.Slots(m_.values[operands[0]].type);
      code.selectorSlots = static_cast<uint8_t>(width);
      code.firstCase = static_cast<uint32_t>(x_.caseValues.size());
      AddEdge(irBlock, literals[0]);
      for (size_t k = 1; k + width < literals.size() + 1; k += width + 1) {
        uint64_t value = literals[k];
        if (width == 2) value |= uint64_t{literals[k + 1]} << 32;
        x_.caseValues.push_back(value);
        AddEdge(irBlock, literals[k + width]);
      }
      break;
    }
    case spv::OpReturn: code.terminator = Terminator::Return; break;
    case spv::OpUnreachable: code.terminator = Terminator::Unreachable; break;
    case spv::OpKill: case spv::OpTerminateInvocation: code.terminator = Terminator::Kill; break;
    default: return Fail(inst, "unsupported terminator");
  }
  code.edgeCount = static_cast<uint32_t>(x_.edges.size()) - code.firstEdge;
  for (uint32_t e = code.firstEdge; e < code.firstEdge + code.edgeCount; ++e)
    if (x_.edges[e].target == kNone) return FailText("a branch to an unreachable block");
  return true;
}

bool Builder::EmitInstruction(const ir::Instruction& inst, uint32_t irBlock, uint32_t irIndex) {
  auto operands = m_.Operands(inst);
  auto values = operands.first(inst.valueCount);
  auto literals = operands.subspan(inst.valueCount);
  site_ = static_cast<uint32_t>(x_.sites.size());
  Site site{irBlock, irIndex, inst.result != kNone ? m_.values[inst.result].spirvId : 0, inst.op};
  if (inst.location != 0 && inst.location < m_.locations.size()) {
    const ir::SourceLocation& where = m_.locations[inst.location];
    site.line = where.line, site.column = where.column, site.file = where.file;
  }
  x_.sites.push_back(site);
  const uint32_t dst = inst.result != kNone ? slot_[inst.result] : 0;
  for (ir::ValueId v : values)
    if (slot_[v] == kNone && m_.values[v].kind != ir::ValueKind::Global)
      if (inst.op != spv::OpControlBarrier && inst.op != spv::OpMemoryBarrier)
        return Fail(inst, "an operand with no register form in");
  auto slot = [&](size_t k) { return slot_[values[k]]; };
  auto components = [&](ir::TypeId t) { return layout_.Components(t); };
  Scalar result = Scalar::U32, first = Scalar::U32, second = Scalar::U32;
  if (inst.type != kNone) layout_.ScalarOf(inst.type, &result);
  if (!values.empty()) layout_.ScalarOf(m_.values[values[0]].type, &first);
  if (values.size() > 1) layout_.ScalarOf(m_.values[values[1]].type, &second);
  const spv::Op op = static_cast<spv::Op>(inst.op);

  switch (op) {
    case spv::OpNop: case spv::OpPhi: case spv::OpLine: case spv::OpNoLine:
    case spv::OpLifetimeStart: case spv::OpLifetimeStop:
      return true;
    case spv::OpVariable:
      if (!values.empty()) {  // an initialiser
        Emit(ops::Store(spv::StorageClassFunction), 0, dst, slot(0), 0, layout_.Slots(m_.values[values[0]].type), 0);
      }
      return true;
    case spv::OpCopyObject: case spv::OpCopyLogical:
      Emit(&ops::Copy, dst, slot(0), 0, 0, layout_.Slots(inst.type), 0);
      return true;
    case spv::OpBitcast: case spv::OpConvertPtrToU: case spv::OpConvertUToPtr: {
      const uint32_t from = layout_.Slots(m_.values[values[0]].type), to = layout_.Slots(inst.type);
      Scalar fromKind = Scalar::U32;
      layout_.ScalarOf(m_.values[values[0]].type, &fromKind);
      const bool narrow = BitsOf(result) < 32 || (TypeOf(values[0]).kind != ir::TypeKind::Pointer && BitsOf(fromKind) < 32);
      if (from != to || (narrow && inst.type != m_.values[values[0]].type && BitsOf(result) != BitsOf(fromKind))) {
        // Different component sizes: the bits are laid end to end and cut anew.
        const ir::Type& source = TypeOf(values[0]);
        const ir::Type& target = m_.types[inst.type];
        const uint32_t fromBits = source.kind == ir::TypeKind::Pointer ? 64 : BitsOf(fromKind);
        const uint32_t toBits = target.kind == ir::TypeKind::Pointer ? 64 : BitsOf(result);
        const uint32_t fromCount = layout_.Components(m_.values[values[0]].type);
        const uint32_t toCount = layout_.Components(inst.type);
        if (fromBits * fromCount != toBits * toCount || fromBits < 8 || toBits < 8)
          return Fail(inst, "a bit cast between values of different sizes in");
        Emit(&ops::Repack, dst, slot(0), 0, 0, toCount, fromBits | (toBits << 8) | (fromCount << 16));
        return true;
      }
      Emit(&ops::Copy, dst, slot(0), 0, 0, to, 0);
      return true;
    }
    case spv::OpSNegate: case spv::OpFNegate: case spv::OpNot: case spv::OpLogicalNot: case spv::OpBitCount:
    case spv::OpBitReverse: case spv::OpIsNan: case spv::OpIsInf: {
      OpHandler fn = ops::Unary(op, first, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), 0, 0, components(inst.type), 0);
      return true;
    }
    case spv::OpConvertFToU: case spv::OpConvertFToS: case spv::OpConvertSToF: case spv::OpConvertUToF:
    case spv::OpUConvert: case spv::OpSConvert: case spv::OpFConvert: {
      OpHandler fn = ops::Convert(op, first, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), 0, 0, components(inst.type), 0);
      return true;
    }
    case spv::OpIAdd: case spv::OpISub: case spv::OpIMul: case spv::OpUDiv: case spv::OpSDiv: case spv::OpUMod:
    case spv::OpSRem: case spv::OpSMod: case spv::OpFAdd: case spv::OpFSub: case spv::OpFMul: case spv::OpFDiv:
    case spv::OpFRem: case spv::OpFMod: case spv::OpBitwiseAnd: case spv::OpBitwiseOr: case spv::OpBitwiseXor:
    case spv::OpShiftLeftLogical: case spv::OpShiftRightLogical: case spv::OpShiftRightArithmetic:
    case spv::OpIEqual: case spv::OpINotEqual: case spv::OpUGreaterThan: case spv::OpUGreaterThanEqual:
    case spv::OpULessThan: case spv::OpULessThanEqual: case spv::OpSGreaterThan: case spv::OpSGreaterThanEqual:
    case spv::OpSLessThan: case spv::OpSLessThanEqual: case spv::OpFOrdEqual: case spv::OpFOrdNotEqual:
    case spv::OpFOrdLessThan: case spv::OpFOrdLessThanEqual: case spv::OpFOrdGreaterThan:
    case spv::OpFOrdGreaterThanEqual: case spv::OpFUnordEqual: case spv::OpFUnordNotEqual:
    case spv::OpFUnordLessThan: case spv::OpFUnordLessThanEqual: case spv::OpFUnordGreaterThan:
    case spv::OpFUnordGreaterThanEqual: case spv::OpLogicalAnd: case spv::OpLogicalOr: case spv::OpLogicalEqual:
    case spv::OpLogicalNotEqual: {
      OpHandler fn = ops::Binary(op, first, second, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), slot(1), 0, components(m_.values[values[0]].type), 0);
      return true;
    }
    case spv::OpIAddCarry: case spv::OpISubBorrow: case spv::OpUMulExtended: case spv::OpSMulExtended: {
      OpHandler fn = ops::WideArithmetic(op, first);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), slot(1), 0, components(m_.values[values[0]].type), 0);
      return true;
    }
    case spv::OpSDot: case spv::OpUDot: case spv::OpSUDot: case spv::OpSDotAccSat: case spv::OpUDotAccSat:
    case spv::OpSUDotAccSat: {
      const bool accSat = op == spv::OpSDotAccSat || op == spv::OpUDotAccSat || op == spv::OpSUDotAccSat;
      const bool aSigned = op == spv::OpSDot || op == spv::OpSUDot || op == spv::OpSDotAccSat || op == spv::OpSUDotAccSat;
      const bool bSigned = op == spv::OpSDot || op == spv::OpSDotAccSat;
      const ir::Type& vector = TypeOf(values[0]);
      const bool packed = vector.kind != ir::TypeKind::Vector;  // a 32-bit scalar with PackedVectorFormat4x8Bit
      const uint32_t bits = packed ? 8 : m_.types[vector.element].width;
      const ir::Type& resultType = m_.types[inst.type];
      const uint32_t aux = (aSigned ? 1u : 0u) | (bSigned ? 2u : 0u) | (accSat ? 4u : 0u) |
                           (resultType.isSigned ? 8u : 0u) | (bits << 8) | (uint32_t{resultType.width} << 16);
      Emit(ops::IntegerDot(), dst, slot(0), slot(1), accSat ? slot(2) : 0, packed ? 0 : vector.count, aux);
      return true;
    }
    case spv::OpBitFieldInsert: case spv::OpBitFieldSExtract: case spv::OpBitFieldUExtract: {
      OpHandler fn = ops::BitField(op, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      const bool insert = op == spv::OpBitFieldInsert;
      Emit(fn, dst, slot(0), slot(1), slot(2), components(inst.type), insert ? slot(3) : 0);
      return true;
    }
    case spv::OpSelect: {
      const uint32_t n = layout_.Slots(inst.type);
      const ir::Type& cond = TypeOf(values[0]);
      const uint32_t perComponent = cond.kind == ir::TypeKind::Vector ? cond.count : 0;
      Emit(&ops::Select, dst, slot(0), slot(1), slot(2), n, perComponent);
      return true;
    }
    case spv::OpAny: case spv::OpAll: {
      // A boolean vector reduced to one: chained logical operations over the components' slots.
      const uint32_t count = TypeOf(values[0]).count;
      OpHandler fn = ops::Binary(op == spv::OpAny ? spv::OpLogicalOr : spv::OpLogicalAnd, Scalar::Bool,
                                 Scalar::Bool, Scalar::Bool);
      Emit(&ops::Copy, dst, slot(0), 0, 0, 1, 0);
      for (uint32_t c = 1; c < count; ++c) Emit(fn, dst, dst, slot(0) + c, 0, 1, 0);
      return true;
    }
    case spv::OpCompositeConstruct: {
      const uint32_t first_extra = static_cast<uint32_t>(x_.extra.size());
      for (ir::ValueId v : values) {
        const uint32_t n = layout_.Slots(m_.values[v].type);
        for (uint32_t i = 0; i < n; ++i) x_.extra.push_back(slot_[v] + i);
      }
      Emit(&ops::Shuffle, dst, 0, 0, 0, static_cast<uint32_t>(x_.extra.size()) - first_extra, first_extra);
      return true;
    }
    case spv::OpCompositeExtract:
    case spv::OpCompositeInsert: {
      const bool insert = op == spv::OpCompositeInsert;
      const ir::ValueId composite = insert ? values[1] : values[0];
      ir::TypeId t = m_.values[composite].type;
      uint32_t offset = 0;
      for (uint32_t index : literals) {
        const ir::Type& type = m_.types[t];
        if (type.kind == ir::TypeKind::Struct) {
          for (uint32_t k = 0; k < index && k < type.members.size(); ++k) offset += layout_.Slots(type.members[k]);
          t = type.members[std::min<size_t>(index, type.members.size() - 1)];
        } else {
          offset += index * layout_.Slots(type.element);
          t = type.element;
        }
      }
      const uint32_t partSlots = layout_.Slots(t);
      if (!insert) {
        Emit(&ops::Copy, dst, slot_[composite] + offset, 0, 0, partSlots, 0);
        return true;
      }
      const uint32_t n = layout_.Slots(inst.type);
      const uint32_t firstExtra = static_cast<uint32_t>(x_.extra.size());
      for (uint32_t i = 0; i < n; ++i)
        x_.extra.push_back(i >= offset && i < offset + partSlots ? slot(0) + (i - offset) : slot_[composite] + i);
      Emit(&ops::Shuffle, dst, 0, 0, 0, n, firstExtra);
      return true;
    }
    case spv::OpVectorShuffle: {
      const uint32_t per = layout_.Slots(m_.types[inst.type].element);
      const uint32_t n1 = TypeOf(values[0]).count;
      const uint32_t firstExtra = static_cast<uint32_t>(x_.extra.size());
      for (uint32_t index : literals)
        for (uint32_t k = 0; k < per; ++k)
          x_.extra.push_back(index == 0xffffffffu ? zeroSlot_ + k
                             : index < n1       ? slot(0) + index * per + k
                                                : slot(1) + (index - n1) * per + k);
      Emit(&ops::Shuffle, dst, 0, 0, 0, static_cast<uint32_t>(x_.extra.size()) - firstExtra, firstExtra);
      return true;
    }
    case spv::OpVectorExtractDynamic: {
      const ir::Type& v = TypeOf(values[0]);
      Emit(&ops::ExtractDynamic, dst, slot(0), slot(1), 0, layout_.Slots(v.element), v.count);
      return true;
    }
    case spv::OpVectorInsertDynamic: {
      const ir::Type& v = m_.types[inst.type];
      Emit(&ops::InsertDynamic, dst, slot(0), slot(1), slot(2), layout_.Slots(v.element), v.count);
      return true;
    }
    case spv::OpDot: case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar: case spv::OpMatrixTimesVector:
    case spv::OpVectorTimesMatrix: case spv::OpMatrixTimesMatrix: case spv::OpOuterProduct: case spv::OpTranspose: {
      Scalar k = first;
      OpHandler fn = nullptr;
      uint32_t n = 0, aux = 0, c = 0;
      const ir::Type& a = TypeOf(values[0]);
      switch (op) {
        case spv::OpDot: fn = ops::Dot(k); n = a.count; break;
        case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar:
          fn = ops::VectorTimesScalar(k); n = components(inst.type); break;
        case spv::OpMatrixTimesVector:
          fn = ops::MatrixTimesVector(k); n = m_.types[a.element].count; aux = a.count; break;
        case spv::OpVectorTimesMatrix: {
          const ir::Type& b = TypeOf(values[1]);
          fn = ops::VectorTimesMatrix(k); n = b.count; aux = a.count; break;
        }
        case spv::OpMatrixTimesMatrix: {
          const ir::Type& b = TypeOf(values[1]);
          fn = ops::MatrixTimesMatrix(k); n = b.count; aux = m_.types[a.element].count; c = a.count; break;
        }
        case spv::OpOuterProduct: {
          const ir::Type& b = TypeOf(values[1]);
          fn = ops::OuterProduct(k); n = a.count; aux = b.count; break;
        }
        default:  // OpTranspose
          fn = ops::Transpose(k); n = m_.types[a.element].count; aux = a.count; break;
      }
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      const uint32_t second_slot = values.size() > 1 ? slot(1) : 0;
      Emit(fn, dst, slot(0), second_slot, c, n, aux);
      return true;
    }
    case spv::OpExtInst: return EmitExtInst(inst, operands);
    case spv::OpLoad: return EmitMemoryAccess(inst, false, values[0], 0, dst);
    case spv::OpStore: return EmitMemoryAccess(inst, true, values[0], slot(1), 0);
    case spv::OpCopyMemory: {
      const ir::TypeId pointee = TypeOf(values[1]).element;
      const uint32_t temp = NewSlots(layout_.Slots(pointee));
      if (!EmitMemoryAccess(inst, false, values[1], 0, temp)) return false;
      return EmitMemoryAccess(inst, true, values[0], temp, 0);
    }
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
      return EmitAccessChain(inst, operands);
    case spv::OpArrayLength: {
      const ir::Type& block = m_.types[TypeOf(values[0]).element];
      const uint32_t member = literals[0];
      if (block.kind != ir::TypeKind::Struct || member >= block.members.size()) return Fail(inst, "malformed");
      const ir::Type& array = m_.types[block.members[member]];
      if (array.arrayStride == 0) return Fail(inst, "a runtime array without ArrayStride in");
      Emit(&ops::ArrayLength, dst, slot(0), 0, 0, block.memberOffsets[member], array.arrayStride);
      return true;
    }
    case spv::OpControlBarrier: {
      // Execution scope Workgroup waits for the workgroup's other subgroups; Subgroup scope is already in
      // lock-step.
      const ir::ValueId scope = values[0];
      const uint64_t bits = m_.values[scope].kind == ir::ValueKind::Constant ? m_.constants[m_.values[scope].owner].bits : 2;
      if (bits == spv::ScopeWorkgroup) {
        x_.usesBarriers = true;
        Emit(&ops::Barrier, 0, 0, 0, 0, 0, 0);
      }
      return true;
    }
    case spv::OpMemoryBarrier:
      // Workgroup memory belongs to one host thread; buffer atomics are sequentially consistent.
      return true;
    case spv::OpReadClockKHR:
      Emit(&ops::ReadClock, dst, 0, 0, 0, 2, 0);
      return true;
    case spv::OpDPdx: case spv::OpDPdy: case spv::OpFwidth: case spv::OpDPdxFine: case spv::OpDPdyFine:
    case spv::OpFwidthFine: case spv::OpDPdxCoarse: case spv::OpDPdyCoarse: case spv::OpFwidthCoarse:
      if (result != Scalar::F32) return Fail(inst, "a derivative of a value that is not 32-bit float in");
      if (m_.entryPoint.executionModel != spv::ExecutionModelFragment)
        return Fail(inst, "a derivative outside a fragment shader in");
      x_.usesDerivatives = true;
      Emit(&ops::Derivative, dst, slot(0), 0, 0, components(inst.type), inst.op);
      return true;
    case spv::OpDemoteToHelperInvocation:
      Emit(&ops::Demote, 0, 0, 0, 0, 0, 0);
      return true;
    case spv::OpIsHelperInvocationEXT:
      Emit(&ops::IsHelperInvocation, dst, 0, 0, 0, 1, 0);
      return true;
    case spv::OpSampledImage: {
      const uint32_t firstExtra = static_cast<uint32_t>(x_.extra.size());
      x_.extra.push_back(slot(0));
      x_.extra.push_back(slot(1));
      Emit(&ops::Shuffle, dst, 0, 0, 0, 2, firstExtra);
      return true;
    }
    case spv::OpImage:
      Emit(&ops::Copy, dst, slot(0), 0, 0, 1, 0);
      return true;
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleExplicitLod: case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageSampleDrefExplicitLod: case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod: case spv::OpImageSampleProjDrefImplicitLod:
    case spv::OpImageSampleProjDrefExplicitLod: case spv::OpImageFetch: case spv::OpImageGather:
    case spv::OpImageDrefGather: case spv::OpImageRead: case spv::OpImageWrite: case spv::OpImageQuerySizeLod:
    case spv::OpImageQuerySize: case spv::OpImageQueryLevels: case spv::OpImageQuerySamples:
    case spv::OpImageTexelPointer:
      return EmitImage(inst, operands);
    case spv::OpAtomicLoad: case spv::OpAtomicStore: case spv::OpAtomicExchange: case spv::OpAtomicCompareExchange:
    case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement: case spv::OpAtomicIAdd: case spv::OpAtomicISub:
    case spv::OpAtomicSMin: case spv::OpAtomicUMin: case spv::OpAtomicSMax: case spv::OpAtomicUMax:
    case spv::OpAtomicAnd: case spv::OpAtomicOr: case spv::OpAtomicXor: case spv::OpAtomicFAddEXT:
    case spv::OpAtomicFMinEXT: case spv::OpAtomicFMaxEXT:
      return EmitAtomic(inst, operands);
    default:
      if (op >= spv::OpGroupNonUniformElect && op <= spv::OpGroupNonUniformQuadSwap) return EmitSubgroup(inst, operands);
      return Fail(inst, "");
  }
}

uint32_t Builder::AccessFor(ir::TypeId pointee, uint32_t matrixLayout, std::string* why) {
  MemoryAccess access;
  access.firstLeaf = static_cast<uint32_t>(x_.leaves.size());
  if (!layout_.ExplicitLeaves(pointee, 0, 0, matrixLayout, &x_.leaves, why)) return kNone;
  access.leafCount = static_cast<uint32_t>(x_.leaves.size()) - access.firstLeaf;
  for (uint32_t i = access.firstLeaf; i < x_.leaves.size(); ++i)
    access.extent = std::max(access.extent, x_.leaves[i].offset + x_.leaves[i].bytes);
  x_.accesses.push_back(access);
  return static_cast<uint32_t>(x_.accesses.size() - 1);
}

bool Builder::EmitMemoryAccess(const ir::Instruction& inst, bool store, ir::ValueId pointer, uint32_t valueSlot,
                               uint32_t resultSlot) {
  const ir::Type& pointerType = TypeOf(pointer);
  const uint32_t storageClass = pointerType.storageClass;
  const uint32_t slots = layout_.Slots(pointerType.element);
  if (storageClass == spv::StorageClassUniformConstant && !store) {
    // Loading an image, sampler or sampled image: its table index (twice for a combined image sampler).
    Emit(&ops::LoadDescriptor, resultSlot, slot_[pointer], 0, 0, slots, 0);
    return true;
  }
  OpHandler fn = store ? ops::Store(storageClass) : ops::Load(storageClass);
  if (fn == nullptr) return Fail(inst, store ? "a store to this storage class:" : "a load from this storage class:");
  uint32_t access = 0;
  if (IsExplicit(storageClass)) {
    std::string why;
    // A pointer to a matrix carries no MatrixStride of its own; the access chain that produced it recorded it.
    uint32_t matrixLayout = 0;
    auto stride = matrixLayouts_.find(pointer);
    if (stride != matrixLayouts_.end()) matrixLayout = stride->second;
    access = AccessFor(pointerType.element, matrixLayout, &why);
    if (access == kNone) return Fail(inst, (why + " in").c_str());
  } else if (!IsPrivateMemory(storageClass) && storageClass != spv::StorageClassWorkgroup) {
    return Fail(inst, "a memory access of this storage class in");
  }
  Emit(fn, resultSlot, slot_[pointer], valueSlot, 0, slots, access);
  return true;
}

// Access chains become one affine computation: base + static offset + sum(index * stride). The first index of a
// chain whose base is an array of buffer blocks selects the descriptor (stride 1 << 40, see executable.h).
bool Builder::EmitAccessChain(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  const ir::ValueId base = operands[0];
  const ir::Type& baseType = TypeOf(base);
  const uint32_t storageClass = baseType.storageClass;
  const bool explicitLayout = IsExplicit(storageClass);
  const bool ptrChain = inst.op == spv::OpPtrAccessChain || inst.op == spv::OpInBoundsPtrAccessChain;
  uint64_t offset = 0;
  std::vector<std::pair<ir::ValueId, uint64_t>> terms;
  auto add = [&](ir::ValueId index, uint64_t stride) {
    const ir::Value& v = m_.values[index];
    if (v.kind == ir::ValueKind::Constant) {
      const ir::Constant& c = m_.constants[v.owner];
      const ir::Type& t = m_.types[v.type];
      int64_t i = t.width == 64 ? static_cast<int64_t>(c.bits)
                                : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(c.bits)));
      if (t.width < 32 && t.isSigned) i = static_cast<int64_t>(static_cast<int16_t>(c.bits));
      offset += static_cast<uint64_t>(i) * stride;
    } else if (stride != 0) {
      terms.push_back({index, stride});
    }
  };
  ir::TypeId t = baseType.element;
  uint32_t matrixLayout = 0;  // of the matrices the current type is or holds (type_layout.h)
  auto found = matrixLayouts_.find(base);
  if (found != matrixLayouts_.end()) matrixLayout = found->second;
  size_t k = 1;
  if (ptrChain) {
    // The Element operand steps whole pointees: by the pointer type's ArrayStride in explicit memory.
    uint64_t stride = explicitLayout ? baseType.arrayStride : layout_.Slots(t);
    if (explicitLayout && stride == 0) return Fail(inst, "a pointer without ArrayStride in");
    add(operands[1], stride);
    k = 2;
  }
  bool first = !ptrChain;
  for (; k < inst.valueCount; ++k) {
    const ir::Type& type = m_.types[t];
    const ir::ValueId index = operands[k];
    const bool descriptorStep = first && (storageClass == spv::StorageClassStorageBuffer ||
                                          storageClass == spv::StorageClassUniform) &&
                                m_.values[base].kind == ir::ValueKind::Global &&
                                (type.kind == ir::TypeKind::Array || type.kind == ir::TypeKind::RuntimeArray) &&
                                m_.types[type.element].kind == ir::TypeKind::Struct;
    first = false;
    if (descriptorStep) {
      add(index, uint64_t{1} << 40);
      t = type.element;
      continue;
    }
    switch (type.kind) {
      case ir::TypeKind::Struct: {
        const ir::Value& v = m_.values[index];
        if (v.kind != ir::ValueKind::Constant) return Fail(inst, "a struct index that is not a constant in");
        const uint32_t member = static_cast<uint32_t>(m_.constants[v.owner].bits);
        if (member >= type.members.size()) return Fail(inst, "a struct index out of range in");
        if (explicitLayout) {
          offset += type.memberOffsets[member] == kNone ? 0 : type.memberOffsets[member];
          matrixLayout = MemberMatrixLayout(type, member);
        } else {
          for (uint32_t mIdx = 0; mIdx < member; ++mIdx) offset += layout_.Slots(type.members[mIdx]);
        }
        t = type.members[member];
        break;
      }
      case ir::TypeKind::Array:
      case ir::TypeKind::RuntimeArray: {
        // Arrays of descriptors step one table entry per element.
        uint64_t stride = explicitLayout                                     ? type.arrayStride
                          : storageClass == spv::StorageClassUniformConstant ? 1
                                                                             : layout_.Slots(type.element);
        if (explicitLayout && stride == 0) return Fail(inst, "an array without ArrayStride in");
        add(index, stride);
        t = type.element;
        break;
      }
      case ir::TypeKind::Matrix: {
        const ir::Type& column = m_.types[type.element];
        if (explicitLayout && (matrixLayout & kRowMajor)) {
          // A column of a row-major matrix starts one scalar further; its components stay a row stride apart.
          add(index, layout_.ScalarBytes(column.element));
        } else {
          const uint32_t stride = StrideOf(matrixLayout);
          add(index, explicitLayout ? (stride != 0 ? stride : column.count * layout_.ScalarBytes(column.element))
                                    : layout_.Slots(type.element));
          matrixLayout = 0;
        }
        t = type.element;
        break;
      }
      case ir::TypeKind::Vector:
        if (explicitLayout && (matrixLayout & kRowMajor))
          add(index, StrideOf(matrixLayout));  // a component of a row-major matrix's column
        else
          add(index, explicitLayout ? layout_.ScalarBytes(type.element) : layout_.Slots(type.element));
        matrixLayout = 0;
        t = type.element;
        break;
      default:
        return Fail(inst, "an index into a scalar in");
    }
  }
  if (matrixLayout != 0) matrixLayouts_[inst.result] = matrixLayout;
  const uint32_t firstExtra = static_cast<uint32_t>(x_.extra.size());
  x_.extra.push_back(static_cast<uint32_t>(terms.size()));
  x_.extra.push_back(static_cast<uint32_t>(offset));
  x_.extra.push_back(static_cast<uint32_t>(offset >> 32));
  for (auto& [index, stride] : terms) {
    const ir::Type& indexType = TypeOf(index);
    x_.extra.push_back(slot_[index]);
    x_.extra.push_back(indexType.width == 64 ? 1 : 0);
    x_.extra.push_back(static_cast<uint32_t>(stride));
    x_.extra.push_back(static_cast<uint32_t>(stride >> 32));
    if (indexType.width < 32) return Fail(inst, "an 8- or 16-bit index in");
  }
  // A global's pointer plus constant indices is a constant: it gets a slot of its own with the value written once
  // per dispatch (push-constant members, fixed buffer elements), no operation at all.
  const ir::Value& baseValue = m_.values[base];
  if (baseValue.kind == ir::ValueKind::Global && terms.empty() && !patchedGlobal_[base]) {
    const uint64_t value = Join(x_.constantWords[slot_[base]], x_.constantWords[slot_[base] + 1]) + offset;
    x_.extra.resize(firstExtra);
    const uint32_t constant = NewSlots(2);
    x_.constantWords.resize(x_.slotCount, 0);
    x_.constantWords[constant] = static_cast<uint32_t>(value);
    x_.constantWords[constant + 1] = static_cast<uint32_t>(value >> 32);
    slot_[inst.result] = constant;
    return true;
  }
  // A global's pointer is the same in every lane: with one 32-bit index the common form applies.
  const bool uniformBase = m_.values[base].kind == ir::ValueKind::Global && terms.size() == 1 &&
                           TypeOf(terms[0].first).width == 32 && terms[0].second <= UINT32_MAX;
  Emit(uniformBase ? &ops::AccessChainUniformBase : &ops::AccessChain, slot_[inst.result], slot_[base], 0, 0, 0,
       firstExtra);
  return true;
}

bool Builder::EmitExtInst(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  const uint32_t ext = operands[inst.valueCount];
  if (ext == 59 || ext == 65) {  // PackDouble2x32, UnpackDouble2x32: the same two words either way
    Emit(&ops::Copy, slot_[inst.result], slot_[values[0]], 0, 0, 2, 0);
    return true;
  }
  Scalar kind = Scalar::F32;
  if (!values.empty()) layout_.ScalarOf(m_.values[values[0]].type, &kind);
  OpHandler fn = ops::Glsl(ext, kind, static_cast<uint32_t>(values.size()));
  if (fn == nullptr) return Fail(inst, "an unsupported GLSL.std.450 instruction or operand type in");
  const uint32_t dst = slot_[inst.result];
  auto slot = [&](size_t k) { return k < values.size() ? slot_[values[k]] : 0; };
  const uint32_t argumentComponents = values.empty() ? 1 : layout_.Components(m_.values[values[0]].type);
  switch (ext) {
    case 66: case 67: case 68: case 69: case 70: case 71: case 72:  // Length .. Refract
      Emit(fn, dst, slot(0), slot(1), slot(2), ext, argumentComponents);
      return true;
    case 33: case 34: {  // Determinant, MatrixInverse
      const ir::Type& matrix = TypeOf(values[0]);
      if (matrix.count > 4) return Fail(inst, "a matrix larger than 4x4 in");
      Emit(fn, dst, slot(0), 0, 0, ext, matrix.count);
      return true;
    }
    case 36: case 52:  // ModfStruct, FrexpStruct
      Emit(fn, dst, slot(0), 0, 0, argumentComponents, ext);
      return true;
    case 54: case 55: case 56: case 57: case 58: case 60: case 61: case 62: case 63: case 64:  // pack, unpack
      Emit(fn, dst, slot(0), 0, 0, 1, ext);
      return true;
    case 35: case 51: {  // Modf, Frexp: the second result goes through a pointer to private memory
      if (!IsPrivateMemory(StorageClassOf(values[1])) || StorageClassOf(values[1]) == spv::StorageClassInput)
        return Fail(inst, "Modf/Frexp writing outside private memory in");
      Emit(fn, dst, slot(0), slot(1), 0, argumentComponents, ext);
      return true;
    }
    default:
      Emit(fn, dst, slot(0), slot(1), slot(2), layout_.Components(inst.type), 0);
      return true;
  }
}

bool Builder::EmitAtomic(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  const ir::ValueId pointer = values[0];
  const uint32_t storageClass = StorageClassOf(pointer);
  Scalar kind = Scalar::U32;
  layout_.ScalarOf(TypeOf(pointer).element, &kind);
  // The operation decides signedness, not the pointee's type.
  auto signedness = [&](bool isSigned) {
    switch (kind) {
      case Scalar::U32: case Scalar::S32: kind = isSigned ? Scalar::S32 : Scalar::U32; break;
      case Scalar::U64: case Scalar::S64: kind = isSigned ? Scalar::S64 : Scalar::U64; break;
      default: break;
    }
  };
  if (inst.op == spv::OpAtomicSMin || inst.op == spv::OpAtomicSMax) signedness(true);
  if (inst.op == spv::OpAtomicUMin || inst.op == spv::OpAtomicUMax) signedness(false);
  OpHandler fn = ops::Atomic(inst.op, storageClass, kind);
  if (fn == nullptr) return Fail(inst, "an atomic on this storage class or type:");
  uint32_t value = 0, comparator = 0;
  switch (inst.op) {
    case spv::OpAtomicLoad: case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement: break;
    case spv::OpAtomicStore: value = slot_[values[3]]; break;
    case spv::OpAtomicCompareExchange: value = slot_[values[4]]; comparator = slot_[values[5]]; break;
    default: value = slot_[values[3]]; break;
  }
  const uint32_t dst = inst.result != kNone ? slot_[inst.result] : zeroSlot_;
  Emit(fn, dst, slot_[pointer], value, comparator, 1, 0);
  return true;
}

bool Builder::EmitSubgroup(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  auto literals = operands.subspan(inst.valueCount);
  const ir::Value& scope = m_.values[values[0]];
  if (scope.kind != ir::ValueKind::Constant || m_.constants[scope.owner].bits != spv::ScopeSubgroup)
    return Fail(inst, "a non-uniform group operation whose scope is not Subgroup:");
  x_.usesSubgroupOps = true;
  const uint32_t groupOperation = literals.empty() ? 0 : literals[0];
  Scalar kind = Scalar::U32;
  if (values.size() > 1) layout_.ScalarOf(m_.values[values[1]].type, &kind);
  OpHandler fn = ops::Subgroup(inst.op, groupOperation, kind);
  if (fn == nullptr) return Fail(inst, "an unsupported operand type for");
  const uint32_t dst = slot_[inst.result];
  auto slot = [&](size_t k) { return k < values.size() ? slot_[values[k]] : 0; };
  const uint32_t slots = values.size() > 1 ? layout_.Slots(m_.values[values[1]].type) : 0;
  switch (inst.op) {
    case spv::OpGroupNonUniformElect:
      Emit(fn, dst, 0, 0, 0, 0, 0);
      return true;
    case spv::OpGroupNonUniformAll: case spv::OpGroupNonUniformAny:
      Emit(fn, dst, slot(1), 0, 0, 1, inst.op == spv::OpGroupNonUniformAll ? 1 : 0);
      return true;
    case spv::OpGroupNonUniformBallotFindLSB: case spv::OpGroupNonUniformBallotFindMSB:
      Emit(fn, dst, slot(1), 0, 0, 1, inst.op == spv::OpGroupNonUniformBallotFindMSB ? 1 : 0);
      return true;
    case spv::OpGroupNonUniformBallotBitCount:
      Emit(fn, dst, slot(1), 0, 0, 1, groupOperation);
      return true;
    case spv::OpGroupNonUniformIAdd: case spv::OpGroupNonUniformFAdd: case spv::OpGroupNonUniformIMul:
    case spv::OpGroupNonUniformFMul: case spv::OpGroupNonUniformSMin: case spv::OpGroupNonUniformUMin:
    case spv::OpGroupNonUniformFMin: case spv::OpGroupNonUniformSMax: case spv::OpGroupNonUniformUMax:
    case spv::OpGroupNonUniformFMax: case spv::OpGroupNonUniformBitwiseAnd: case spv::OpGroupNonUniformBitwiseOr:
    case spv::OpGroupNonUniformBitwiseXor: case spv::OpGroupNonUniformLogicalAnd:
    case spv::OpGroupNonUniformLogicalOr: case spv::OpGroupNonUniformLogicalXor: {
      uint32_t cluster = 0;
      if (groupOperation == spv::GroupOperationClusteredReduce) {
        const ir::Value& size = m_.values[values[2]];
        if (size.kind != ir::ValueKind::Constant) return Fail(inst, "a cluster size that is not a constant in");
        cluster = static_cast<uint32_t>(m_.constants[size.owner].bits);
      } else if (groupOperation > spv::GroupOperationExclusiveScan) {
        return Fail(inst, "a group operation other than reduce, scans and clustered reduce in");
      }
      Emit(fn, dst, slot(1), 0, cluster, layout_.Components(m_.values[values[1]].type), groupOperation);
      return true;
    }
    default:  // value (n slots), optional second operand
      Emit(fn, dst, slot(1), slot(2), 0, slots, 0);
      return true;
  }
}


// The image type behind an image, sampled image or pointer to either.
const ir::Type* Builder::ImageTypeOf(ir::ValueId v) const {
  const ir::Type* t = &TypeOf(v);
  while (t->kind == ir::TypeKind::Pointer || t->kind == ir::TypeKind::Array) t = &m_.types[t->element];
  if (t->kind == ir::TypeKind::SampledImage) t = &m_.types[t->element];
  return t->kind == ir::TypeKind::Image ? t : nullptr;
}

// Image instructions: the fixed operands, then the optional image operands in the order of their mask bits
// (SPIR-V 2.2 "Image Operands": Bias, Lod, Grad (two), ConstOffset, Offset, ConstOffsets, Sample, MinLod,
// MakeTexelAvailable and MakeTexelVisible (a scope each), then operands without ids, Offsets).
bool Builder::EmitImage(const ir::Instruction& inst, std::span<const uint32_t> operands) {
  auto values = operands.first(inst.valueCount);
  auto literals = operands.subspan(inst.valueCount);
  const spv::Op op = static_cast<spv::Op>(inst.op);
  const ir::Type* image = ImageTypeOf(values[0]);
  if (image == nullptr) return Fail(inst, "an image operand of an unexpected type in");
  ImageInstruction ii;
  ii.dim = static_cast<uint8_t>(image->image[0]);
  ii.arrayed = image->image[2] != 0;
  ii.multisampled = image->image[3] != 0;
  if (ii.dim == spv::DimSubpassData) return Fail(inst, "a subpass input (graphics only) in");
  const uint32_t dst = inst.result != kNone ? slot_[inst.result] : 0;
  Scalar kind = Scalar::F32;
  if (inst.type != kNone) layout_.ScalarOf(inst.type, &kind);
  auto addInstruction = [&]() {
    x_.imageInstructions.push_back(ii);
    return static_cast<uint32_t>(x_.imageInstructions.size() - 1);
  };

  switch (op) {
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize:
      if (op == spv::OpImageQuerySizeLod) ii.lod = slot_[values[1]];
      Emit(&ops::ImageQuerySize, dst, slot_[values[0]], 0, 0, layout_.Components(inst.type), addInstruction());
      return true;
    case spv::OpImageQueryLevels:
      Emit(&ops::ImageQueryLevels, dst, slot_[values[0]], 0, 0, 1, 0);
      return true;
    case spv::OpImageQuerySamples:
      Emit(&ops::ImageQuerySamples, dst, slot_[values[0]], 0, 0, 1, 0);
      return true;
    default:
      break;
  }

  // Fixed operands after the image and the coordinate.
  size_t next = 2;
  const ir::TypeId coordinate = m_.values[values[1]].type;
  ii.coordinateCount = static_cast<uint8_t>(layout_.Components(coordinate));
  Scalar coordinateKind = Scalar::F32;
  layout_.ScalarOf(coordinate, &coordinateKind);
  if (BitsOf(coordinateKind) != 32) return Fail(inst, "coordinates that are not 32-bit in");
  ii.integerCoordinates = !IsFloat(coordinateKind);
  switch (op) {
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageDrefGather:
      ii.dref = slot_[values[next++]];
      ii.compare = true;
      break;
    case spv::OpImageGather:
      ii.component = slot_[values[next++]];
      break;
    case spv::OpImageWrite: {
      const ir::ValueId texel = values[next++];
      ii.texel = slot_[texel];
      ii.valueCount = static_cast<uint8_t>(layout_.Components(m_.values[texel].type));
      layout_.ScalarOf(m_.values[texel].type, &kind);
      break;
    }
    case spv::OpImageTexelPointer:
      if (values.size() > 2 && ii.multisampled) ii.sample = slot_[values[2]];
      next = values.size();
      break;
    default:
      break;
  }
  ii.proj = op == spv::OpImageSampleProjImplicitLod || op == spv::OpImageSampleProjExplicitLod ||
            op == spv::OpImageSampleProjDrefImplicitLod || op == spv::OpImageSampleProjDrefExplicitLod;
  ii.gather = op == spv::OpImageGather || op == spv::OpImageDrefGather;
  // Implicit LOD in a fragment shader comes from the quad's derivatives of the coordinate; elsewhere (compute)
  // there are no neighbours and the level is the base level.
  ii.implicitLod = m_.entryPoint.executionModel == spv::ExecutionModelFragment &&
                   (op == spv::OpImageSampleImplicitLod || op == spv::OpImageSampleDrefImplicitLod ||
                    op == spv::OpImageSampleProjImplicitLod || op == spv::OpImageSampleProjDrefImplicitLod);
  if (ii.implicitLod) x_.usesDerivatives = true;

  // Optional image operands.
  const uint32_t mask = literals.empty() || op == spv::OpImageTexelPointer ? 0u : literals[0];
  auto take = [&]() { return next < values.size() ? slot_[values[next++]] : kNoSlot; };
  auto components = [&]() { return next < values.size() ? layout_.Components(m_.values[values[next]].type) : 0u; };
  if (mask & spv::ImageOperandsBiasMask) ii.bias = take();
  if (mask & spv::ImageOperandsLodMask) ii.lod = take();
  if (mask & spv::ImageOperandsGradMask) {
    ii.gradCount = static_cast<uint8_t>(components());
    ii.gradX = take();
    ii.gradY = take();
  }
  if (mask & spv::ImageOperandsConstOffsetMask) {
    ii.offsetCount = static_cast<uint8_t>(components());
    ii.offset = take();
  }
  if (mask & spv::ImageOperandsOffsetMask) {
    ii.offsetCount = static_cast<uint8_t>(components());
    ii.offset = take();
  }
  if (mask & spv::ImageOperandsConstOffsetsMask) ii.gatherOffsets = take();
  if (mask & spv::ImageOperandsSampleMask) ii.sample = take();
  if (mask & spv::ImageOperandsMinLodMask) ii.minLod = take();
  if (mask & 0x10000u) return Fail(inst, "the Offsets image operand in");
  // MakeTexelAvailable/Visible scopes, NonPrivate, Volatile, SignExtend, ZeroExtend, Nontemporal: execution is
  // in order and coherent already; texels convert by the view's format.

  if (op != spv::OpImageWrite) {
    if (BitsOf(kind) > 32) return Fail(inst, "a 64-bit texel result in");
    ii.valueCount = static_cast<uint8_t>(std::min(4u, layout_.Components(inst.type)));
  } else if (BitsOf(kind) > 32) {
    return Fail(inst, "a 64-bit texel in");
  }
  ii.valueKind = static_cast<uint8_t>(kind);

  switch (op) {
    case spv::OpImageRead: case spv::OpImageFetch:
      Emit(&ops::ImageRead, dst, slot_[values[0]], slot_[values[1]], 0, ii.valueCount, addInstruction());
      return true;
    case spv::OpImageWrite:
      Emit(&ops::ImageWrite, 0, slot_[values[0]], slot_[values[1]], 0, ii.valueCount, addInstruction());
      return true;
    case spv::OpImageTexelPointer:
      Emit(&ops::ImageTexelPointer, dst, slot_[values[0]], slot_[values[1]], 0, 2, addInstruction());
      return true;
    default:
      if (ii.integerCoordinates && ii.dim != spv::DimRect) return Fail(inst, "integer sampling coordinates in");
      Emit(&ops::ImageSample, dst, slot_[values[0]], slot_[values[1]], 0, ii.valueCount, addInstruction());
      return true;
  }
}
}  // namespace

std::shared_ptr<const Executable> BuildExecutable(const ir::Module& module, std::string* message) {
  auto executable = std::make_shared<Executable>();
  Builder builder(module, *executable, message);
  if (!builder.Run()) return nullptr;
  return executable;
}

}  // namespace crashtest::execution
