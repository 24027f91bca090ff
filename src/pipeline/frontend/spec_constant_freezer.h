// Specialisation constants frozen directly on the SPIR-V words, without SPIRV-Tools, for the common case: scalar
// spec constants, composites of them (gl_WorkGroupSize), integer/boolean OpSpecConstantOp expressions on scalars
// and vectors, and Select and FConvert of any type (which SPIRV-Tools' folding leaves alone).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "pipeline/frontend/specialization.h"

namespace crashtest::pipeline {

enum class FreezeResult { Frozen, NotHandled };

// Does what SPIRV-Tools' set-spec-constant-default-value, freeze-spec-constant-value and
// fold-spec-constant-op-and-composite do, in one pass over the instructions (function bodies are copied untouched):
// OpSpecConstant{True,False,} become constants with the application's value for their SpecId (or the default),
// OpSpecConstantComposite becomes OpConstantComposite, integer/boolean OpSpecConstantOp are evaluated (vectors
// component by component), OpSpecConstantOp Select (scalar or vector condition) becomes a copy of the chosen
// constant or a composite of the chosen components, FConvert of a float scalar or vector is converted (round to
// nearest even), and the SpecId decorations are removed. Result ids are kept; a vector result computed here adds
// one id per component. Returns NotHandled (with `out` unspecified) for anything outside that subset — composite
// operations (CompositeExtract/Insert, VectorShuffle), QuantizeToF16, division by zero, undefined results — and
// the caller then runs SPIRV-Tools, then this again on its output for what SPIRV-Tools leaves (Select, FConvert,
// vector UConvert; optimizer.cpp). Between the two every opcode
// OpSpecConstantOp allows with the Shader capability is frozen. `words` must be valid SPIR-V.
FreezeResult FreezeSpecConstants(std::span<const uint32_t> words, const SpecializationValues& values,
                                 std::vector<uint32_t>* out);

// A scalar constant as the evaluation sees it: `width` 1 for a boolean, else the integer width; `bits` holds the
// value zero-extended from `width`.
struct ScalarConstant {
  uint32_t width = 32;
  uint64_t bits = 0;
};

// Evaluates one OpSpecConstantOp opcode (spv::Op) on scalar constants for a result of `resultWidth` (1: boolean).
// Returns nullopt when the opcode is not supported or the result is undefined by the SPIR-V spec (division by zero,
// signed overflow of SDiv/SRem/SMod, a shift by the width or more).
std::optional<uint64_t> EvaluateScalarSpecOp(uint32_t opcode, uint32_t resultWidth,
                                             std::span<const ScalarConstant> operands);

}  // namespace crashtest::pipeline
