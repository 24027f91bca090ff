// Sample shading against lavapipe: one fragment invocation per covered sample, asked for by the pipeline
// (sampleShadingEnable, minSampleShading) or by the shader (SampleId, SamplePosition, inputs decorated Sample), and
// the interpolation functions (InterpolateAtOffset, InterpolateAtSample, InterpolateAtCentroid). Each scene is
// 4x multisampled and resolved, so what every sample received shows in the averaged colour; each also checks
// that the image differs from pixel-rate shading, so a rasteriser that ignored the request would fail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "render_compare.h"

namespace crashtest::test {
namespace {

void Vertex(std::vector<float>& v, float x, float y, float z, float w, float r, float g, float b, float a) {
  v.insert(v.end(), {x, y, z, w, r, g, b, a});
}

// Two triangles crossing each other, their colours steep enough (0 to 7) that a quarter of a pixel changes a
// fraction visibly (`scale` multiplies them); with `perspective`, the second one has w of 2 and 3 at two vertices.
RenderJob MultisampledScene(const char* vertexShader, const char* fragmentShader, bool perspective = true,
                            float scale = 1.0f) {
  RenderJob job;
  job.vertexSpirv = ReadSpirvFile(vertexShader);
  job.fragmentSpirv = ReadSpirvFile(fragmentShader);
  job.streams.push_back(VertexStream{{}, 32, VK_VERTEX_INPUT_RATE_VERTEX});
  job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  job.clearColor.float32[3] = 1.0f;
  job.samples = VK_SAMPLE_COUNT_4_BIT;
  std::vector<float> v;
  Vertex(v, -0.93f, -0.71f, 0.5f, 1, 0.3f, 6.1f, 0.2f, 1);
  Vertex(v, 0.77f, -0.93f, 0.5f, 1, 7.0f, 0.4f, 3.3f, 1);
  Vertex(v, -0.41f, 0.89f, 0.5f, 1, 2.2f, 3.5f, 6.8f, 1);
  const float w1 = perspective ? 2.0f : 1.0f, w2 = perspective ? 3.0f : 1.0f;
  Vertex(v, 0.91f * w1, 0.83f * w1, 0.5f * w1, w1, 5.9f, 0.1f, 0.6f, 1);
  Vertex(v, -0.87f * w2, 0.11f * w2, 0.5f * w2, w2, 0.2f, 6.6f, 2.5f, 1);
  Vertex(v, 0.53f, -0.79f, 0.5f, 1, 3.1f, 2.7f, 7.0f, 1);
  for (size_t i = 0; i < v.size(); i += 8)
    for (size_t c = 4; c < 7; ++c) v[i + c] *= scale;
  job.streams[0].data = v;
  job.draws.push_back(DrawCommand{6});
  return job;
}

// The number of pixels whose colour differs between two renderings on crashtest.
uint32_t PixelsThatDiffer(const RenderResult& a, const RenderResult& b) {
  uint32_t n = 0;
  for (size_t i = 0; i + 3 < a.color.size() && i + 3 < b.color.size(); i += 4)
    for (size_t c = 0; c < 4; ++c)
      if (std::abs(static_cast<int>(a.color[i + c]) - static_cast<int>(b.color[i + c])) > 2) {
        ++n;
        break;
      }
  return n;
}

TEST_F(RenderDifferential, SampleShadingFromThePipeline) {
  RenderJob job = MultisampledScene("color.vert", "sample_coord.frag");
  const RenderResult pixelRate = ours_->Render(job);
  ASSERT_EQ(pixelRate.result, VK_SUCCESS) << pixelRate.error;
  job.sampleShading = true;
  job.minSampleShading = 1.0f;
  const RenderResult sampleRate = ours_->Render(job);
  ASSERT_EQ(sampleRate.result, VK_SUCCESS) << sampleRate.error;
  EXPECT_GT(PixelsThatDiffer(pixelRate, sampleRate), 1000u) << "minSampleShading 1.0 changed nothing";
  Expect(job, 1, 8);
  // A quarter of four samples is one invocation per pixel: no sample shading.
  job.minSampleShading = 0.25f;
  const RenderResult quarter = ours_->Render(job);
  EXPECT_EQ(PixelsThatDiffer(pixelRate, quarter), 0u);
  Expect(job, 1, 8);
}

TEST_F(RenderDifferential, SampleShadingFromSampleIdAndPosition) {
  RenderJob job = MultisampledScene("color.vert", "sample_id.frag");
  Expect(job, 1, 8);
  job.samples = VK_SAMPLE_COUNT_1_BIT;  // one sample: SampleId 0 at the centre, the mask its one bit
  Expect(job, 1, 8);
}

TEST_F(RenderDifferential, SampleShadingFromSampleInputs) {
  RenderJob job = MultisampledScene("color.vert", "sample_input.frag", false);
  Expect(job, 1, 8);
  // The same shader without the Sample decoration interpolates once per pixel: another image.
  const RenderResult perSample = ours_->Render(job);
  ASSERT_EQ(perSample.result, VK_SUCCESS) << perSample.error;
  const RenderResult perPixel = ours_->Render(MultisampledScene("color.vert", "fract_color.frag", false));
  ASSERT_EQ(perPixel.result, VK_SUCCESS) << perPixel.error;
  EXPECT_GT(PixelsThatDiffer(perSample, perPixel), 100u);
  // With perspective, crashtest divides by 1/w interpolated at the sample too, lavapipe by its value at the pixel
  // centre (an approximation the spec's "sampled at the location of the individual sample" does not make): gentle
  // colours, where the two agree within a unit.
  Expect(MultisampledScene("color.vert", "sample_input.frag", true, 1.0f / 7.0f), 1, 8);
}

// Without the Centroid decoration honoured (inputs at the centre of partly covered pixels) 26 edge pixels differ.
TEST_F(RenderDifferential, InterpolateAt) {
  RenderJob job = MultisampledScene("color_linear.vert", "interpolate_at.frag", false);
  Expect(job, 1, 4);
  job.sampleShading = true;  // the functions interpolate from the pixel centre whatever the sample shaded
  job.minSampleShading = 1.0f;
  Expect(job, 1, 4);
}

}  // namespace
}  // namespace crashtest::test
