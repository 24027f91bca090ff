// VK_KHR_pipeline_executable_properties: the executables of a pipeline, their statistics and internal
// representations, computed from crashtest's IR with the emulated device's machine model (docs/statistics.md).
#include "device/device.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "guard.h"
#include "pipeline/pipeline.h"
#include "statistics/executable_properties.h"

namespace crashtest::icd {
namespace {

std::span<const statistics::ExecutableInfo> ExecutablesOf(VkDevice device, VkPipeline pipeline) {
  return FromHandle(pipeline)->Executables(FromHandle(device)->physicalDevice().description().machine);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineExecutablePropertiesKHR(VkDevice device, const VkPipelineInfoKHR* pPipelineInfo,
                                                                  uint32_t* pExecutableCount,
                                                                  VkPipelineExecutablePropertiesKHR* pProperties) {
  return Guarded("vkGetPipelineExecutablePropertiesKHR", [&] {
    return statistics::GetExecutableProperties(ExecutablesOf(device, pPipelineInfo->pipeline), pExecutableCount,
                                               pProperties);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineExecutableStatisticsKHR(VkDevice device,
                                                                  const VkPipelineExecutableInfoKHR* pExecutableInfo,
                                                                  uint32_t* pStatisticCount,
                                                                  VkPipelineExecutableStatisticKHR* pStatistics) {
  return Guarded("vkGetPipelineExecutableStatisticsKHR", [&] {
    return statistics::GetExecutableStatistics(ExecutablesOf(device, pExecutableInfo->pipeline),
                                               pExecutableInfo->executableIndex, pStatisticCount, pStatistics);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineExecutableInternalRepresentationsKHR(
    VkDevice device, const VkPipelineExecutableInfoKHR* pExecutableInfo, uint32_t* pInternalRepresentationCount,
    VkPipelineExecutableInternalRepresentationKHR* pInternalRepresentations) {
  return Guarded("vkGetPipelineExecutableInternalRepresentationsKHR", [&] {
    return statistics::GetExecutableInternalRepresentations(ExecutablesOf(device, pExecutableInfo->pipeline),
                                                            pExecutableInfo->executableIndex,
                                                            pInternalRepresentationCount, pInternalRepresentations);
  });
}

}  // namespace crashtest::icd
