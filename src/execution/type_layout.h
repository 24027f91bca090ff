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
  // `matrixStride` is the stride of matrix columns in the enclosing struct (0: packed columns). False (with
  // *message) for a type that cannot be in such memory.
  bool ExplicitLeaves(ir::TypeId type, uint32_t offset, uint32_t slot, uint32_t matrixStride,
                      std::vector<Leaf>* leaves, std::string* message) const;
  // The bytes one element of `type` (a scalar or vector component) takes in explicit memory.
  uint32_t ScalarBytes(ir::TypeId type) const;

 private:
  uint32_t Compute(ir::TypeId type);
  const ir::Module& module_;
  std::vector<uint32_t> slots_;
};

}  // namespace crashtest::execution
