// The shader as a GPU back end compiles it, where that differs from the IR crashtest executes. The executed IR
// keeps IEEE results (ir/passes/fold_constants.h); a back end also applies the float identities Vulkan allows
// without SignedZeroInfNanPreserve — `x * 0.0` is 0.0, `x + 0.0` is x — and then removes what only fed them: a
// value kept "used" by `peak * 0.0`, the loop computing it, the array it read. The statistics count that code.
#pragma once

#include <memory>

#include "pipeline/compiler.h"

namespace crashtest::statistics {

// A copy of the shader with FoldOptions::inexactFloatIdentities and the clean-up applied and its analyses rebuilt;
// null when no such identity applies (most shaders: a quick scan, no copy). The copy has no optimizedSpirv.
std::shared_ptr<const pipeline::CompiledShader> BackEndViewOf(const pipeline::CompiledShader& shader);

}  // namespace crashtest::statistics
