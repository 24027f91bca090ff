// The statistics as VK_KHR_pipeline_executable_properties lists them: a fixed, deterministic table of names,
// descriptions and formats (the CTS compares them across cold and warm pipeline builds), with the key
// `crashtest stats --json` and `--compare` use and which direction is an improvement (for CI gating).
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <string_view>
#include <vector>

#include "statistics/shader_statistics.h"

namespace crashtest::statistics {

enum class Better : uint8_t { Neither, Lower, Higher };

struct StatisticDescriptor {
  std::string_view key;          // camelCase, for JSON and --fail-on
  std::string_view name;         // VkPipelineExecutableStatisticKHR::name
  std::string_view description;  // VkPipelineExecutableStatisticKHR::description (< VK_MAX_DESCRIPTION_SIZE)
  VkPipelineExecutableStatisticFormatKHR format;
  Better better;
  bool computeOnly;  // listed for compute executables only (the workgroup statistics)
};

struct StatisticValue {
  const StatisticDescriptor* descriptor;
  VkPipelineExecutableStatisticValueKHR value;
};

// Every statistic crashtest knows, in report order.
std::span<const StatisticDescriptor> AllStatistics();
const StatisticDescriptor* FindStatistic(std::string_view key);

// The statistics of one executable, in the table's order; the list depends only on the stage.
std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats);

// The value as a double, for deltas and ratios (BOOL32 as 0/1).
double NumericValue(const StatisticValue& statistic);

}  // namespace crashtest::statistics
