// VK_EXT_pipeline_creation_feedback (core in Vulkan 1.3): the pipeline's and each stage's creation time and
// whether the application's pipeline cache supplied it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "pipeline/pipeline_stage.h"

namespace crashtest {

// Fills the VkPipelineCreationFeedbackCreateInfo chained to a pipeline create info (`createInfoNext`), if any.
// `stages` are in pStages order. On failure (`created` false) the flags are left 0, so VALID is never set for a
// pipeline that does not exist.
void WriteCreationFeedback(const void* createInfoNext, std::span<const StageCreation> stages, uint64_t pipelineNs,
                           bool created);

}  // namespace crashtest
