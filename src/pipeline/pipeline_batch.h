// The loop shared by vkCreateComputePipelines and vkCreateGraphicsPipelines (Vulkan 1.3, 10.7 "Multiple Pipeline
// Creation"): "When an application attempts to create many pipelines in a single command, it is possible that some
// subset may fail creation. In that case, the corresponding entries in the pPipelines output array will be filled
// with VK_NULL_HANDLE values. If any pipeline fails creation despite valid arguments (for example, due to out of
// memory errors), the VkResult code returned by the pipeline creation command will indicate why. The
// implementation will attempt to create all pipelines, and only return VK_NULL_HANDLE values for those that
// actually failed." With VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT on the failing element, creation stops
// there and every later element is VK_NULL_HANDLE too.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <new>

#include "common/result.h"

namespace crashtest {

// `createOne(index, &pipelines[index])` creates one element. The call returns the first error, else
// VK_PIPELINE_COMPILE_REQUIRED if some element needed a compile it was not allowed, else VK_SUCCESS.
template <typename CreateInfo, typename CreateOne>
VkResult CreatePipelineBatch(const char* command, uint32_t count, const CreateInfo* infos, VkPipeline* pipelines,
                             CreateOne&& createOne) {
  VkResult overall = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
  for (uint32_t i = 0; i < count; ++i) {
    VkResult result;
    try {
      result = createOne(i, &pipelines[i]);
    } catch (const std::bad_alloc&) {
      result = ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: pCreateInfos[%u]: out of host memory", command, i);
    }
    if (result == VK_SUCCESS) continue;
    pipelines[i] = VK_NULL_HANDLE;
    if (result < 0 && overall >= 0) overall = result;
    if (result > 0 && overall == VK_SUCCESS) overall = result;
    if (infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) break;
  }
  return overall;
}

}  // namespace crashtest
