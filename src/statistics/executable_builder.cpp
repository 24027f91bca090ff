#include "statistics/executable_builder.h"

#include "statistics/representations.h"
#include "statistics/statistic_table.h"

namespace crashtest::statistics {

CaptureFlags CaptureFlagsFrom(uint64_t flags) {
  return {(flags & VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR) != 0,
          (flags & VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR) != 0};
}

const char* StageName(VkShaderStageFlagBits stage) {
  switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT: return "vertex";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT: return "tessellation control";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT: return "tessellation evaluation";
    case VK_SHADER_STAGE_GEOMETRY_BIT: return "geometry";
    case VK_SHADER_STAGE_FRAGMENT_BIT: return "fragment";
    case VK_SHADER_STAGE_COMPUTE_BIT: return "compute";
    default: return "shader";
  }
}

std::vector<ExecutableStatistic> StatisticsOf(const ShaderStatistics& stats) {
  std::vector<ExecutableStatistic> list;
  for (const StatisticValue& v : ListStatistics(stats))
    list.push_back({std::string(v.descriptor->name), std::string(v.descriptor->description), v.descriptor->format,
                    v.value});
  return list;
}

ExecutableInfo DescribeExecutable(const pipeline::CompiledShader& shader, const MachineModel& model,
                                  VkShaderStageFlagBits stage, CaptureFlags capture, uint32_t subgroupSize) {
  ExecutableInfo info;
  info.stages = stage;
  info.name = StageName(stage);
  info.description = std::string("The ") + StageName(stage) + " shader (entry point \"" +
                     shader.module.entryPoint.name + "\") compiled to crashtest's IR";
  info.subgroupSize = subgroupSize != 0 ? subgroupSize : model.maxSubgroupSize;
  if (!capture.statistics && !capture.internalRepresentations) return info;
  ShaderStatistics stats = ComputeStatistics(shader, model, stage, info.subgroupSize);
  if (capture.statistics) info.statistics = StatisticsOf(stats);
  if (capture.internalRepresentations) {
    info.representations.push_back({"Optimised SPIR-V",
                                    "SPIR-V after specialisation and crashtest's optimiser recipe (disassembly)",
                                    true, DisassembleSpirv(shader.optimizedSpirv)});
    info.representations.push_back(
        {"crashtest IR",
         "The final IR with live 32-bit register components per instruction, register budget, spills and fills",
         true, AnnotatedIrListing(shader, model, stats)});
  }
  return info;
}

}  // namespace crashtest::statistics
