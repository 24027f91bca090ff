// Pipeline::Executables: the pipeline's executables for VK_KHR_pipeline_executable_properties, one per stage in
// the order of the create info's stages, each with the stage's required subgroup size if it has one.
#include "pipeline/pipeline.h"
#include "statistics/executable_builder.h"

namespace crashtest {

std::span<const statistics::ExecutableInfo> Pipeline::Executables(const MachineModel& model) const {
  std::call_once(executablesBuilt_, [&] {
    const statistics::CaptureFlags capture = statistics::CaptureFlagsFrom(flags_);
    executables_.reserve(stages_.size());
    for (const PipelineStage& stage : stages_)
      executables_.push_back(
          statistics::DescribeExecutable(*stage.shader, model, stage.stage, capture, stage.requiredSubgroupSize));
  });
  return executables_;
}

}  // namespace crashtest
