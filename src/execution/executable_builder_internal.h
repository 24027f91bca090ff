// The builder behind BuildExecutable (executable_builder.h), split by instruction family across
// executable_builder*.cpp. Internal to src/execution: nothing outside includes this header.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "execution/executable.h"
#include "execution/type_layout.h"
#include "pipeline/ir/module.h"

namespace crashtest::execution::builder {

using ir::kNone;

// Storage classes whose memory has an explicit layout (Offset/ArrayStride decorations).
bool IsExplicit(uint32_t storageClass);
// Storage classes held in each invocation's private words.
bool IsPrivateMemory(uint32_t storageClass);

class Builder {
 public:
  Builder(const ir::Module& module, Executable& out, std::string* message)
      : m_(module), x_(out), message_(message), layout_(module), slot_(module.values.size(), kNone),
        patchedGlobal_(module.values.size(), false), onlyAccessed_(module.values.size(), false),
        uniformPointer_(module.values.size(), false), fusedChain_(module.values.size(), kNone) {}

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
  void WriteNull(ir::TypeId type, uint32_t* words);
  bool AssignGlobals();
  bool AssignFunctionVariables();
  // A graphics stage's input or output variable at private word `word`: its built-ins and locations.
  bool AssignInterface(const ir::Global& global, ir::TypeId pointee, uint32_t word, uint32_t words);
  bool AddLocations(const ir::Global& global, ir::TypeId type, uint32_t* location, uint32_t word,
                    std::vector<InterfaceSlot>* out);
  void AssignResults();
  void FindOnlyAccessedPointers();
  void CoalesceLoopPhis();  // executable_builder_phis.cpp
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
  bool EmitInterpolateAt(const ir::Instruction& inst, std::span<const uint32_t> values, uint32_t ext);
  bool EmitAtomic(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitSubgroup(const ir::Instruction& inst, std::span<const uint32_t> operands);
  bool EmitSubgroupKhr(const ir::Instruction& inst, std::span<const uint32_t> operands);
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
  // Fusion of buffer accesses with their address (ops_fused_memory.cpp). onlyAccessed_: values used only as the
  // pointer of loads and stores. uniformPointer_: pointers the same in every lane and fixed before the dispatch
  // runs (globals, and globals plus constant indices). fusedChain_: an access chain `global[i]` emitted as no
  // operation of its own; its loads and stores compute the address: the index of {the global's pointer slot, the
  // chain's extra} in Executable::extra.
  std::vector<bool> onlyAccessed_;
  std::vector<bool> uniformPointer_;
  std::vector<uint32_t> fusedChain_;
};

}  // namespace crashtest::execution::builder
