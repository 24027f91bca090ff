// Constant folding and algebraic simplification, with SPIR-V's semantics exactly:
// - integer arithmetic wraps at the operand width; signedness comes from the opcode, not the type;
// - float arithmetic is the host's IEEE binary32/binary64 arithmetic (round to nearest even), as SPIRV-Tools'
//   folder does; 16-bit floats are not folded;
// - nothing whose result SPIR-V leaves undefined is folded: integer division or remainder by zero, signed
//   division of the minimum value by -1, shifts by the bit width or more, float-to-integer conversions out of
//   range, float division by zero;
// - identities only where they hold for every input: x+0, x-0, x*1, x*0 (integers), x/1, x&0, x&~0, x|0, x|~0,
//   x^0, shifts by 0, !!x, ~~x, -(-x), select with a constant condition or equal arms, a&&true, a||false, ...;
//   for floats only x*1, x/1, x-(+0), x+(-0) and -(-x) (x+(+0) is not x for x = -0);
// - OpCompositeExtract through constant composites, OpCompositeConstruct, OpCompositeInsert chains and
//   OpVectorShuffle; OpCompositeConstruct of the elements of one composite in order (scalar replacement's
//   reassembly) is that composite; constant OpCompositeConstruct and OpVectorShuffle; phis whose incoming values
//   are all one value.
// - integer chains with two constants (x + 16 - 1, x * 4 * 2) become one instruction with one constant.
// Not done, unlike SPIRV-Tools' simplification, because none is exact: float identities such as x*0 = 0 (not for
// NaN, infinities or negative x) and x+0 = x (not for -0), float reassociation, contraction of a multiply and an
// add into Fma, division by a constant as multiplication by its reciprocal. The float identities a back end applies
// anyway are FoldOptions::inexactFloatIdentities, for the statistics' view of the shader only.
// Replaced instructions are removed; their uses take the folded value (a constant, interned: see ConstantPool).
#pragma once

#include "pipeline/ir/module.h"

namespace crashtest::ir {

struct FoldOptions {
  // Also the float identities a GPU back end applies that do not hold for NaN, infinities or the sign of zero:
  // NIR's `~fmul a 0.0 -> 0.0`, `~fadd a 0.0 -> a`, `~fsub a 0.0 -> a` (either sign of zero) on instructions not
  // decorated NoContraction, and `fmul a 0.0 -> 0.0` on 16- and 32-bit ones even when they are. Vulkan allows them
  // unless the entry point declares SignedZeroInfNanPreserve for the width ("Precision and Operation of SPIR-V
  // Instructions"), and then none is applied. Not for execution, which keeps IEEE results: the statistics use it
  // to see the code a back end emits (statistics/back_end_view.h).
  bool inexactFloatIdentities = false;
};

// Returns whether the module changed.
bool FoldConstants(Module& module, FoldOptions options = {});

// Whether FoldOptions::inexactFloatIdentities may fold an instruction of the module: a float multiply, add or
// subtract it applies to whose operand's first component is a zero. A quick test, so that most shaders skip the
// fold's copy of the module.
bool HasInexactFloatIdentities(const Module& module);

}  // namespace crashtest::ir
