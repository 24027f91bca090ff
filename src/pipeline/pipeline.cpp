#include "pipeline/pipeline.h"

#include <algorithm>

#include "descriptor/pipeline_layout.h"

namespace crashtest {

bool GraphicsState::IsDynamic(VkDynamicState state) const {
  return std::find(dynamicStates.begin(), dynamicStates.end(), state) != dynamicStates.end();
}

Pipeline::Pipeline(VkPipelineBindPoint bindPoint, VkPipelineCreateFlags flags, PipelineLayout* layout,
                   std::vector<PipelineStage> stages)
    : Object(VK_OBJECT_TYPE_PIPELINE),
      bindPoint_(bindPoint),
      flags_(flags),
      layout_(layout),
      stages_(std::move(stages)) {
  layout_->Ref();
}

Pipeline::~Pipeline() { layout_->Unref(); }

const PipelineStage* Pipeline::FindStage(VkShaderStageFlagBits stage) const {
  for (const PipelineStage& s : stages_)
    if (s.stage == stage) return &s;
  return nullptr;
}

}  // namespace crashtest
