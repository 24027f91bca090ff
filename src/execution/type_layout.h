// How IR types occupy registers and memory (executable.h): slot counts, the component type of numeric values,
// and the leaves of a value in explicit-layout (buffer) memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "execution/executable.h"
#include "execution/ops/lane_access.h"
#include "pipeline/ir/module.h"

namespace crashtest::execution {

// How a matrix lies in buffer memory: its MatrixStride, with kRowMajor set for a RowMajor matrix (the stride then
// separates rows, and a pointer to one column of it addresses a vector whose components lie that stride apart).
// 0: packed columns.
inline constexpr uint32_t kRowMajor = 0x80000000u;
inline constexpr uint32_t StrideOf(uint32_t matrixLayout) { return matrixLayout & ~kRowMajor; }
// The layout of member `member` of a struct type (its MatrixStride and RowMajor decorations).
uint32_t MemberMatrixLayout(const ir::Type& structType, size_t member);

class TypeLayout {
 public:
  explicit TypeLayout(const ir::Module& module);

  // Slots of a register value of `type` (and words in slot-layout memory). 0 for types with no register form.
  uint32_t Slots(ir::TypeId type) const { return slots_[type]; }
  // The component type of a scalar, vector or matrix; false for other types.
  bool ScalarOf(ir::TypeId type, Scalar* out) const;
  // Components of a scalar (1), vector or matrix (columns × rows).
  uint32_t Components(ir::TypeId type) const;
  // Appends the leaves of `type` at `offset` in explicit-layout memory, numbering slots from `slot`;
  // `matrixLayout` is the layout of the matrices `type` is or holds (see kRowMajor; for a vector: kRowMajor with
  // a stride for a column of a row-major matrix). False (with *message) for a type that cannot be in such memory.
  bool ExplicitLeaves(ir::TypeId type, uint32_t offset, uint32_t slot, uint32_t matrixLayout,
                      std::vector<Leaf>* leaves, std::string* message) const;
  // The bytes one element of `type` (a scalar or vector component) takes in explicit memory.
  uint32_t ScalarBytes(ir::TypeId type) const;

 private:
  uint32_t Compute(ir::TypeId type);
  const ir::Module& module_;
  std::vector<uint32_t> slots_;
};

}  // namespace crashtest::execution
