// Bytes of memory a shader declares: its workgroup (shared) variables (the Function/Private variables the
// optimiser could not promote to registers are private_arrays.h's).
#pragma once

#include <cstdint>

#include "pipeline/ir/module.h"

namespace crashtest::statistics {

// Size in bytes of a value of `type` in memory: explicit ArrayStride/Offset decorations where present,
// otherwise natural layout (each member aligned to its scalar size, as VK_KHR_workgroup_memory_explicit_layout
// and drivers lay out undecorated workgroup variables). Booleans take 4 bytes.
uint64_t TypeSizeBytes(const ir::Module& module, ir::TypeId type);

// Sum of the Workgroup-storage variables' sizes.
uint64_t WorkgroupMemoryBytes(const ir::Module& module);

}  // namespace crashtest::statistics
