#include "pipeline/ir/module.h"

namespace crashtest::ir {

size_t Module::InstructionCount() const {
  size_t count = 0;
  for (const Block& block : function.blocks) count += block.instructions.size();
  return count;
}

size_t Module::EncodedSizeBytes() const {
  size_t words = 0;
  for (const Block& block : function.blocks)
    for (const Instruction& inst : block.instructions) words += 1 + (inst.result != kNone ? 1 : 0) + inst.operandCount;
  return words * 4;
}

}  // namespace crashtest::ir
