// Shared helpers of the statistics tests: compile a corpus shader and load a built-in device's machine model.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "device/device_description.h"
#include "pipeline/compiler.h"
#include "statistics/shader_statistics.h"

namespace crashtest::test {

// Compiles tests/shaders' build-time corpus file (e.g. "stats_loop_8.comp.spv") for `stage`.
pipeline::CompiledShader CompileCorpus(const std::string& file,
                                       VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT);

// The machine model of "builtin:NAME", loaded once per process through the driver's profile loader.
const MachineModel& BuiltinModel(const std::string& name);

statistics::ShaderStatistics StatsOf(const std::string& file, const std::string& device,
                                     VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT);

}  // namespace crashtest::test
