// The pipeline statistics a queue counts for VK_QUERY_TYPE_PIPELINE_STATISTICS queries, indexed by the bit
// position of their VkQueryPipelineStatisticFlagBits. What is counted (docs/execution.md): draws count the
// vertices and primitives they assemble and the vertex-shader and clipping invocations that follow; clipping
// primitives and fragment invocations are not counted yet (0); tessellation and geometry stages are not
// run (0); a dispatch counts every compute invocation (workgroups × the pipeline's workgroup size).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace crashtest {

inline constexpr uint32_t kPipelineStatisticCount = 11;  // up to COMPUTE_SHADER_INVOCATIONS (bit 10)

struct PipelineCounters {
  uint64_t values[kPipelineStatisticCount];
};

// Primitives that `vertices` vertices assemble into with `topology` (Vulkan 1.3, 21.1 "Primitive Topologies").
uint64_t PrimitiveCount(VkPrimitiveTopology topology, uint64_t vertices);

// Adds what one draw ran (raster::DrawOutcome's counts).
void CountExecutedDraw(PipelineCounters& counters, uint64_t inputVertices, uint64_t inputPrimitives,
                       uint64_t vertexInvocations, uint64_t clippingInvocations, uint64_t clippingPrimitives,
                       uint64_t fragmentInvocations);

// Adds what a draw of `vertices` vertices × `instances` instances would count (a draw that is not executed).
void CountDraw(PipelineCounters& counters, VkPrimitiveTopology topology, uint64_t vertices, uint64_t instances);
void CountDispatch(PipelineCounters& counters, uint64_t invocations);

// The values a query with `statistics` reports for the difference end − start, in bit order.
uint32_t StatisticValues(VkQueryPipelineStatisticFlags statistics, const PipelineCounters& start,
                         const PipelineCounters& end, uint64_t* out);

}  // namespace crashtest
