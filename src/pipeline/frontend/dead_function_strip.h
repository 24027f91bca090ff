// Removes the functions no entry point reaches from an inlined module, word by word. After exhaustive inlining
// every callee is dead; SPIRV-Tools' eliminate-dead-functions removes them too, but walks the module's
// non-semantic instructions once per dead function (28 % of the optimiser on particle_update.comp), where this is
// one pass over the words.
#pragma once

#include <cstdint>
#include <vector>

#include <spirv-tools/libspirv.h>

namespace crashtest::pipeline {

// Strips from `words` (a valid module in which no entry point function calls another) every OpFunction …
// OpFunctionEnd that is not an entry point, the debug names and decorations of the ids they defined, and the
// non-semantic instructions (NonSemantic.* OpExtInst) that refer to them, directly or through another stripped one.
// False, with `words` unchanged, when the words do not parse or a remaining instruction still refers to a stripped
// id (a call from an entry point, a group decoration): the caller then keeps the dead functions.
bool StripUncalledFunctions(std::vector<uint32_t>& words, spv_target_env env);

}  // namespace crashtest::pipeline
