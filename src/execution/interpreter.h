// Runs one subgroup of a workgroup over the executable's blocks in structured order, in lock-step over its lanes,
// until it finishes, reaches a workgroup barrier (it then yields to the workgroup's other subgroups) or stops at a
// fault or an exhausted budget.
#pragma once

#include <cstdint>

#include "execution/lanes.h"

namespace crashtest::execution {

enum class RunResult : uint8_t { Finished, Yielded, Stopped };

// Starts a subgroup at the entry block with `live` lanes (its state's registers, private memory and masks are
// allocated by the caller).
void StartSubgroup(SubgroupState& state, uint64_t live);

RunResult RunSubgroup(SubgroupState& state);

// Writes the slots fixed for the whole dispatch or draw into a subgroup's registers (state.regs, state.width lanes):
// the executable's constants, then the context's per-dispatch patches (64-bit values over two slots). Once per
// register file, not per workgroup: nothing the shader runs writes these slots.
void FillFixedSlots(SubgroupState& state);

}  // namespace crashtest::execution
