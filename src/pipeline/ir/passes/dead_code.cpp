#include "pipeline/ir/passes/dead_code.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>

#include "pipeline/ir/passes/instruction_properties.h"
#include "pipeline/ir/passes/ir_editing.h"

namespace crashtest::ir {

namespace {

bool IsAccessChain(uint16_t op) {
  return op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain || op == spv::OpPtrAccessChain ||
         op == spv::OpInBoundsPtrAccessChain;
}

// For every value: the Function variable it points into (the variable itself or an access chain of it), kNone
// otherwise; and which of those variables are only ever written. Blocks are in SPIR-V order, where a definition
// comes before its non-phi uses, so one pass finds every chain's root.
std::vector<ValueId> WriteOnlyVariableRoots(const Module& module) {
  std::vector<ValueId> root(module.values.size(), kNone);
  bool any = false;
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) {
      if (inst.result == kNone) continue;
      if (inst.op == spv::OpVariable && module.types[inst.type].storageClass == spv::StorageClassFunction) {
        root[inst.result] = inst.result;
        any = true;
      } else if (IsAccessChain(inst.op) && inst.valueCount > 0) {
        root[inst.result] = root[module.Operands(inst)[0]];
      }
    }
  if (!any) return {};
  std::vector<bool> escapes(module.values.size(), false);
  for (const Block& block : module.function.blocks)
    for (const Instruction& inst : block.instructions) {
      auto operands = module.Operands(inst);
      for (uint32_t k = 0; k < inst.valueCount; ++k) {
        ValueId r = root[operands[k]];
        if (r == kNone) continue;
        bool writes = inst.op == spv::OpStore && k == 0;
        bool chains = IsAccessChain(inst.op) && k == 0;
        if (!writes && !chains) escapes[r] = true;
      }
    }
  for (ValueId& r : root)
    if (r != kNone && escapes[r]) r = kNone;
  return root;
}

}  // namespace

bool EliminateDeadCode(Module& module) {
  Function& function = module.function;
  std::vector<ValueId> writeOnly = WriteOnlyVariableRoots(module);
  auto isDeadStore = [&](const Instruction& inst) {
    return !writeOnly.empty() && inst.op == spv::OpStore && inst.valueCount > 0 &&
           writeOnly[module.Operands(inst)[0]] != kNone;
  };
  std::vector<bool> live(module.values.size(), false);
  std::vector<const Instruction*> worklist;
  auto markOperands = [&](const Instruction& inst) {
    auto operands = module.Operands(inst);
    for (uint32_t k = 0; k < inst.valueCount; ++k) {
      ValueId v = operands[k];
      if (live[v]) continue;
      live[v] = true;
      const Value& value = module.values[v];
      if (value.kind == ValueKind::Instruction && value.owner != kNone)
        worklist.push_back(&function.blocks[value.owner].instructions[value.index]);
    }
  };
  for (const Block& block : function.blocks)
    for (const Instruction& inst : block.instructions) {
      if (inst.result != kNone && IsRemovableIfUnused(module, inst)) continue;
      if (isDeadStore(inst)) continue;
      if (inst.result != kNone) live[inst.result] = true;
      markOperands(inst);
    }
  while (!worklist.empty()) {
    const Instruction* inst = worklist.back();
    worklist.pop_back();
    markOperands(*inst);
  }
  for (Global& global : module.globals)
    if (global.initializer != kNone) live[global.initializer] = true;

  bool changed = false;
  for (Block& block : function.blocks)
    for (Instruction& inst : block.instructions) {
      bool dead = inst.result != kNone ? !live[inst.result] : isDeadStore(inst);
      if (!dead) continue;
      MarkErased(module, inst);
      changed = true;
    }
  if (changed) CompactInstructions(module);

  // Globals nothing uses, except the stage interface (Input/Output).
  std::vector<uint32_t> renumber(module.globals.size(), kNone);
  uint32_t kept = 0;
  for (uint32_t g = 0; g < module.globals.size(); ++g) {
    const Global& global = module.globals[g];
    bool interface = global.storageClass == spv::StorageClassInput || global.storageClass == spv::StorageClassOutput;
    if (interface || live[global.value]) renumber[g] = kept++;
  }
  if (kept != module.globals.size()) {
    changed = true;
    std::vector<Global> globals;
    globals.reserve(kept);
    for (uint32_t g = 0; g < module.globals.size(); ++g) {
      Value& value = module.values[module.globals[g].value];
      value.owner = renumber[g];
      if (renumber[g] != kNone) globals.push_back(std::move(module.globals[g]));
    }
    module.globals = std::move(globals);
    std::erase_if(module.entryPoint.interface, [&](ValueId v) {
      const Value& value = module.values[v];
      return value.kind == ValueKind::Global && value.owner == kNone;
    });
  }
  return changed;
}

}  // namespace crashtest::ir
