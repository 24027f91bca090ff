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

}  // namespace crashtest::execution
