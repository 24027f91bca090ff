#include "queue/pipeline_counters.h"

namespace crashtest {

namespace {
constexpr uint32_t Bit(VkQueryPipelineStatisticFlagBits flag) { return static_cast<uint32_t>(__builtin_ctz(flag)); }
uint64_t MinusOrZero(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
}  // namespace

uint64_t PrimitiveCount(VkPrimitiveTopology topology, uint64_t v) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return v;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return v / 2;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return MinusOrZero(v, 1);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return v / 3;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return MinusOrZero(v, 2);
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return v / 4;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return MinusOrZero(v, 3);
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return v / 6;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return MinusOrZero(v, 4) / 2;
    default: return 0;  // patch lists: the control-point count lives in the pipeline
  }
}

void CountDraw(PipelineCounters& counters, VkPrimitiveTopology topology, uint64_t vertices, uint64_t instances) {
  uint64_t primitives = PrimitiveCount(topology, vertices) * instances;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT)] += vertices * instances;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT)] += primitives;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT)] += vertices * instances;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT)] += primitives;
}

void CountExecutedDraw(PipelineCounters& counters, uint64_t inputVertices, uint64_t inputPrimitives,
                       uint64_t vertexInvocations, uint64_t clippingInvocations, uint64_t clippingPrimitives,
                       uint64_t fragmentInvocations) {
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT)] += inputVertices;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT)] += inputPrimitives;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT)] += vertexInvocations;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT)] += clippingInvocations;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT)] += clippingPrimitives;
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT)] += fragmentInvocations;
}

void CountDispatch(PipelineCounters& counters, uint64_t invocations) {
  counters.values[Bit(VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT)] += invocations;
}

uint32_t StatisticValues(VkQueryPipelineStatisticFlags statistics, const PipelineCounters& start,
                         const PipelineCounters& end, uint64_t* out) {
  // "each statistic is written in the order of the bits ... from the lowest to the highest" (17.5 "Pipeline
  // Statistics Queries").
  uint32_t written = 0;
  for (uint32_t bit = 0; bit < 32; ++bit) {
    if ((statistics & (1u << bit)) == 0) continue;
    out[written++] = bit < kPipelineStatisticCount ? end.values[bit] - start.values[bit] : 0;
  }
  return written;
}

}  // namespace crashtest
