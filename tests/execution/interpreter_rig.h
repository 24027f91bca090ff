// Running a shader through the interpreter as a unit (no Vulkan device): compiled by crashtest's compiler, built
// into its executable form, dispatched by execution::RunDispatch with host vectors as buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "execution/dispatch_context.h"
#include "execution/executable_builder.h"
#include "execution/scheduler.h"

namespace crashtest::execution {

// The executable of the SPIR-V file at `path` (a test failure and nullptr when it does not build).
std::shared_ptr<const Executable> Build(const std::string& path);

// The device address the rig gives set 0, binding `binding` (fault reports name it).
inline uint64_t RigAddress(uint32_t binding) { return 0x1000000ull * (binding + 1); }

// Runs `exe` over `groups` workgroups with buffers[i] bound to set 0, binding i; push constants given.
DispatchOutcome RunShader(const Executable& exe, std::vector<std::vector<uint32_t>>& buffers, uint32_t width,
                          uint32_t threads, const uint32_t groups[3], std::vector<uint32_t> push = {},
                          OutOfRangeMode outOfRange = OutOfRangeMode::Fault);

// A corpus shader's and one of this folder's shaders' SPIR-V files.
inline std::string Corpus(const char* name) { return std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/" + name + ".spv"; }
inline std::string Own(const char* name) { return std::string(CRASHTEST_EXECUTION_SHADER_DIR) + "/" + name + ".spv"; }

}  // namespace crashtest::execution
