// A SPIR-V module as a flat list of instructions with grammar-typed operands, read in one pass with operand tables
// generated from the SPIR-V grammar (gen_spirv_operands.py), never from a hand-written table. Operands are split and
// typed as SPIRV-Tools' spvBinaryParse would (tests/pipeline/spirv_reader_test.cpp compares the two).
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace crashtest::pipeline {

struct SpirvOperand {
  uint16_t offset;    // in words from the start of the instruction
  uint16_t numWords;
  spv_operand_type_t type;
};

struct SpirvInstruction {
  uint16_t opcode;
  uint16_t numWords;
  uint32_t wordOffset;  // of the first word in the module
  uint32_t typeId;      // 0 when none
  uint32_t resultId;    // 0 when none
  uint32_t firstOperand;
  uint16_t operandCount;
};

struct SpirvModule {
  std::span<const uint32_t> words;
  uint32_t version = 0;
  uint32_t bound = 0;
  std::vector<SpirvInstruction> instructions;
  std::vector<SpirvOperand> operands;

  std::span<const SpirvOperand> OperandsOf(const SpirvInstruction& inst) const {
    return {operands.data() + inst.firstOperand, inst.operandCount};
  }
  uint32_t Word(const SpirvInstruction& inst, const SpirvOperand& operand, uint32_t i = 0) const {
    return words[inst.wordOffset + operand.offset + i];
  }
  std::string String(const SpirvInstruction& inst, const SpirvOperand& operand) const;
};

// `words` must outlive the result. Returns false with `message` (naming the word offset) when the words are not
// SPIR-V the grammar can split into operands: a short header, a wrong magic number, a word count of 0 or past the
// end, an unknown opcode or enum value, an operand past its instruction, an id of 0 or not below the bound. Never
// reads outside `words`. `env` is unused: the tables hold every opcode of the grammar, and the module was validated
// for its environment before.
bool ReadSpirv(std::span<const uint32_t> words, spv_target_env env, SpirvModule* module, std::string* message);

}  // namespace crashtest::pipeline
