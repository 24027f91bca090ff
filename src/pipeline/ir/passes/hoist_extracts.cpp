#include "pipeline/ir/passes/hoist_extracts.h"

#include <spirv/unified1/spirv.hpp>

namespace crashtest::ir {

bool HoistExtracts(Module& module) {
  bool changed = false;
  std::vector<std::vector<uint32_t>> extractsOf;  // per instruction index of the block: indices of its extracts
  std::vector<uint8_t> hoisted;
  std::vector<Instruction> order;
  for (BlockId b = 0; b < module.function.blocks.size(); ++b) {
    std::vector<Instruction>& instructions = module.function.blocks[b].instructions;
    const size_t n = instructions.size();
    extractsOf.assign(n, {});
    hoisted.assign(n, 0);
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) {
      const Instruction& inst = instructions[i];
      if (inst.op != spv::OpCompositeExtract) continue;
      const Value& composite = module.values[module.Operands(inst)[0]];
      if (composite.kind != ValueKind::Instruction || composite.owner != b) continue;
      if (instructions[composite.index].op == spv::OpPhi) continue;
      extractsOf[composite.index].push_back(i);
      hoisted[i] = 1;
      // Already right after its composite (or after the extracts before it): nothing moves for it.
      any |= i != composite.index + extractsOf[composite.index].size();
    }
    if (!any) continue;
    changed = true;
    order.clear();
    order.reserve(n);
    // Emits an instruction, then its extracts (and theirs) right after it.
    auto emit = [&](auto&& self, uint32_t i) -> void {
      order.push_back(instructions[i]);
      for (uint32_t e : extractsOf[i]) self(self, e);
    };
    for (uint32_t i = 0; i < n; ++i)
      if (!hoisted[i]) emit(emit, i);
    instructions.swap(order);
    for (uint32_t k = 0; k < instructions.size(); ++k)
      if (instructions[k].result != kNone) module.values[instructions[k].result].index = k;
  }
  return changed;
}

}  // namespace crashtest::ir
