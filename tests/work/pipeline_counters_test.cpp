// What a draw counts for pipeline-statistics queries, per topology, and the order results are reported in.
#include <gtest/gtest.h>

#include "queue/pipeline_counters.h"

namespace crashtest {
namespace {

TEST(PipelineCounters, PrimitivesPerTopology) {
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 7), 7u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 7), 3u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 7), 6u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 7), 2u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7), 5u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 1), 0u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 12), 2u);
  EXPECT_EQ(PrimitiveCount(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 8), 2u);
}

TEST(PipelineCounters, StatisticsAreReportedInBitOrder) {
  PipelineCounters start{}, end{};
  CountDraw(end, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 6, 3);
  CountDispatch(end, 5);
  uint64_t values[32] = {};
  uint32_t written = StatisticValues(VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT |
                                         VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
                                         VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT,
                                     start, end, values);
  ASSERT_EQ(written, 3u);
  EXPECT_EQ(values[0], 18u);  // input-assembly vertices
  EXPECT_EQ(values[1], 6u);   // clipping invocations = primitives
  EXPECT_EQ(values[2], 5u);   // compute invocations
}

}  // namespace
}  // namespace crashtest
