// What stopped a dispatch: a memory access outside every range the shader may touch, or an exhausted time or
// instruction budget. The queue hands it to the fault engine, which turns it into reports and (by default) a loss.
#pragma once

#include <cstdint>

namespace crashtest::execution {

enum class ShaderFaultKind : uint8_t {
  None,
  ReadInvalid,   // a load (or the read of an atomic) outside the bound range
  WriteInvalid,  // a store (or an atomic) outside the bound range
  Timeout,       // the dispatch ran past its wall-time or instruction budget
};

// ShaderFault::op of a fault outside the shader's instructions: a draw's vertex attribute or index fetch.
inline constexpr uint32_t kFetchOperation = 0xffffffffu;

struct ShaderFault {
  ShaderFaultKind kind = ShaderFaultKind::None;
  uint64_t address = 0;     // the device address accessed (buffer address + offset; the raw address for BDA)
  uint32_t op = 0;          // the operation's index in Executable::ops (the instruction address)
  uint32_t workgroup[3] = {0, 0, 0};
  uint32_t localIndex = 0;  // LocalInvocationIndex of the faulting invocation
  uint32_t descriptorSlot = 0;  // for buffer accesses: the descriptor slot (0: push constants)
  bool freed = false;       // the address lies in a recently freed allocation (a use after free)
  bool null = false;        // the pointer was a null pointer (OpConstantNull), perhaps stepped: address = its offset
};

}  // namespace crashtest::execution
