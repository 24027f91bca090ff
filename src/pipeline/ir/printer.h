// The IR as text a person can read: one instruction per line, block labels with their structured-control-flow
// role, loop depth and trip count, and optionally the live register components at each instruction.
#pragma once

#include <string>

#include "pipeline/ir/module.h"

namespace crashtest::analysis {
class LoopInfo;
class Liveness;
class Uniformity;
}  // namespace crashtest::analysis

namespace crashtest::ir {

struct PrintOptions {
  const analysis::LoopInfo* loops = nullptr;     // adds loop depth and trip counts to block labels
  const analysis::Liveness* liveness = nullptr;  // adds "live N" (32-bit components) to every instruction
  // adds "uniform" to results the whole subgroup shares and "divergent branch" to blocks that split it
  const analysis::Uniformity* uniformity = nullptr;
};

std::string Print(const Module& module, const PrintOptions& options = {});
std::string TypeName(const Module& module, TypeId type);
const char* StorageClassName(uint32_t storageClass);

}  // namespace crashtest::ir
