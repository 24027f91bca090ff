#include "pipeline/ir/passes/sink_comparisons.h"

#include <spirv/unified1/spirv.hpp>

#include "pipeline/ir/passes/instruction_properties.h"

namespace crashtest::ir {

bool SinkComparisons(Module& module) {
  bool changed = false;
  std::vector<std::vector<uint32_t>> attached;  // per instruction index: the comparisons placed right before it
  std::vector<uint32_t> firstUser;
  std::vector<Instruction> order;
  for (BlockId b = 0; b < module.function.blocks.size(); ++b) {
    std::vector<Instruction>& instructions = module.function.blocks[b].instructions;
    const uint32_t n = static_cast<uint32_t>(instructions.size());
    if (n < 3) continue;
    // The first instruction after each comparison that reads it; the terminator when none does (a phi reads its
    // operands at the end of a predecessor, so it does not count).
    firstUser.assign(n, kNone);
    bool anyComparison = false;
    for (uint32_t j = 0; j < n; ++j) {
      const Instruction& inst = instructions[j];
      if (inst.op != spv::OpPhi) {
        auto operands = module.Operands(inst);
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          const Value& value = module.values[operands[k]];
          if (value.kind != ValueKind::Instruction || value.owner != b || value.index >= j) continue;
          if (IsComparison(instructions[value.index].op) && firstUser[value.index] == kNone) firstUser[value.index] = j;
        }
      }
      anyComparison |= IsComparison(inst.op) && inst.result != kNone;
    }
    if (!anyComparison) continue;
    attached.assign(n, {});
    bool moves = false;
    for (uint32_t i = 0; i + 1 < n; ++i) {
      if (!IsComparison(instructions[i].op) || instructions[i].result == kNone) continue;
      uint32_t user = firstUser[i] == kNone ? n - 1 : firstUser[i];
      attached[user].push_back(i);
      moves |= user != i + 1;
    }
    if (!moves) continue;
    changed = true;
    order.clear();
    order.reserve(n);
    // Emits the comparisons attached to an instruction (each after its own attached comparisons), then it.
    auto emit = [&](auto&& self, uint32_t i) -> void {
      for (uint32_t c : attached[i]) self(self, c);
      order.push_back(instructions[i]);
    };
    for (uint32_t i = 0; i < n; ++i) {
      bool isAttached = IsComparison(instructions[i].op) && instructions[i].result != kNone && i + 1 < n;
      if (!isAttached) emit(emit, i);
    }
    instructions.swap(order);
    for (uint32_t k = 0; k < instructions.size(); ++k)
      if (instructions[k].result != kNone) module.values[instructions[k].result].index = k;
  }
  return changed;
}

}  // namespace crashtest::ir
