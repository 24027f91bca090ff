// The SPIR-V instructions the builder runs as lane-by-lane kernels, grouped by the form of the operation it emits.
// One list serves the builder (which kernel to emit) and the loop-phi coalescing (whose result may be written over
// an operand): a kernel of these forms computes each lane's component from the same lane's components only,
// reading every operand before writing the result.
#pragma once

#include <cstdint>

namespace crashtest::execution {

enum class LaneWiseForm : uint8_t {
  kNone,        // not lane-wise, or emitted in a form of its own
  kUnary,       // ops::Unary: negation, not, bit count and reverse, IsNan/IsInf
  kConversion,  // ops::Convert: between integer and float types and widths
  kBinary,      // ops::Binary: arithmetic, bitwise, shifts, comparisons, logical operations
  kSelect,      // ops::Select
};

LaneWiseForm LaneWiseFormOf(uint32_t op);

// GLSL.std.450 instructions computed component by component (the builder's default form for the extended set).
// Not: Determinant and MatrixInverse (33, 34), Modf/Frexp and their struct forms (35, 36, 51, 52), packing
// (54-65), the geometric ones reading whole vectors (66-72: Length .. Refract), InterpolateAt* (76-78).
constexpr bool IsComponentwiseGlsl(uint32_t ext) {
  return !((ext >= 33 && ext <= 36) || ext == 51 || ext == 52 || (ext >= 54 && ext <= 72) ||
           (ext >= 76 && ext <= 78));
}

}  // namespace crashtest::execution
