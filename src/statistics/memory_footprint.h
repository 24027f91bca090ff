// Bytes of memory a shader declares: its workgroup (shared) variables, and the Function/Private variables the
// optimiser could not promote to registers (they live in per-invocation scratch memory).
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

// Sum of the Private globals and Function-storage variables still in the IR that are indexed dynamically (the
// ones a back end cannot promote to registers).
uint64_t PrivateMemoryBytes(const ir::Module& module);

}  // namespace crashtest::statistics
