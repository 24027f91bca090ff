// Comparisons move down to their first use in their block, or to the end of the block when only the terminator or
// other blocks use them, as RADV's NIR pipeline does (nir_opt_move with nir_move_comparisons): the boolean is then
// computed next to the branch or select that reads it, so the back end can keep it in the condition register, and
// what the comparison reads stays live until there. The order of everything else is kept.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns whether any instruction moved.
bool SinkComparisons(Module& module);

}  // namespace crashtest::ir
