#include "pipeline/frontend/dead_function_strip.h"

#include <spirv/unified1/spirv.hpp>

#include <string_view>
#include <unordered_set>

namespace crashtest::pipeline {
namespace {

constexpr size_t kHeaderWords = 5;

struct Instruction {
  size_t at;      // index of the first word
  uint32_t count;
  uint32_t opcode;
};

// The instructions' positions; empty when a word count is zero or runs past the end.
std::vector<Instruction> Index(const std::vector<uint32_t>& words) {
  std::vector<Instruction> list;
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) return {};
    list.push_back({i, count, words[i] & 0xffffu});
    i += count;
  }
  return list;
}

// The result id of an instruction that has one, else 0: the forms a module's function bodies and non-semantic
// instructions use (result type, then result id) and the few with a result id first.
uint32_t ResultId(const std::vector<uint32_t>& words, const Instruction& inst) {
  switch (inst.opcode) {
    case spv::OpLabel: case spv::OpString: case spv::OpExtInstImport: case spv::OpDecorationGroup:
      return inst.count > 1 ? words[inst.at + 1] : 0;
    case spv::OpStore: case spv::OpBranch: case spv::OpBranchConditional: case spv::OpSwitch: case spv::OpReturn:
    case spv::OpReturnValue: case spv::OpKill: case spv::OpUnreachable: case spv::OpSelectionMerge:
    case spv::OpLoopMerge: case spv::OpLine: case spv::OpNoLine: case spv::OpControlBarrier:
    case spv::OpMemoryBarrier: case spv::OpFunctionEnd: case spv::OpCopyMemory: case spv::OpCopyMemorySized:
    case spv::OpImageWrite: case spv::OpEmitVertex: case spv::OpEndPrimitive: case spv::OpAtomicStore:
    case spv::OpTerminateInvocation: case spv::OpDemoteToHelperInvocation:
      return 0;
    default:
      return inst.count > 2 ? words[inst.at + 2] : 0;
  }
}

}  // namespace

bool StripUncalledFunctions(std::vector<uint32_t>& words) {
  const std::vector<Instruction> list = Index(words);
  if (list.empty()) return false;
  std::unordered_set<uint32_t> entryFunctions, nonSemanticSets;
  for (const Instruction& inst : list) {
    if (inst.opcode == spv::OpEntryPoint && inst.count > 2) entryFunctions.insert(words[inst.at + 2]);
    if (inst.opcode == spv::OpExtInstImport && inst.count > 2) {
      const auto* text = reinterpret_cast<const char*>(&words[inst.at + 2]);
      if (std::string_view(text, std::char_traits<char>::length(text)).starts_with("NonSemantic."))
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
    if (const uint32_t id = ResultId(words, inst); id != 0) gone.insert(id);
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
      if (isNonSemantic(inst)) gone.insert(words[inst.at + 2]);
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
