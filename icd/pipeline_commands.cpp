// Thunks of the pipeline area: shader modules, compute and graphics pipelines, pipeline caches.
#include "common/allocation.h"
#include "common/result.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"
#include "pipeline/pipeline.h"
#include "pipeline/pipeline_cache.h"
#include "pipeline/shader_module.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule) {
  return Guarded("vkCreateShaderModule",
                 [&] { return ShaderModule::Create(*FromHandle(device), *pCreateInfo, pAllocator, pShaderModule); });
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
  if (shaderModule == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(shaderModule));
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                      uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator,
                                                      VkPipeline* pPipelines) {
  return Guarded("vkCreateComputePipelines", [&] {
    return CreateComputePipelines(*FromHandle(device), pipelineCache, createInfoCount, pCreateInfos, pAllocator,
                                  pPipelines);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                       uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines) {
  return Guarded("vkCreateGraphicsPipelines", [&] {
    return CreateGraphicsPipelines(*FromHandle(device), pipelineCache, createInfoCount, pCreateInfos, pAllocator,
                                   pPipelines);
  });
}

// "If pipeline is VK_NULL_HANDLE ... no action"; the pipeline's storage returns to the callbacks it came from,
// which VUID-vkDestroyPipeline-pipeline-00766 makes compatible with these.
VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
  if (pipeline == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(pipeline));
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator,
                                                   VkPipelineCache* pPipelineCache) {
  return Guarded("vkCreatePipelineCache",
                 [&] { return PipelineCache::Create(*FromHandle(device), *pCreateInfo, pAllocator, pPipelineCache); });
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineCache(VkDevice device, VkPipelineCache pipelineCache,
                                                const VkAllocationCallbacks* pAllocator) {
  if (pipelineCache == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(pipelineCache));
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineCacheData(VkDevice, VkPipelineCache pipelineCache, size_t* pDataSize,
                                                    void* pData) {
  return Guarded("vkGetPipelineCacheData", [&] { return FromHandle(pipelineCache)->GetData(pDataSize, pData); });
}

VKAPI_ATTR VkResult VKAPI_CALL MergePipelineCaches(VkDevice, VkPipelineCache dstCache, uint32_t srcCacheCount,
                                                   const VkPipelineCache* pSrcCaches) {
  return Guarded("vkMergePipelineCaches", [&] {
    for (uint32_t i = 0; i < srcCacheCount; ++i)
      if (pSrcCaches[i] == dstCache)
        return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkMergePipelineCaches: pSrcCaches[%u] is dstCache "
                           "(VUID-vkMergePipelineCaches-dstCache-00770)", i);
    for (uint32_t i = 0; i < srcCacheCount; ++i) FromHandle(dstCache)->MergeFrom(*FromHandle(pSrcCaches[i]));
    return VK_SUCCESS;
  });
}

}  // namespace crashtest::icd
