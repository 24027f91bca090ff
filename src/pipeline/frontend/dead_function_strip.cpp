#include "pipeline/frontend/dead_function_strip.h"

#include <spirv/unified1/spirv.hpp>

#include <string>
#include <string_view>
#include <unordered_set>

#include "pipeline/lowering/spirv_reader.h"

namespace crashtest::pipeline {
namespace {

constexpr size_t kHeaderWords = 5;

struct Instruction {
  size_t at;  // index of the first word
  uint32_t count;
  uint32_t opcode;
  uint32_t resultId;  // 0 when none
};

// The instructions with their result ids, from the grammar (spirv_reader.h); empty when the words do not parse.
std::vector<Instruction> Index(const std::vector<uint32_t>& words, spv_target_env env) {
  SpirvModule module;
  std::string message;
  if (!ReadSpirv(words, env, &module, &message)) return {};
  std::vector<Instruction> list;
  list.reserve(module.instructions.size());
  for (const SpirvInstruction& inst : module.instructions)
    list.push_back({inst.wordOffset, inst.numWords, inst.opcode, inst.resultId});
  return list;
}

}  // namespace

bool StripUncalledFunctions(std::vector<uint32_t>& words, spv_target_env env) {
  const std::vector<Instruction> list = Index(words, env);
  if (list.empty()) return false;
  std::unordered_set<uint32_t> entryFunctions, nonSemanticSets;
  for (const Instruction& inst : list) {
    if (inst.opcode == spv::OpEntryPoint && inst.count > 2) entryFunctions.insert(words[inst.at + 2]);
    if (inst.opcode == spv::OpExtInstImport && inst.count > 2) {
      const std::string_view text(reinterpret_cast<const char*>(&words[inst.at + 2]), (inst.count - 2) * 4u);
      if (text.starts_with("NonSemantic."))
        nonSemanticSets.insert(words[inst.at + 1]);
    }
  }
  // The dead functions' instructions and every id they define.
  std::vector<bool> drop(list.size(), false);
  std::unordered_set<uint32_t> gone;
  bool inDead = false;
  for (size_t k = 0; k < list.size(); ++k) {
    const Instruction& inst = list[k];
    if (inst.opcode == spv::OpFunction) inDead = inst.count > 2 && !entryFunctions.contains(words[inst.at + 2]);
    if (!inDead) continue;
    drop[k] = true;
    if (inst.resultId != 0) gone.insert(inst.resultId);
    if (inst.opcode == spv::OpFunctionEnd) inDead = false;
  }
  if (gone.empty()) return true;
  auto isNonSemantic = [&](const Instruction& inst) {
    return inst.opcode == spv::OpExtInst && inst.count > 4 && nonSemanticSets.contains(words[inst.at + 3]);
  };
  auto refersToGone = [&](const Instruction& inst, size_t firstOperand) {
    for (size_t w = firstOperand; w < inst.count; ++w)
      if (gone.contains(words[inst.at + w])) return true;
    return false;
  };
  // Names and decorations of stripped ids, and non-semantic instructions referring to them (to a fixpoint: a
  // DebugLexicalBlock inside a stripped DebugFunction goes too).
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < list.size(); ++k) {
      if (drop[k]) continue;
      const Instruction& inst = list[k];
      const bool targets = (inst.opcode == spv::OpName || inst.opcode == spv::OpDecorate ||
                            inst.opcode == spv::OpDecorateId || inst.opcode == spv::OpDecorateString) &&
                           inst.count > 1 && gone.contains(words[inst.at + 1]);
      if (!targets && !(isNonSemantic(inst) && refersToGone(inst, 5))) continue;
      drop[k] = changed = true;
      if (isNonSemantic(inst) && inst.resultId != 0) gone.insert(inst.resultId);
    }
  }
  // Ids defined in a function are used only in it, so what still names a stripped id is a call from an entry point
  // or a group decoration: keep the module as it is then.
  for (size_t k = 0; k < list.size(); ++k) {
    const Instruction& inst = list[k];
    if (drop[k]) continue;
    if (inst.opcode == spv::OpFunctionCall) return false;
    if ((inst.opcode == spv::OpGroupDecorate || inst.opcode == spv::OpGroupMemberDecorate) && refersToGone(inst, 2))
      return false;
  }
  std::vector<uint32_t> kept(words.begin(), words.begin() + kHeaderWords);
  kept.reserve(words.size());
  for (size_t k = 0; k < list.size(); ++k)
    if (!drop[k]) kept.insert(kept.end(), words.begin() + list[k].at, words.begin() + list[k].at + list[k].count);
  words = std::move(kept);
  return true;
}

}  // namespace crashtest::pipeline
