// Pipeline state on crashtest and on Mesa's lavapipe (the oracle), compared pixel by pixel (render_compare.h):
// logic ops on normalized and integer attachments, dual-source blending, independent blending of two attachments,
// depth clamping, the depth bounds test and the depth bias clamp. Each scene first checks that both devices offer
// the feature it needs, so a feature crashtest stops advertising fails here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render_compare.h"

namespace crashtest::test {
namespace {

class RenderState : public RenderDifferential {};

void Vertex(std::vector<float>& v, float x, float y, float z, float w, float r, float g, float b, float a) {
  v.insert(v.end(), {x, y, z, w, r, g, b, a});
}

// A triangle of one colour (its vertices agree, so every implementation interpolates the same value).
void Triangle(std::vector<float>& v, const float (&p)[3][3], const float (&c)[4]) {
  for (const auto& q : p) Vertex(v, q[0], q[1], q[2], 1, c[0], c[1], c[2], c[3]);
}

RenderJob StateJob(const char* fragment) {
  RenderJob job;
  job.vertexSpirv = ReadSpirvFile("color.vert");
  job.fragmentSpirv = ReadSpirvFile(fragment);
  job.streams.push_back(VertexStream{{}, 32, VK_VERTEX_INPUT_RATE_VERTEX});
  job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  job.clearColor.float32[3] = 1.0f;
  return job;
}

void Draw(RenderJob& job) { job.draws.push_back(DrawCommand{static_cast<uint32_t>(job.streams[0].data.size() / 8)}); }

// Three overlapping triangles of constant colours (multiples of 1/255, exact in 8 bits), so each logic op meets
// the clear colour and the earlier triangles' results.
RenderJob LogicJob(const char* fragment, VkFormat format, VkLogicOp op) {
  RenderJob job = StateJob(fragment);
  job.width = job.height = 32;
  job.colorFormat = format;
  if (format == VK_FORMAT_R8G8B8A8_UINT)
    job.clearColor.uint32[0] = 0x5a, job.clearColor.uint32[1] = 0xc3, job.clearColor.uint32[2] = 0x0f,
    job.clearColor.uint32[3] = 0xf0;
  else
    job.clearColor = {{0x5a / 255.0f, 0xc3 / 255.0f, 0x0f / 255.0f, 0xf0 / 255.0f}};
  job.logicOpEnable = true;
  job.logicOp = op;
  std::vector<float>& v = job.streams[0].data;
  Triangle(v, {{-0.9f, -0.9f, 0.5f}, {0.6f, -0.8f, 0.5f}, {-0.7f, 0.7f, 0.5f}},
           {0x33 / 255.0f, 0x99 / 255.0f, 0xcc / 255.0f, 0x81 / 255.0f});
  Triangle(v, {{-0.2f, -0.6f, 0.5f}, {0.9f, 0.1f, 0.5f}, {-0.1f, 0.9f, 0.5f}},
           {0xf0 / 255.0f, 0x0f / 255.0f, 0xa5 / 255.0f, 0x3c / 255.0f});
  Triangle(v, {{-0.8f, 0.2f, 0.5f}, {0.8f, 0.6f, 0.5f}, {0.3f, -0.95f, 0.5f}},
           {1.0f, 0x42 / 255.0f, 0.0f, 0x7e / 255.0f});
  Draw(job);
  return job;
}

}  // namespace

// "Logical Operations": all sixteen ops on a normalized attachment, one with a partial write mask.
TEST_F(RenderState, LogicOpsNormalized) {
  ASSERT_TRUE(ours_->features().logicOp) << "crashtest does not offer logicOp";
  ASSERT_TRUE(oracle_->features().logicOp) << "lavapipe does not offer logicOp";
  for (int op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op) {
    SCOPED_TRACE("VkLogicOp " + std::to_string(op));
    RenderJob job = LogicJob("color.frag", VK_FORMAT_R8G8B8A8_UNORM, static_cast<VkLogicOp>(op));
    if (op == VK_LOGIC_OP_NO_OP) {
      // Nothing changes: both images are the clear colour (Expect wants a scene that draws something).
      const RenderResult a = ours_->Render(job), b = oracle_->Render(job);
      ASSERT_EQ(a.result, VK_SUCCESS) << a.error;
      EXPECT_EQ(a.color, b.color);
      continue;
    }
    Expect(job, 0, 8);
  }
  RenderJob masked = LogicJob("color.frag", VK_FORMAT_R8G8B8A8_UNORM, VK_LOGIC_OP_XOR);
  masked.blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT;
  Expect(masked, 0, 8);
}

// The same on an integer attachment (the shader writes the colour as integers 0..255).
TEST_F(RenderState, LogicOpsInteger) {
  ASSERT_TRUE(ours_->features().logicOp) << "crashtest does not offer logicOp";
  ASSERT_TRUE(oracle_->features().logicOp) << "lavapipe does not offer logicOp";
  for (int op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op) {
    SCOPED_TRACE("VkLogicOp " + std::to_string(op));
    RenderJob job = LogicJob("logic_uint.frag", VK_FORMAT_R8G8B8A8_UINT, static_cast<VkLogicOp>(op));
    if (op == VK_LOGIC_OP_NO_OP) {
      const RenderResult a = ours_->Render(job), b = oracle_->Render(job);
      ASSERT_EQ(a.result, VK_SUCCESS) << a.error;
      EXPECT_EQ(a.color, b.color);
      continue;
    }
    Expect(job, 0, 8);
  }
}

// "Dual-Source Blending": the SRC1 factors read the output at Location 0, Index 1.
TEST_F(RenderState, DualSourceBlending) {
  ASSERT_TRUE(ours_->features().dualSrcBlend) << "crashtest does not offer dualSrcBlend";
  ASSERT_TRUE(oracle_->features().dualSrcBlend) << "lavapipe does not offer dualSrcBlend";
  RenderJob job = StateJob("dual_source.frag");
  job.clearColor = {{0.2f, 0.6f, 0.9f, 0.8f}};
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 1, 0, 0, 1);
  Vertex(v, 0.8f, -0.7f, 0.5f, 1, 0, 1, 0, 0.5f);
  Vertex(v, -0.6f, 0.9f, 0.5f, 1, 0, 0, 1, 0.2f);
  Vertex(v, -0.3f, -0.2f, 0.5f, 1, 0.9f, 0.9f, 0.1f, 0.7f);
  Vertex(v, 0.9f, 0.3f, 0.5f, 1, 0.1f, 0.5f, 0.9f, 0.3f);
  Vertex(v, 0.1f, 0.95f, 0.5f, 1, 0.6f, 0.2f, 0.4f, 1.0f);
  Draw(job);
  job.blend = {VK_TRUE, VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, VK_BLEND_OP_ADD,
               VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_OP_ADD, 0xf};
  // Two units: lavapipe blends 8-bit attachments in 8-bit fixed point, and here both the source and the factor
  // are interpolated, so its rounding reaches two units where crashtest blends in float (a dropped Index 1
  // output would differ by far more).
  Expect(job, 2, 12);
}

// Independent blending: two attachments, additive on the first, alpha blending with a partial write mask on the
// second.
TEST_F(RenderState, IndependentBlendTwoAttachments) {
  ASSERT_TRUE(ours_->features().independentBlend) << "crashtest does not offer independentBlend";
  ASSERT_TRUE(oracle_->features().independentBlend) << "lavapipe does not offer independentBlend";
  RenderJob job = StateJob("two_targets.frag");
  job.clearColor = {{0.1f, 0.1f, 0.3f, 1.0f}};
  job.secondColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  job.secondClearColor = {{0.7f, 0.2f, 0.5f, 0.25f}};
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 0.5f, 0.1f, 0.2f, 1);
  Vertex(v, 0.7f, -0.8f, 0.5f, 1, 0.1f, 0.6f, 0.2f, 1);
  Vertex(v, -0.8f, 0.8f, 0.5f, 1, 0.2f, 0.1f, 0.6f, 1);
  Vertex(v, -0.5f, -0.3f, 0.5f, 1, 0.4f, 0.4f, 0.1f, 1);
  Vertex(v, 0.9f, 0.0f, 0.5f, 1, 0.1f, 0.3f, 0.4f, 1);
  Vertex(v, 0.0f, 0.9f, 0.5f, 1, 0.3f, 0.0f, 0.3f, 1);
  Draw(job);
  job.blend = {VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
               VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf};
  job.secondBlend = {VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                     VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                     VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_A_BIT};
  Expect(job, 1, 12);
}

// "Depth Clamping": triangles reaching past the near and far planes are not clipped, and their depth is clamped to
// the viewport's range [0.2, 0.8] (compared in the depth attachment and through the depth test).
TEST_F(RenderState, DepthClamp) {
  ASSERT_TRUE(ours_->features().depthClamp) << "crashtest does not offer depthClamp";
  ASSERT_TRUE(oracle_->features().depthClamp) << "lavapipe does not offer depthClamp";
  RenderJob job = StateJob("color.frag");
  job.depthClamp = true;
  job.viewport = {0, 0, 64, 64, 0.2f, 0.8f};
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  std::vector<float>& v = job.streams[0].data;
  // z from -1 to 2 across the triangle: both ends clamped.
  Vertex(v, -0.9f, -0.9f, -1.0f, 1, 1, 0, 0, 1);
  Vertex(v, 0.9f, -0.9f, 2.0f, 1, 0, 1, 0, 1);
  Vertex(v, -0.9f, 0.9f, 0.5f, 1, 0, 0, 1, 1);
  // A flat triangle at z 0.6 (zf 0.56) over it: visible only where the first is farther.
  Vertex(v, -0.5f, -0.5f, 0.6f, 1, 1, 1, 0, 1);
  Vertex(v, 0.95f, -0.2f, 0.6f, 1, 1, 1, 0, 1);
  Vertex(v, 0.0f, 0.95f, 0.6f, 1, 1, 1, 0, 1);
  Draw(job);
  Expect(job, 1, 12);
}

// "Depth Bounds Test": fragments pass only where the stored depth lies in [0.4, 0.6]. lavapipe does not offer
// depthBounds, so crashtest's image is checked at known points. The depth is cleared to 0.5; the first (red)
// triangle writes 0.3 and passes; the second (green) at 0.7 passes only outside the first; the third (blue) at 0.45
// passes only where neither wrote.
TEST_F(RenderState, DepthBounds) {
  ASSERT_TRUE(ours_->features().depthBounds) << "crashtest does not offer depthBounds";
  RenderJob job = StateJob("color.frag");
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.clearDepth = 0.5f;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  job.depthStencil.depthBoundsTestEnable = VK_TRUE;
  job.depthStencil.minDepthBounds = 0.4f;
  job.depthStencil.maxDepthBounds = 0.6f;
  std::vector<float>& v = job.streams[0].data;
  Triangle(v, {{-1.0f, -1.0f, 0.3f}, {0.0f, -1.0f, 0.3f}, {-1.0f, 0.0f, 0.3f}}, {1, 0, 0, 1});
  Triangle(v, {{-1.0f, -1.0f, 0.7f}, {1.0f, -1.0f, 0.7f}, {1.0f, 0.0f, 0.7f}}, {0, 1, 0, 1});
  Triangle(v, {{-1.0f, -1.0f, 0.45f}, {1.0f, 1.0f, 0.45f}, {-1.0f, 1.0f, 0.45f}}, {0, 0, 1, 1});
  job.draws = {DrawCommand{3, 1, 0}, DrawCommand{3, 1, 3}, DrawCommand{3, 1, 6}};
  const RenderResult r = ours_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  auto pixel = [&](uint32_t x, uint32_t y) {
    const uint8_t* p = &r.color[(size_t(y) * job.width + x) * 4];
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
  };
  constexpr uint32_t kRed = 0xff0000ff, kGreen = 0xff00ff00, kBlue = 0xffff0000, kClear = 0xff000000;
  // Pixel (x, y) is in the first triangle when x + y < 32, the second when y <= x / 2, the third when y >= x.
  EXPECT_EQ(pixel(20, 2), kRed) << "the first and second: the second fails (stored 0.3)";
  EXPECT_EQ(pixel(50, 10), kGreen) << "only the second";
  EXPECT_EQ(pixel(8, 50), kBlue) << "only the third";
  EXPECT_EQ(pixel(6, 12), kRed) << "the first and third: the third fails (stored 0.3)";
  EXPECT_EQ(pixel(60, 56), kClear) << "no triangle";
}

// "Depth Bias": a steep triangle's slope-scaled bias, clamped to depthBiasClamp (0.02 instead of about 0.06),
// decides where it shows through a flat one; the depth attachment is compared too.
TEST_F(RenderState, DepthBiasClamp) {
  ASSERT_TRUE(ours_->features().depthBiasClamp) << "crashtest does not offer depthBiasClamp";
  ASSERT_TRUE(oracle_->features().depthBiasClamp) << "lavapipe does not offer depthBiasClamp";
  RenderJob job = StateJob("color.frag");
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  job.depthBias = true;
  job.depthBiasConstant = 0.0f;
  job.depthBiasSlope = 4.0f;
  job.depthBiasClamp = 0.02f;
  std::vector<float>& v = job.streams[0].data;
  // The flat triangle first (its slope is zero: no bias), then the steep one: z 0.2..0.8 over ~58 pixels.
  Triangle(v, {{-0.95f, -0.95f, 0.5f}, {0.95f, -0.95f, 0.5f}, {0.0f, 0.95f, 0.5f}}, {0, 0, 1, 1});
  Vertex(v, -0.9f, -0.9f, 0.2f, 1, 1, 0, 0, 1);
  Vertex(v, 0.9f, -0.9f, 0.8f, 1, 0, 1, 0, 1);
  Vertex(v, -0.9f, 0.9f, 0.2f, 1, 1, 1, 0, 1);
  Draw(job);
  Expect(job, 1, 16);
}

}  // namespace crashtest::test

namespace crashtest::test {
namespace {

// The multiViewport feature: a pipeline with three viewports and scissors. No shader writes ViewportIndex (its
// output needs shaderOutputViewportIndex, not advertised), so "the viewport index is 0" for every primitive:
// viewport 0 and scissor 0 place the image, and the others must change nothing.
TEST_F(RenderState, SeveralViewportsUseTheFirst) {
  ASSERT_TRUE(ours_->features().multiViewport) << "multiViewport not offered";
  RenderJob job = StateJob("color.frag");
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 1, 0, 0, 1);
  Vertex(v, 0.9f, -0.7f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.3f, 0.95f, 0.5f, 1, 0, 0, 1, 1);
  Draw(job);
  job.viewport = {4, 10, 40, 44, 0, 1};
  job.scissor = {{6, 4}, {50, 40}};
  job.moreViewports = {{30, 0, 34, 30, 0, 1}, {0, 0, 64, 64, 0, 1}};
  job.moreScissors = {{{0, 0}, {64, 64}}, {{32, 32}, {32, 32}}};
  Expect(job, 1, 4);
  // The same image as the first viewport alone, another one than the second viewport's.
  const RenderResult several = ours_->Render(job);
  RenderJob first = job;
  first.moreViewports.clear(), first.moreScissors.clear();
  const RenderResult alone = ours_->Render(first);
  RenderJob second = first;
  second.viewport = job.moreViewports[0], second.scissor = job.moreScissors[0];
  const RenderResult other = ours_->Render(second);
  ASSERT_EQ(several.result, VK_SUCCESS) << several.error;
  EXPECT_EQ(several.color, alone.color);
  EXPECT_NE(several.color, other.color);
}

}  // namespace
}  // namespace crashtest::test
