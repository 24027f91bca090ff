// Memory-to-register promotion on the IR (what SPIRV-Tools' private-to-local, local-single-block-elim,
// local-single-store-elim, scalar-replacement and ssa-rewrite do together), for the one inlined function.
//
// Candidates are Function variables and Private globals: after inlining there is one function, so a Private
// variable behaves as a Function variable initialised at entry with its initializer (undefined without one).
// A candidate is promoted when every use is an OpLoad / OpStore of the whole variable or of an OpAccessChain /
// OpInBoundsAccessChain with constant, in-range indices whose results are only loaded and stored (or chained
// further the same way). Composite variables are split into one SSA value per leaf accessed (scalar
// replacement); a load of a split part is rebuilt with OpCompositeConstruct, a store to one is split with
// OpCompositeExtract. Anything else — a dynamic index, a volatile access, the pointer used by any other
// instruction (copy, atomic, phi, select, ...) — leaves the variable in memory, untouched.
//
// SSA construction: phis at the iterated dominance frontier of the stores, renaming along the dominator tree;
// phis, extracts and constructs the pass created and nothing uses are removed again (pruned SSA). Loads in
// unreachable blocks read undef; a new phi has an operand per Block::predecessors entry (undef for unreachable
// predecessors).
//
// Afterwards the promoted variables, their access chains, loads and stores are gone. Their result ValueIds stay in
// Module::values with no definition (Value::owner == kNone; a removed Private global is also erased from
// Module::globals and the entry point's interface); new values (phis, composites, undefs, null constants) are
// appended to Module::values with fresh SPIR-V ids above the module's largest.
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Returns whether the module changed.
bool PromoteMemoryToRegisters(Module& module);

}  // namespace crashtest::ir
