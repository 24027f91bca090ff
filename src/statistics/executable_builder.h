// Builds the pipeline executable of one compiled stage (one executable per stage, as RADV, ANV and NVK do):
// its name and description, subgroup size, and - when the pipeline asked for them with
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR / _CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR - its statistics and
// internal representations.
#pragma once

#include <vulkan/vulkan.h>

#include "device/device_description.h"
#include "pipeline/compiler.h"
#include "statistics/executable_properties.h"
#include "statistics/shader_statistics.h"

namespace crashtest::statistics {

struct CaptureFlags {
  bool statistics = false;
  bool internalRepresentations = false;
};
// Reads the two capture bits from VkPipelineCreateFlags (the same bits as VkPipelineCreateFlags2).
CaptureFlags CaptureFlagsFrom(uint64_t pipelineCreateFlags);

// "compute", "vertex", "tessellation control", ...
const char* StageName(VkShaderStageFlagBits stage);

std::vector<ExecutableStatistic> StatisticsOf(const ShaderStatistics& stats);

// The executable of one stage. `subgroupSize` 0: the model's maxSubgroupSize.
ExecutableInfo DescribeExecutable(const pipeline::CompiledShader& shader, const MachineModel& model,
                                  VkShaderStageFlagBits stage, CaptureFlags capture, uint32_t subgroupSize = 0);

}  // namespace crashtest::statistics
