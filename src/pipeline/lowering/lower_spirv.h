// Lowering of (optimised, inlined) SPIR-V into crashtest's IR for one entry point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pipeline/ir/module.h"
#include "pipeline/lowering/spirv_reader.h"

namespace crashtest::pipeline {

// Lowers the entry point named `entryPoint` with spv::ExecutionModel `executionModel`. The entry function must not
// call other functions any more (the front end inlines). Returns false with a message naming the offending opcode
// and its result id (or word offset) for anything the IR does not represent.
bool LowerSpirv(const SpirvModule& spirv, std::string_view entryPoint, uint32_t executionModel, ir::Module* out,
                std::string* message);

const char* ExecutionModelName(uint32_t executionModel);

}  // namespace crashtest::pipeline
