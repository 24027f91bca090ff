// SPIR-V validation with SPIRV-Tools' validator (what spirv-val runs). Its messages are captured, never printed.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <span>
#include <string>

namespace crashtest::pipeline {

// Returns true when `words` is a valid module for `env`. Otherwise `message` says why, in one line: the
// validator's first error with the offending instruction, e.g. "ID '7[%7]' has not been defined ...".
bool ValidateSpirv(std::span<const uint32_t> words, spv_target_env env, std::string* message);

// Folds a multi-line SPIRV-Tools message into one log line.
std::string OneLine(const std::string& text);

}  // namespace crashtest::pipeline
