// Pieces shared by compute and graphics pipeline creation: misuse reports, the pipeline derivative rules and the
// final step that checks stages against the layout, allocates the object and reports creation feedback.
#pragma once

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "pipeline/pipeline.h"
#include "pipeline/pipeline_stage.h"

namespace crashtest {

class PipelineCache;

// Logs "<where>: <what> (<vuid>)" and returns VK_ERROR_VALIDATION_FAILED_EXT (docs/compiler.md, "Misuse").
VkResult PipelineMisuse(const std::string& where, const std::string& what, const char* vuid);

// Pipeline derivatives (Vulkan 1.3, 10.8): with VK_PIPELINE_CREATE_DERIVATIVE_BIT exactly one of
// basePipelineHandle / basePipelineIndex names the base, which must allow derivatives. On success `*baseId` is
// the base's object id (0 when the base is an element of this call that failed, or without the bit).
template <typename CreateInfo>
VkResult CheckDerivative(const std::string& where, const CreateInfo* infos, uint32_t index,
                         const VkPipeline* created, const char* infoName, uint64_t* baseId);

// Checks each stage against the layout, then creates the Pipeline (with `allocator`) and writes the creation
// feedback. `stages` and `creations` are in pStages order.
VkResult FinishPipeline(const Device& device, const std::string& where, const char* infoName,
                        const void* infoNext, VkPipelineBindPoint bindPoint, VkPipelineCreateFlags flags,
                        PipelineLayout& layout, std::vector<PipelineStage> stages,
                        const std::vector<StageCreation>& creations, GraphicsState graphics, uint64_t baseId,
                        std::chrono::steady_clock::time_point start, const VkAllocationCallbacks* allocator,
                        VkPipeline* out);

// ---- implementation of the template

template <typename CreateInfo>
VkResult CheckDerivative(const std::string& where, const CreateInfo* infos, uint32_t index,
                         const VkPipeline* created, const char* infoName, uint64_t* baseId) {
  const CreateInfo& info = infos[index];
  *baseId = 0;
  if ((info.flags & VK_PIPELINE_CREATE_DERIVATIVE_BIT) == 0) return VK_SUCCESS;
  std::string vuidPrefix = std::string("VUID-") + infoName + "-flags-";
  if (info.basePipelineIndex == -1) {
    // "If flags contains the VK_PIPELINE_CREATE_DERIVATIVE_BIT flag, and basePipelineIndex is -1,
    // basePipelineHandle must be a valid ... VkPipeline handle".
    if (info.basePipelineHandle == VK_NULL_HANDLE)
      return PipelineMisuse(where, "DERIVATIVE_BIT with basePipelineIndex -1 and no basePipelineHandle",
                            (vuidPrefix + "07984").c_str());
    const Pipeline* base = FromHandle(info.basePipelineHandle);
    if ((base->flags() & VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT) == 0)
      return PipelineMisuse(where, "the base pipeline was not created with ALLOW_DERIVATIVES_BIT",
                            "VUID-vkCreateComputePipelines-flags-00696 / VUID-vkCreateGraphicsPipelines-flags-00721");
    *baseId = base->header.id;
    return VK_SUCCESS;
  }
  if (info.basePipelineHandle != VK_NULL_HANDLE)
    return PipelineMisuse(where, "DERIVATIVE_BIT with both basePipelineHandle and basePipelineIndex " +
                                     std::to_string(info.basePipelineIndex),
                          (vuidPrefix + "07986").c_str());
  if (info.basePipelineIndex < 0 || static_cast<uint32_t>(info.basePipelineIndex) >= index)
    return PipelineMisuse(where, "basePipelineIndex " + std::to_string(info.basePipelineIndex) +
                                     " does not name an earlier element of pCreateInfos",
                          "VUID-vkCreateComputePipelines-flags-00695 / VUID-vkCreateGraphicsPipelines-flags-00720");
  const CreateInfo& base = infos[info.basePipelineIndex];
  if ((base.flags & VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT) == 0)
    return PipelineMisuse(where, "pCreateInfos[" + std::to_string(info.basePipelineIndex) +
                                     "] (the base) does not set ALLOW_DERIVATIVES_BIT",
                          "VUID-vkCreateComputePipelines-flags-00696 / VUID-vkCreateGraphicsPipelines-flags-00721");
  // A derivative is only a hint for faster creation: a base that failed leaves nothing to derive from, and the
  // derivative is created on its own.
  if (VkPipeline handle = created[info.basePipelineIndex]; handle != VK_NULL_HANDLE)
    *baseId = FromHandle(handle)->header.id;
  return VK_SUCCESS;
}

}  // namespace crashtest
