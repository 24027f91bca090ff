// Extracts of a composite move up to right after the composite's definition, in the same block: a back end splits
// a vector into its components where the vector is produced (ACO's p_split_vector after a load or any other vector
// result), so each component is its own value from there on and the ones nobody reads die at once. Only
// OpCompositeExtract of a composite defined earlier in the same block by something other than a phi moves; the
// order of everything else is kept.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns whether any instruction moved.
bool HoistExtracts(Module& module);

}  // namespace crashtest::ir
