// How the statistics see one IR instruction: the class it is counted in (the "... instructions" statistics) and
// the latency-table entry of the machine model that prices it in the cycle estimate.
#pragma once

#include <cstdint>

#include "device/device_description.h"
#include "pipeline/ir/module.h"

namespace crashtest::statistics {

// The classes of issue [statistics]; every instruction is in exactly one, so the classes sum to the total.
enum class InstructionClass : uint8_t {
  Alu,            // arithmetic, logic, conversions, composites, address computation, subgroup, derivatives
  Memory,         // loads, stores, copies and variables in every storage class but images; primitive emission
  Texture,        // image sample, fetch, gather, read, write and queries
  ControlFlow,    // branches, switches, returns, kills, demotes
  BarrierAtomic,  // control and memory barriers, atomics
};
inline constexpr uint32_t kInstructionClassCount = 5;

// Which LatencyTable member prices the instruction; Free instructions cost nothing (descriptor bookkeeping that
// real compilers fold into the instruction that uses it).
enum class LatencyKind : uint8_t { Free, Alu, Transcendental, Memory, Shared, Texture, Branch, Barrier, Atomic };

struct InstructionCost {
  InstructionClass cls = InstructionClass::Alu;
  LatencyKind latency = LatencyKind::Alu;
  // ALU work is issued per 32-bit component on every current GPU (scalar-per-lane SIMT): a vec4 add is four
  // operations. 1 for everything else.
  uint32_t issues = 1;
};

InstructionCost ClassifyInstruction(const ir::Module& module, const ir::Instruction& inst);
uint32_t LatencyOf(const LatencyTable& table, LatencyKind kind);
const char* InstructionClassName(InstructionClass cls);

}  // namespace crashtest::statistics
