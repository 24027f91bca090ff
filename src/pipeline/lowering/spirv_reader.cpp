#include "pipeline/lowering/spirv_reader.h"

#include <cstring>

namespace crashtest::pipeline {

std::string SpirvModule::String(const SpirvInstruction& inst, const SpirvOperand& operand) const {
  // A literal string is UTF-8, NUL-terminated and padded to whole words.
  const char* begin = reinterpret_cast<const char*>(words.data() + inst.wordOffset + operand.offset);
  return std::string(begin, strnlen(begin, size_t{operand.numWords} * 4));
}

namespace {

struct ParseState {
  SpirvModule* module;
};

spv_result_t OnHeader(void* userData, spv_endianness_t, uint32_t, uint32_t version, uint32_t, uint32_t idBound,
                      uint32_t) {
  auto* state = static_cast<ParseState*>(userData);
  state->module->version = version;
  state->module->bound = idBound;
  return SPV_SUCCESS;
}

spv_result_t OnInstruction(void* userData, const spv_parsed_instruction_t* parsed) {
  SpirvModule& module = *static_cast<ParseState*>(userData)->module;
  SpirvInstruction inst{};
  inst.opcode = parsed->opcode;
  inst.numWords = parsed->num_words;
  inst.wordOffset = static_cast<uint32_t>(parsed->words - module.words.data());
  inst.typeId = parsed->type_id;
  inst.resultId = parsed->result_id;
  inst.firstOperand = static_cast<uint32_t>(module.operands.size());
  inst.operandCount = parsed->num_operands;
  for (uint16_t i = 0; i < parsed->num_operands; ++i) {
    const spv_parsed_operand_t& operand = parsed->operands[i];
    module.operands.push_back({operand.offset, operand.num_words, operand.type});
  }
  module.instructions.push_back(inst);
  return SPV_SUCCESS;
}

}  // namespace

bool ReadSpirv(std::span<const uint32_t> words, spv_target_env env, SpirvModule* module, std::string* message) {
  module->words = words;
  module->instructions.clear();
  module->operands.clear();
  // A rough upper bound keeps the vectors from regrowing: an instruction takes at least one word.
  module->instructions.reserve(words.size() / 3);
  module->operands.reserve(words.size());
  spv_context context = spvContextCreate(env);
  ParseState state{module};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvBinaryParse(context, &state, words.data(), words.size(), OnHeader, OnInstruction, &diagnostic);
  if (result != SPV_SUCCESS) {
    *message = diagnostic != nullptr && diagnostic->error != nullptr ? diagnostic->error : "unparsable SPIR-V";
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return result == SPV_SUCCESS;
}

}  // namespace crashtest::pipeline
