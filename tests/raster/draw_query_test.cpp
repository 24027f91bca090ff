// Queries count what draws really did: occlusion queries the samples that passed, pipeline-statistics queries the
// vertices and primitives input assembly read (restart indices excluded), the vertex shader invocations (a vertex
// shaded once however often an instance references it), the primitives entering and leaving clipping and the
// fragment shader invocations (helper invocations excluded), for scenes whose counts are known exactly.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "vk_render.h"

namespace crashtest::test {
namespace {

std::vector<uint32_t> Spirv(const std::string& name) { return RasterShader(name); }

constexpr VkQueryPipelineStatisticFlags kStatistics =
    VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT | VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT | VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
enum { kInputVertices, kInputPrimitives, kVertexInvocations, kClipInvocations, kClipPrimitives, kFragments };

class DrawQueries : public ::testing::Test {
 protected:
  void SetUp() override {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance_), VK_SUCCESS);
    std::string error;
    device_ = RenderDevice::Open(instance_, "", /*crashtest=*/1, &error);
    ASSERT_NE(device_, nullptr) << error;
    ASSERT_TRUE(device_->features().pipelineStatisticsQuery);
  }
  void TearDown() override {
    device_.reset();
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  // A 16x16 target, position + colour vertices (color.vert / color.frag), both queries.
  static RenderJob Job() {
    RenderJob job;
    job.vertexSpirv = Spirv("color.vert");
    job.fragmentSpirv = Spirv("color.frag");
    job.width = job.height = 16;
    job.streams.push_back(VertexStream{{}, 32, VK_VERTEX_INPUT_RATE_VERTEX});
    job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
    job.occlusionQuery = true;
    job.statistics = kStatistics;
    return job;
  }
  static void Vertex(RenderJob& job, float x, float y, float z) {
    job.streams[0].data.insert(job.streams[0].data.end(), {x, y, z, 1, 0, 1, 0, 1});
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<RenderDevice> device_;
};

// An indexed strip with a restart: 4 vertices covering the whole target (2 triangles, 256 pixels once each), then 3
// forming a triangle right of the view volume (assembled, then clipped away).
TEST_F(DrawQueries, StripWithRestartCountsExactly) {
  RenderJob job = Job();
  Vertex(job, -1, -1, 0.5f);
  Vertex(job, 1, -1, 0.5f);
  Vertex(job, -1, 1, 0.5f);
  Vertex(job, 1, 1, 0.5f);
  Vertex(job, 2, -0.5f, 0.5f);
  Vertex(job, 3, -0.5f, 0.5f);
  Vertex(job, 2.5f, 0.5f, 0.5f);
  job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  job.primitiveRestart = true;
  job.indices = {0, 1, 2, 3, 0xffffffffu, 4, 5, 6};
  DrawCommand draw;
  draw.count = 8;
  draw.indexed = true;
  draw.pushConstants = {0, 0, 0, 0};
  job.draws.push_back(draw);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.statistics.size(), 6u);
  EXPECT_EQ(r.statistics[kInputVertices], 7u) << "the restart index is not a vertex";
  EXPECT_EQ(r.statistics[kInputPrimitives], 3u) << "2 + 1 triangles: a strip of N vertices is N - 2 triangles";
  EXPECT_EQ(r.statistics[kVertexInvocations], 7u);
  EXPECT_EQ(r.statistics[kClipInvocations], 3u);
  EXPECT_EQ(r.statistics[kClipPrimitives], 2u) << "the triangle outside the view volume leaves nothing";
  EXPECT_EQ(r.statistics[kFragments], 256u) << "every pixel once: the two triangles share an edge";
  EXPECT_EQ(r.samplesPassed, 256u);
}

// A triangle list whose six indices name four vertices: each is shaded once.
TEST_F(DrawQueries, ReusedVerticesAreShadedOnce) {
  RenderJob job = Job();
  Vertex(job, -1, -1, 0.5f);
  Vertex(job, 1, -1, 0.5f);
  Vertex(job, -1, 1, 0.5f);
  Vertex(job, 1, 1, 0.5f);
  job.indices = {0, 1, 2, 2, 1, 3};
  DrawCommand draw;
  draw.count = 6;
  draw.instances = 2;  // the same quad twice (no depth test: both instances pass everywhere)
  draw.indexed = true;
  draw.pushConstants = {0, 0, 0, 0};
  job.draws.push_back(draw);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.statistics.size(), 6u);
  EXPECT_EQ(r.statistics[kInputVertices], 12u);
  EXPECT_EQ(r.statistics[kInputPrimitives], 4u);
  EXPECT_EQ(r.statistics[kVertexInvocations], 8u) << "4 distinct vertices per instance";
  EXPECT_EQ(r.statistics[kFragments], 512u);
  EXPECT_EQ(r.samplesPassed, 512u);
}

// A triangle crossing the near plane becomes a quadrilateral: one primitive in, two triangles out.
TEST_F(DrawQueries, ClippingAtTheNearPlaneOutputsTwoTriangles) {
  RenderJob job = Job();
  Vertex(job, -0.8f, -0.8f, 0.5f);
  Vertex(job, 0.8f, -0.8f, 0.5f);
  Vertex(job, 0.0f, 0.8f, -0.5f);
  DrawCommand draw;
  draw.count = 3;
  draw.pushConstants = {0, 0, 0, 0};
  job.draws.push_back(draw);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.statistics.size(), 6u);
  EXPECT_EQ(r.statistics[kClipInvocations], 1u);
  EXPECT_EQ(r.statistics[kClipPrimitives], 2u);
  EXPECT_EQ(r.statistics[kFragments], r.samplesPassed);
  EXPECT_GT(r.samplesPassed, 0u);
}

// A grid of 2 x 40 x 30 triangles exactly covering a 320x240 target: several 64x64 tiles shaded by the workers
// and more triangles than one worker bins alone, yet every pixel is shaded exactly once (shared edges, the
// top-left rule), whatever the order the tiles run in.
TEST_F(DrawQueries, GridAcrossTilesShadesEveryPixelOnce) {
  RenderJob job = Job();
  job.width = 320;
  job.height = 240;
  const int columns = 40, rows = 30;
  for (int j = 0; j <= rows; ++j)
    for (int i = 0; i <= columns; ++i)
      Vertex(job, -1.0f + 2.0f * static_cast<float>(i) / columns, -1.0f + 2.0f * static_cast<float>(j) / rows, 0.5f);
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const uint32_t a = static_cast<uint32_t>(j * (columns + 1) + i), b = a + 1, c = a + columns + 1, d = c + 1;
      job.indices.insert(job.indices.end(), {a, b, c, c, b, d});
    }
  DrawCommand draw;
  draw.count = static_cast<uint32_t>(job.indices.size());
  draw.indexed = true;
  draw.pushConstants = {0, 0, 0, 0};
  job.draws.push_back(draw);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.statistics.size(), 6u);
  EXPECT_EQ(r.statistics[kInputPrimitives], 2u * columns * rows);
  EXPECT_EQ(r.statistics[kVertexInvocations], static_cast<uint64_t>((columns + 1) * (rows + 1)));
  EXPECT_EQ(r.statistics[kClipPrimitives], 2u * columns * rows);
  EXPECT_EQ(r.statistics[kFragments], 320u * 240u);
  EXPECT_EQ(r.samplesPassed, 320u * 240u);
  for (size_t p = 0; p < 320 * 240; ++p) ASSERT_EQ(r.color[p * 4 + 1], 255) << "pixel " << p << " not drawn";
}

}  // namespace
}  // namespace crashtest::test
