// The three VK_KHR_pipeline_executable_properties commands over an abstract list of pipeline executables, so
// the protocol (two-call counts, VK_INCOMPLETE, the caller's sType/pNext, text truncation with a NUL) lives in
// one place and is tested without pipelines. The vk entry points find the pipeline's executables and call these.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace crashtest::statistics {

struct ExecutableStatistic {
  std::string name;
  std::string description;
  VkPipelineExecutableStatisticFormatKHR format = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR;
  VkPipelineExecutableStatisticValueKHR value{};
};

struct ExecutableRepresentation {
  std::string name;
  std::string description;
  bool isText = true;
  std::string data;  // text without its terminating NUL (added on output), or the opaque bytes
};

struct ExecutableInfo {
  VkShaderStageFlags stages = 0;
  std::string name;         // unique within the pipeline
  std::string description;
  uint32_t subgroupSize = 0;
  // Empty when the pipeline was created without the matching capture flag: the queries then report none.
  std::vector<ExecutableStatistic> statistics;
  std::vector<ExecutableRepresentation> representations;
};

// vkGetPipelineExecutablePropertiesKHR: one entry per executable.
VkResult GetExecutableProperties(std::span<const ExecutableInfo> executables, uint32_t* pExecutableCount,
                                 VkPipelineExecutablePropertiesKHR* pProperties);

// vkGetPipelineExecutableStatisticsKHR for executables[executableIndex].
VkResult GetExecutableStatistics(std::span<const ExecutableInfo> executables, uint32_t executableIndex,
                                 uint32_t* pStatisticCount, VkPipelineExecutableStatisticKHR* pStatistics);

// vkGetPipelineExecutableInternalRepresentationsKHR for executables[executableIndex].
VkResult GetExecutableInternalRepresentations(std::span<const ExecutableInfo> executables,
                                              uint32_t executableIndex, uint32_t* pInternalRepresentationCount,
                                              VkPipelineExecutableInternalRepresentationKHR* pInternalRepresentations);

}  // namespace crashtest::statistics
