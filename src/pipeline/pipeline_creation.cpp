#include "pipeline/pipeline_creation.h"

#include "common/allocation.h"
#include "common/result.h"
#include "descriptor/pipeline_layout.h"
#include "device/device.h"
#include "pipeline/creation_feedback.h"
#include "pipeline/resource_interface.h"

namespace crashtest {

VkResult PipelineMisuse(const std::string& where, const std::string& what, const char* vuid) {
  return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: %s (%s)", where.c_str(), what.c_str(), vuid);
}

VkResult FinishPipeline(const Device&, const std::string& where, const char* infoName, const void* infoNext,
                        VkPipelineBindPoint bindPoint, VkPipelineCreateFlags flags, PipelineLayout& layout,
                        std::vector<PipelineStage> stages, const std::vector<StageCreation>& creations,
                        GraphicsState graphics, uint64_t baseId, std::chrono::steady_clock::time_point start,
                        const VkAllocationCallbacks* allocator, VkPipeline* out) {
  for (const PipelineStage& stage : stages) {
    std::string message;
    if (!CheckStageAgainstLayout(*stage.shader, stage.stage, layout, infoName, &message)) {
      WriteCreationFeedback(infoNext, creations, 0, /*created=*/false);
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: %s stage \"%s\": %s", where.c_str(),
                         StageName(stage.stage), stage.entryPoint.c_str(), message.c_str());
    }
  }
  auto* pipeline = NewObject<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, bindPoint, flags, &layout,
                                       std::move(stages));
  if (pipeline == nullptr) {
    WriteCreationFeedback(infoNext, creations, 0, /*created=*/false);
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory for the pipeline", where.c_str());
  }
  pipeline->set_graphics(std::move(graphics));
  pipeline->set_basePipelineId(baseId);
  uint64_t ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  WriteCreationFeedback(infoNext, creations, ns, /*created=*/true);
  *out = ToHandle(pipeline);
  return VK_SUCCESS;
}

}  // namespace crashtest
