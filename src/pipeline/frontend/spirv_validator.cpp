#include "pipeline/frontend/spirv_validator.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdio>

namespace crashtest::pipeline {

namespace {
constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;

bool RunValidator(std::span<const uint32_t> words, spv_target_env env, bool friendlyNames, std::string* first) {
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer([first](spv_message_level_t level, const char*, const spv_position_t& position,
                                   const char* text) {
    if (first == nullptr || level > SPV_MSG_ERROR || !first->empty()) return;
    *first = OneLine(text);
    if (position.index != 0) *first += " (at word " + std::to_string(position.index) + ")";
  });
  spvtools::ValidatorOptions options;
  options.SetFriendlyNames(friendlyNames);
  return tools.Validate(words.data(), words.size(), options);
}

}  // namespace

std::string OneLine(const std::string& text) {
  std::string line;
  line.reserve(text.size());
  bool pendingBreak = false;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      pendingBreak = !line.empty();
      continue;
    }
    if (pendingBreak) {
      line += " | ";
      pendingBreak = false;
    }
    line += c;
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

bool ValidateSpirv(std::span<const uint32_t> words, spv_target_env env, std::string* message) {
  // The validator reports these too, but less plainly ("Invalid SPIR-V magic number" covers byte-swapped input,
  // which Vulkan does not accept either: "pCode must point to valid SPIR-V code", VUID-VkShaderModuleCreateInfo-pCode-08737).
  if (words.size() < kHeaderWords) {
    char text[128];
    std::snprintf(text, sizeof text, "truncated module: %zu words, the SPIR-V header alone is %zu", words.size(),
                  kHeaderWords);
    *message = text;
    return false;
  }
  if (words[0] != kSpirvMagic) {
    char text[128];
    std::snprintf(text, sizeof text, "wrong magic number 0x%08x (SPIR-V starts with 0x%08x)", words[0], kSpirvMagic);
    *message = text;
    return false;
  }
  // Valid modules are the common case: validate them without friendly names. Naming every id
  // (spvtools::FriendlyNameMapper parses the whole module a second time and formats a name per id) is a third of
  // the validator's time on small shaders and only ever shows in a message. A module that fails is validated again
  // with names, so the message reads "%gl_GlobalInvocationID" rather than "%12".
  if (RunValidator(words, env, /*friendlyNames=*/false, nullptr)) return true;
  std::string first;
  RunValidator(words, env, /*friendlyNames=*/true, &first);
  *message = first.empty() ? std::string("the SPIR-V validator rejected the module") : first;
  return false;
}

}  // namespace crashtest::pipeline
