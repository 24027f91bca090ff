// vkCreateComputePipelines: one compute stage, compiled (or taken from the cache), checked against the layout.
#include <chrono>
#include <string>
#include <vector>

#include "common/allocation.h"
#include "device/device.h"
#include "descriptor/pipeline_layout.h"
#include "pipeline/creation_feedback.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_batch.h"
#include "pipeline/pipeline_cache.h"
#include "pipeline/pipeline_creation.h"
#include "pipeline/pipeline_stage.h"

namespace crashtest {

namespace {

VkResult CreateComputePipeline(Device& device, PipelineCache* cache, const VkComputePipelineCreateInfo* infos,
                               uint32_t index, const VkPipeline* created, const VkAllocationCallbacks* allocator,
                               VkPipeline* out) {
  auto start = std::chrono::steady_clock::now();
  const VkComputePipelineCreateInfo& info = infos[index];
  std::string where = "vkCreateComputePipelines: pCreateInfos[" + std::to_string(index) + "]";
  std::vector<StageCreation> creations(1);
  auto fail = [&](VkResult result) {
    WriteCreationFeedback(info.pNext, creations, 0, /*created=*/false);
    return result;
  };
  if (info.stage.stage != VK_SHADER_STAGE_COMPUTE_BIT)
    return fail(PipelineMisuse(where, "stage.stage is not VK_SHADER_STAGE_COMPUTE_BIT",
                               "VUID-VkComputePipelineCreateInfo-stage-00701"));
  if (info.layout == VK_NULL_HANDLE)
    return fail(PipelineMisuse(where, "layout is VK_NULL_HANDLE", "VUID-VkComputePipelineCreateInfo-layout-parameter"));
  uint64_t baseId = 0;
  if (VkResult r = CheckDerivative(where, infos, index, created, "VkComputePipelineCreateInfo", &baseId);
      r != VK_SUCCESS)
    return fail(r);
  std::vector<PipelineStage> stages(1);
  bool failIfCompileRequired = (info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0;
  VkResult result = CreatePipelineStage(device, info.stage, cache, failIfCompileRequired, where + ".stage", &stages[0],
                                        &creations[0]);
  if (result != VK_SUCCESS) return fail(result);
  return FinishPipeline(device, where, "VkComputePipelineCreateInfo", info.pNext, VK_PIPELINE_BIND_POINT_COMPUTE,
                        info.flags, *FromHandle(info.layout), std::move(stages), creations, GraphicsState{}, baseId,
                        start, allocator, out);
}

}  // namespace

VkResult CreateComputePipelines(Device& device, VkPipelineCache cache, uint32_t count,
                                const VkComputePipelineCreateInfo* infos, const VkAllocationCallbacks* allocator,
                                VkPipeline* pipelines) {
  const VkAllocationCallbacks* chosen = ChooseAllocator(allocator, device.allocator());
  PipelineCache* pipelineCache = cache != VK_NULL_HANDLE ? FromHandle(cache) : nullptr;
  return CreatePipelineBatch("vkCreateComputePipelines", count, infos, pipelines, [&](uint32_t i, VkPipeline* out) {
    return CreateComputePipeline(device, pipelineCache, infos, i, pipelines, chosen, out);
  });
}

}  // namespace crashtest
