// One VkPipelineShaderStageCreateInfo to a PipelineStage: its SPIR-V (the shader module's, or a chained
// VkShaderModuleCreateInfo's where that is allowed), specialised and compiled for the device's API version —
// through the pipeline cache when there is one. Timed for VK_EXT_pipeline_creation_feedback.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "pipeline/pipeline.h"

namespace crashtest {

class PipelineCache;

struct StageCreation {
  bool cacheHit = false;     // found in the application's pipeline cache: nothing was validated or optimised
  uint64_t durationNs = 0;   // the whole stage, cache lookup included
};

// Returns VK_SUCCESS; VK_PIPELINE_COMPILE_REQUIRED when `failIfCompileRequired` and the cache cannot supply the
// stage (VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT); or an error, logged with `where`
// (e.g. "vkCreateComputePipelines: pCreateInfos[1].stage").
VkResult CreatePipelineStage(const Device& device, const VkPipelineShaderStageCreateInfo& info, PipelineCache* cache,
                             bool failIfCompileRequired, const std::string& where, PipelineStage* out,
                             StageCreation* creation);

const char* StageName(VkShaderStageFlagBits stage);

}  // namespace crashtest
