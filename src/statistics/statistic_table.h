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
  uint64_t (*value)(const ShaderStatistics& stats);  // BOOL32 statistics: 0 or 1
};

struct StatisticValue {
  const StatisticDescriptor* descriptor;
  VkPipelineExecutableStatisticValueKHR value;
};

// Every statistic of a dialect (docs/statistics.md, "Dialects"), in report order.
std::span<const StatisticDescriptor> AllStatistics(StatisticDialect dialect);
const StatisticDescriptor* FindStatistic(std::string_view key, StatisticDialect dialect);

// The statistics of one executable in a dialect, in the table's order; the list depends only on the stage and
// the dialect. Without a dialect: the one of the model the statistics were computed with.
std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats, StatisticDialect dialect);
std::vector<StatisticValue> ListStatistics(const ShaderStatistics& stats);

// The value as a double, for deltas and ratios (BOOL32 as 0/1).
double NumericValue(const StatisticValue& statistic);

}  // namespace crashtest::statistics
