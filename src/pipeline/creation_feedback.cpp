#include "pipeline/creation_feedback.h"

#include <algorithm>

#include "common/pnext.h"
#include "common/struct_types.h"

namespace crashtest {

void WriteCreationFeedback(const void* createInfoNext, std::span<const StageCreation> stages, uint64_t pipelineNs,
                           bool created) {
  const auto* info = FindInChain<VkPipelineCreationFeedbackCreateInfo>(createInfoNext);
  if (info == nullptr) return;
  // "VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT indicates that a readily usable pipeline or
  // pipeline stage was found in the pipelineCache": the pipeline counts as found when every stage was.
  bool allHit = !stages.empty() && std::all_of(stages.begin(), stages.end(),
                                               [](const StageCreation& s) { return s.cacheHit; });
  if (info->pPipelineCreationFeedback != nullptr) {
    VkPipelineCreationFeedback& feedback = *info->pPipelineCreationFeedback;
    feedback.flags = 0;
    feedback.duration = 0;
    if (created) {
      feedback.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
                       (allHit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0);
      feedback.duration = pipelineNs;
    }
  }
  // pipelineStageCreationFeedbackCount is 0 or the stage count (VUID-VkGraphicsPipelineCreateInfo-
  // pipelineStageCreationFeedbackCount-06594, and 1 for compute); "each element ... corresponds to the element of
  // pStages at the same index".
  if (info->pPipelineStageCreationFeedbacks == nullptr) return;
  for (uint32_t i = 0; i < info->pipelineStageCreationFeedbackCount; ++i) {
    VkPipelineCreationFeedback& feedback = info->pPipelineStageCreationFeedbacks[i];
    feedback.flags = 0;
    feedback.duration = 0;
    if (!created || i >= stages.size()) continue;
    feedback.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
                     (stages[i].cacheHit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0);
    feedback.duration = stages[i].durationNs;
  }
}

}  // namespace crashtest
