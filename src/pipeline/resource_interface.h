// The check of a compiled stage against its pipeline layout: every descriptor and push-constant block the stage
// statically uses (after optimisation, so dead declarations do not count) must be declared in the layout, with a
// compatible descriptor type, enough descriptors and stage flags covering the stage. These are valid-usage rules
// (VUID-Vk{Compute,Graphics}PipelineCreateInfo-layout-07987/-07988/-07990/-07991/-10069) the driver can check
// cheaply; a violation is reported as misuse (VK_ERROR_VALIDATION_FAILED_EXT, see docs/compiler.md).
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "pipeline/compiler.h"

namespace crashtest {

class PipelineLayout;

// Returns true when the stage fits the layout; otherwise `message` names the resource, what the layout lacks and
// the VUID. `createInfoName` is "VkComputePipelineCreateInfo" or "VkGraphicsPipelineCreateInfo" (for the VUID).
bool CheckStageAgainstLayout(const pipeline::CompiledShader& shader, VkShaderStageFlagBits stage,
                             const PipelineLayout& layout, const char* createInfoName, std::string* message);

}  // namespace crashtest
