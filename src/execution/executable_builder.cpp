#include "execution/executable_builder.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "execution/executable_builder_internal.h"
#include "execution/lane_wise_ops.h"
#include "execution/ops/ops.h"
#include "pipeline/spirv_tables.h"

namespace crashtest::execution {
namespace builder {

bool IsExplicit(uint32_t storageClass) {
  return storageClass == spv::StorageClassStorageBuffer || storageClass == spv::StorageClassUniform ||
         storageClass == spv::StorageClassPushConstant || storageClass == spv::StorageClassPhysicalStorageBuffer;
}

bool IsPrivateMemory(uint32_t storageClass) {
  return storageClass == spv::StorageClassFunction || storageClass == spv::StorageClassPrivate ||
         storageClass == spv::StorageClassInput || storageClass == spv::StorageClassOutput;
}

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
  if (constant.isNull) {
    WriteNull(value.type, words);
    return true;
  }
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

// OpConstantNull: zero slots, except pointers (and pointers inside composites), whose null is a value no access
// resolves (executable.h).
void Builder::WriteNull(ir::TypeId type, uint32_t* words) {
  const ir::Type& t = m_.types[type];
  switch (t.kind) {
    case ir::TypeKind::Pointer: {
      const uint64_t null = NullPointer(t.storageClass);
      words[0] = static_cast<uint32_t>(null);
      words[1] = static_cast<uint32_t>(null >> 32);
      break;
    }
    case ir::TypeKind::Struct: {
      uint32_t at = 0;
      for (ir::TypeId member : t.members) {
        WriteNull(member, words + at);
        at += layout_.Slots(member);
      }
      break;
    }
    case ir::TypeKind::Array: {
      const uint32_t n = layout_.Slots(t.element);
      for (uint32_t i = 0; i < t.count; ++i) WriteNull(t.element, words + static_cast<size_t>(i) * n);
      break;
    }
    default: break;  // scalars, vectors, matrices: zero
  }
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

void Builder::FindOnlyAccessedPointers() {
  std::vector<uint8_t> uses(m_.values.size(), 0);  // bit 0: the pointer of a load or store; bit 1: anything else
  for (const ir::Block& block : m_.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      auto values = m_.Operands(inst).first(inst.valueCount);
      for (size_t k = 0; k < values.size(); ++k) {
        const bool access = k == 0 && (inst.op == spv::OpLoad || inst.op == spv::OpStore);
        uses[values[k]] |= access ? 1 : 2;
      }
    }
  for (size_t v = 0; v < uses.size(); ++v) onlyAccessed_[v] = uses[v] == 1;
  for (size_t v = 0; v < m_.values.size(); ++v)
    if (m_.values[v].kind == ir::ValueKind::Global) uniformPointer_[v] = true;
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
  for (const std::vector<uint32_t>& mode : entry.executionModes)
    if (!mode.empty() && mode[0] == spv::ExecutionModeEarlyFragmentTests) x_.earlyFragmentTests = true;
  x_.sourceFiles = m_.sourceFiles;
  for (int i = 0; i < 3; ++i) x_.localSize[i] = std::max(1u, entry.localSize[i]);
  if (m_.function.blocks.empty()) return FailText("a shader without a body");
  if (!AssignConstants()) return false;
  if (!AssignGlobals()) return false;
  if (!AssignFunctionVariables()) return false;
  const uint32_t fixedSlots = x_.slotCount;
  x_.constantWords.resize(fixedSlots, 0);
  AssignResults();
  FindOnlyAccessedPointers();
  OrderBlocks();
  CoalesceLoopPhis();
  x_.blocks.resize(order_.size());
  for (uint32_t i = 0; i < order_.size(); ++i)
    if (!EmitBlock(order_[i])) return false;
  // Scratch for parallel phi copies.
  x_.tempSlot = NewSlots(x_.tempSlots);
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
      if (slot_[phi.result] == slot_[source]) break;  // the value was computed in the phi's slot (CoalesceLoopPhis)
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

  switch (LaneWiseFormOf(op)) {
    case LaneWiseForm::kUnary: {
      OpHandler fn = ops::Unary(op, first, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), 0, 0, components(inst.type), 0);
      return true;
    }
    case LaneWiseForm::kConversion: {
      OpHandler fn = ops::Convert(op, first, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), 0, 0, components(inst.type), 0);
      return true;
    }
    case LaneWiseForm::kBinary: {
      OpHandler fn = ops::Binary(op, first, second, result);
      if (fn == nullptr) return Fail(inst, "unsupported operand type for");
      Emit(fn, dst, slot(0), slot(1), 0, components(m_.values[values[0]].type), 0);
      return true;
    }
    case LaneWiseForm::kSelect: {
      const uint32_t n = layout_.Slots(inst.type);
      const ir::Type& cond = TypeOf(values[0]);
      const uint32_t perComponent = cond.kind == ir::TypeKind::Vector ? cond.count : 0;
      Emit(&ops::Select, dst, slot(0), slot(1), slot(2), n, perComponent);
      return true;
    }
    case LaneWiseForm::kNone:
      break;
  }
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
    case spv::OpPtrEqual: case spv::OpPtrNotEqual:
      // Pointers of one type share one encoding (executable.h): equal exactly when their 64-bit values are.
      Emit(&ops::PointerCompare, dst, slot(0), slot(1), 0, 0, op == spv::OpPtrNotEqual ? 1 : 0);
      return true;
    case spv::OpPtrDiff: {
      // "the number of elements ... between Operand 1 and Operand 2" (SPIR-V 1.6, OpPtrDiff): the pointers'
      // distance divided by the element OpPtrAccessChain steps by — the pointer type's ArrayStride in explicit
      // memory (else the pointee's size), the pointee's slots in workgroup memory.
      const ir::Type& pointer = TypeOf(values[0]);
      uint32_t element = 0;
      if (IsExplicit(pointer.storageClass)) {
        element = pointer.arrayStride;
        if (element == 0) {
          std::string why;
          const uint32_t access = AccessFor(pointer.element, 0, &why);
          if (access != kNone) element = x_.accesses[access].extent;
        }
      } else {
        element = layout_.Slots(pointer.element);
      }
      if (element == 0) return Fail(inst, "a pointer to an element of unknown size in");
      Emit(&ops::PointerDiff, dst, slot(0), slot(1), 0, element, layout_.Slots(inst.type));
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
    case spv::OpSubgroupBallotKHR: case spv::OpSubgroupFirstInvocationKHR: case spv::OpSubgroupReadInvocationKHR:
    case spv::OpSubgroupAllKHR: case spv::OpSubgroupAnyKHR: case spv::OpSubgroupAllEqualKHR:
      return EmitSubgroupKhr(inst, operands);
    default:
      if (op >= spv::OpGroupNonUniformElect && op <= spv::OpGroupNonUniformQuadSwap) return EmitSubgroup(inst, operands);
      return Fail(inst, "");
  }
}

}  // namespace builder

std::shared_ptr<const Executable> BuildExecutable(const ir::Module& module, std::string* message) {
  auto executable = std::make_shared<Executable>();
  builder::Builder builder(module, *executable, message);
  if (!builder.Run()) return nullptr;
  return executable;
}

}  // namespace crashtest::execution