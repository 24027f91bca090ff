// Dead-code elimination by mark and sweep: live are the instructions with side effects, the terminators, and
// everything they use, transitively (so unused phi cycles go too). Also removed:
// - Function variables that are only stored to (never loaded, never passed to another instruction), with their
//   stores and access chains;
// - global variables no instruction uses any more, except Input and Output ones (the stage interface, which
//   SPIRV-Tools' aggressive DCE keeps too); they leave Module::globals and the entry point's interface list, so a
//   dead Workgroup array no longer counts as shared memory.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns whether the module changed.
bool EliminateDeadCode(Module& module);

}  // namespace crashtest::ir
