#include "pipeline/frontend/spirv_validator.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdio>

namespace crashtest::pipeline {

namespace {
constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
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
  std::string first;
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer([&first](spv_message_level_t level, const char*, const spv_position_t& position,
                                    const char* text) {
    if (level > SPV_MSG_ERROR || !first.empty()) return;
    first = OneLine(text);
    if (position.index != 0) first += " (at word " + std::to_string(position.index) + ")";
  });
  spvtools::ValidatorOptions options;
  if (tools.Validate(words.data(), words.size(), options)) return true;
  *message = first.empty() ? std::string("the SPIR-V validator rejected the module") : first;
  return false;
}

}  // namespace crashtest::pipeline
