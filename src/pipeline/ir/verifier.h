// Structural, SSA-dominance and type checks of an IR module. Lowering bugs surface here rather than as wrong
// statistics or a crashing interpreter.
#pragma once

#include <string>

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns true when the module is well-formed; otherwise `message` names the first problem, its block and
// instruction.
bool Verify(const Module& module, std::string* message);

}  // namespace crashtest::ir
