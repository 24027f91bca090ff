// What the clean-up passes may assume about an instruction: whether it is a pure function of its operands
// (so two equal ones compute the same value: CSE), and whether it can be deleted when its result is unused (DCE).
#pragma once

#include <spirv/unified1/spirv.hpp>

#include "pipeline/ir/module.h"

namespace crashtest::ir {

// Pure: no memory access, no side effect, no dependence on other invocations or on where it runs (so not loads,
// atomics, barriers, image operations, subgroup operations or derivatives). Access chains are pure: they compute an
// address. OpArrayLength is pure: the bound buffer does not change during an invocation.
bool IsPureInstruction(const Module& module, const Instruction& inst);

// Removable when nothing uses its result: pure instructions, non-volatile loads, variables, phis, image reads and
// queries, subgroup operations, derivatives. Not stores, atomics, barriers, image writes, primitive emission,
// demotion, terminators, or extended instructions that write through a pointer (modf/frexp).
bool IsRemovableIfUnused(const Module& module, const Instruction& inst);

// Whether memory in the Uniform storage class may be written by the shader: any use of a Uniform pointer other
// than a load or an access chain (a store, an atomic, a copy, ...). Without one, every Uniform block is read-only
// for the whole dispatch (every invocation runs this code), so its loads are values like any other.
bool WritesUniformMemory(const Module& module);

// A non-volatile load from memory nothing can change while the shader runs: push constants, inputs, descriptors
// (UniformConstant), and Uniform blocks when `uniformReadOnly` (see WritesUniformMemory). Two equal such loads read
// the same value, so CSE may merge them, as SPIRV-Tools' value numbering does for read-only pointers. The
// HelperInvocation built-in is excluded: demotion changes it ("Volatile" in SPIR-V 1.6).
bool IsReadOnlyLoad(const Module& module, const Instruction& inst, bool uniformReadOnly);

// The integer and float comparisons (OpIEqual through OpFUnordGreaterThanEqual, contiguous in SPIR-V's numbering):
// a boolean from two numbers.
inline bool IsComparison(uint16_t op) { return op >= spv::OpIEqual && op <= spv::OpFUnordGreaterThanEqual; }

}  // namespace crashtest::ir
