// Draws on crashtest and on Mesa's lavapipe (the oracle), compared pixel by pixel: interiors exactly (or within
// one unit where interpolated colours round), edges within a small budget of pixels (the two rasterisers snap
// vertices to the same 8-bit sub-pixel grid, so only vertices that round differently may move an edge pixel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "render_compare.h"

namespace crashtest::test {
namespace {

void Vertex(std::vector<float>& v, float x, float y, float z, float w, float r, float g, float b, float a) {
  v.insert(v.end(), {x, y, z, w, r, g, b, a});
}

RenderJob ColorJob() {
  RenderJob job;
  job.vertexSpirv = ReadSpirvFile("color.vert");
  job.fragmentSpirv = ReadSpirvFile("color.frag");
  job.streams.push_back(VertexStream{{}, 32, VK_VERTEX_INPUT_RATE_VERTEX});
  job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  job.clearColor.float32[3] = 1.0f;
  return job;
}

// Interpolated colours over triangles of every orientation, thin slivers and a fan whose triangles share edges:
// additive blending shows any pixel covered twice (or not at all) along a shared edge.
TEST_F(RenderDifferential, InterpolationAndFillRule) {
  RenderJob job = ColorJob();
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 1, 0, 0, 1);
  Vertex(v, -0.1f, -0.8f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.7f, -0.05f, 0.5f, 1, 0, 0, 1, 1);
  // A sliver.
  Vertex(v, 0.1f, -0.95f, 0.5f, 1, 1, 1, 0, 1);
  Vertex(v, 0.95f, -0.9f, 0.5f, 1, 0, 1, 1, 1);
  Vertex(v, 0.12f, -0.85f, 0.5f, 1, 1, 0, 1, 1);
  // A fan of eight triangles around (0.5, 0.5): shared edges everywhere.
  for (int i = 0; i < 8; ++i) {
    const float a0 = 6.2831853f * i / 8, a1 = 6.2831853f * (i + 1) / 8;
    Vertex(v, 0.45f, 0.45f, 0.5f, 1, 0.25f, 0.25f, 0.25f, 1);
    Vertex(v, 0.45f + 0.4f * std::cos(a0), 0.45f + 0.43f * std::sin(a0), 0.5f, 1, 0.25f, 0.25f, 0.25f, 1);
    Vertex(v, 0.45f + 0.4f * std::cos(a1), 0.45f + 0.43f * std::sin(a1), 0.5f, 1, 0.25f, 0.25f, 0.25f, 1);
  }
  // A big triangle with a perspective w.
  Vertex(v, -0.9f, 0.1f, 0.2f, 1.0f, 1, 0, 0, 1);
  Vertex(v, -0.2f * 3, 0.2f * 3, 0.2f * 3, 3.0f, 0, 1, 0, 1);
  Vertex(v, -0.8f * 2, 0.9f * 2, 0.2f * 2, 2.0f, 0, 0, 1, 1);
  job.blend = {VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
               VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf};
  job.draws.push_back(DrawCommand{static_cast<uint32_t>(v.size() / 8)});
  Expect(job, 1, 12);
}

// An indexed strip with primitive restart, two layers at different depths and a depth test, the depth
// attachment compared too; the occlusion query counts the samples that passed.
TEST_F(RenderDifferential, IndexedStripRestartDepth) {
  RenderJob job = ColorJob();
  std::vector<float>& v = job.streams[0].data;
  for (int i = 0; i < 6; ++i) {
    const float x = -0.9f + 0.35f * i;
    Vertex(v, x, -0.6f, 0.7f, 1, 1, 0.1f * i, 0, 1);
    Vertex(v, x, 0.2f, 0.3f, 1, 0.2f, 0.1f * i, 1, 1);
  }
  for (int i = 0; i < 4; ++i) {
    const float x = -0.7f + 0.45f * i;
    Vertex(v, x, -0.3f, 0.5f, 1, 0, 1, 0, 1);
    Vertex(v, x + 0.1f, 0.8f, 0.5f, 1, 0, 1, 1, 1);
  }
  for (uint32_t i = 0; i < 12; ++i) job.indices.push_back(i);
  job.indices.push_back(0xffff);
  for (uint32_t i = 12; i < 20; ++i) job.indices.push_back(i);
  job.indexType = VK_INDEX_TYPE_UINT16;
  job.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  job.primitiveRestart = true;
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  job.occlusionQuery = true;
  DrawCommand draw{static_cast<uint32_t>(job.indices.size())};
  draw.indexed = true;
  job.draws.push_back(draw);
  Expect(job, 1, 16);
}

// Alpha blending of overlapping translucent quads (a triangle list drawn three times with push-constant
// offsets), blend constants included.
TEST_F(RenderDifferential, AlphaBlending) {
  RenderJob job = ColorJob();
  std::vector<float>& v = job.streams[0].data;
  const float quad[6][2] = {{-0.5f, -0.5f}, {0.3f, -0.5f}, {-0.5f, 0.3f}, {0.3f, -0.5f}, {0.3f, 0.3f}, {-0.5f, 0.3f}};
  for (const auto& p : quad) Vertex(v, p[0], p[1], 0.5f, 1, 0.9f, 0.4f * (p[0] + 1), 0.2f, 0.6f);
  job.blend = {VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
               VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, 0xf};
  job.blendConstants[3] = 0.75f;
  job.clearColor = {{0.1f, 0.2f, 0.8f, 1.0f}};
  for (int i = 0; i < 3; ++i) {
    DrawCommand draw{6};
    draw.pushConstants = {0.2f * i, 0.15f * i, 0, 0};
    job.draws.push_back(draw);
  }
  Expect(job, 1, 12);
}

// A textured quad in perspective, its texture coordinates repeated: implicit LOD from the quad's derivatives,
// trilinear filtering between mip levels of distinct colours. lavapipe computes the level with a fast log2
// approximation (an error of a few hundredths of a level, which moves the blend between levels of very different
// colours by up to ~16 units), so filtered texels compare within 16; a wrong level, address mode or filter
// would differ by far more.
TEST_F(RenderDifferential, TexturedQuadMipmaps) {
  RenderJob job;
  job.width = job.height = 96;
  job.vertexSpirv = ReadSpirvFile("textured.vert");
  job.fragmentSpirv = ReadSpirvFile("textured.frag");
  job.streams.push_back(VertexStream{{}, 24, VK_VERTEX_INPUT_RATE_VERTEX});
  job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32_SFLOAT, 16}};
  std::vector<float>& v = job.streams[0].data;
  // A floor receding into the distance: w grows with y.
  const float corners[4][6] = {{-1, 1, 0.1f, 1, 0, 0}, {1, 1, 0.1f, 1, 6, 0}, {-4, -4, 0.9f * 6, 6, 0, 24},
                               {4, -4, 0.9f * 6, 6, 6, 24}};
  for (int i : {0, 1, 2, 1, 3, 2}) v.insert(v.end(), corners[i], corners[i] + 6);
  Texture t;
  t.width = t.height = 32;
  t.levels = 6;
  const uint32_t levelColors[6] = {0xff2040ffu, 0xff20ff40u, 0xffff2040u, 0xff40ffffu, 0xffff40ffu, 0xffffff40u};
  for (uint32_t level = 0; level < t.levels; ++level) {
    const uint32_t size = t.width >> level;
    for (uint32_t y = 0; y < size; ++y)
      for (uint32_t x = 0; x < size; ++x) t.texels.push_back(((x / 4 + y / 4) & 1) ? levelColors[level] : 0xff101010u);
  }
  t.sampler.magFilter = t.sampler.minFilter = VK_FILTER_LINEAR;
  t.sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  t.sampler.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  t.sampler.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  t.sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  t.sampler.maxLod = 16.0f;
  job.textures.push_back(t);
  job.draws.push_back(DrawCommand{6});
  Expect(job, 16, 24, 48);
}

// Clipping at the near plane and the sides of the view volume, and back faces culled.
TEST_F(RenderDifferential, ClippingAndCulling) {
  RenderJob job = ColorJob();
  std::vector<float>& v = job.streams[0].data;
  // Crosses z = 0 (one vertex behind the near plane).
  Vertex(v, -0.8f, -0.8f, -0.5f, 1, 1, 0, 0, 1);
  Vertex(v, 0.2f, -0.7f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.3f, 0.2f, 0.8f, 1, 0, 0, 1, 1);
  // Much larger than the viewport (guard band / side clipping).
  Vertex(v, -3.0f, 0.3f, 0.4f, 1, 1, 1, 0, 1);
  Vertex(v, 5.0f, 0.5f, 0.4f, 1, 0, 1, 1, 1);
  Vertex(v, 0.5f, 4.0f, 0.4f, 1, 1, 0, 1, 1);
  // Clockwise in framebuffer space: a back face with VK_FRONT_FACE_COUNTER_CLOCKWISE... culled.
  Vertex(v, 0.3f, -0.9f, 0.5f, 1, 1, 1, 1, 1);
  Vertex(v, 0.3f, -0.2f, 0.5f, 1, 1, 1, 1, 1);
  Vertex(v, 0.9f, -0.9f, 0.5f, 1, 1, 1, 1, 1);
  // ... and its counter-clockwise twin, drawn.
  Vertex(v, 0.4f, -0.1f, 0.5f, 1, 1, 0.5f, 0, 1);
  Vertex(v, 0.95f, -0.1f, 0.5f, 1, 1, 0.5f, 0, 1);
  Vertex(v, 0.4f, -0.7f, 0.5f, 1, 1, 0.5f, 0, 1);
  // Beyond the far plane: discarded.
  Vertex(v, -0.5f, -0.5f, 1.5f, 1, 1, 1, 1, 1);
  Vertex(v, 0.5f, -0.5f, 1.5f, 1, 1, 1, 1, 1);
  Vertex(v, 0.0f, 0.5f, 1.5f, 1, 1, 1, 1, 1);
  job.cullMode = VK_CULL_MODE_BACK_BIT;
  job.draws.push_back(DrawCommand{static_cast<uint32_t>(v.size() / 8)});
  Expect(job, 1, 16);
}

// Instancing (per-instance attributes), flat integer varyings, gl_FragCoord, gl_FrontFacing and discard.
TEST_F(RenderDifferential, InstancingFlatDiscard) {
  RenderJob job;
  job.vertexSpirv = ReadSpirvFile("instanced.vert");
  job.fragmentSpirv = ReadSpirvFile("flat_discard.frag");
  VertexStream corners{{-0.3f, -0.3f, 0.2f, -0.3f, -0.3f, 0.25f, 0.2f, -0.3f, 0.25f, 0.2f, -0.3f, 0.25f}, 8,
                       VK_VERTEX_INPUT_RATE_VERTEX};
  VertexStream instances{{}, 32, VK_VERTEX_INPUT_RATE_INSTANCE};
  for (int i = 0; i < 4; ++i)
    instances.data.insert(instances.data.end(),
                          {-0.55f + 0.5f * (i % 2), -0.55f + 0.5f * (i / 2), 0.1f * i, 0, 0.2f * i + 0.2f, 1.0f - 0.2f * i, 0.5f, 1});
  job.streams = {corners, instances};
  job.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                    {1, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 0},
                    {2, 1, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  // Two triangles per quad, the second wound the other way: one front face, one back face.
  job.indices = {0, 1, 2, 1, 2, 3};
  DrawCommand draw{6, 4};
  draw.indexed = true;
  job.draws.push_back(draw);
  Expect(job, 1, 12);
}

// Explicit coarse derivatives of a perspective-interpolated varying.
TEST_F(RenderDifferential, Derivatives) {
  RenderJob job = ColorJob();
  job.fragmentSpirv = ReadSpirvFile("derivatives.frag");
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 0, 0, 0, 1);
  Vertex(v, 0.9f * 2, -0.8f * 2, 0.5f * 2, 2, 1, 0, 1, 1);
  Vertex(v, -0.7f * 4, 0.9f * 4, 0.5f * 4, 4, 0, 1, 0.5f, 1);
  job.draws.push_back(DrawCommand{3});
  Expect(job, 2, 12);
}

}  // namespace
}  // namespace crashtest::test

namespace crashtest::test {
namespace {

// Multiview: one draw broadcast to views 0 and 1 (VK_KHR_multiview), each into its own attachment layer, the
// shaders reading gl_ViewIndex in both stages; a depth attachment of two layers tests each view's own depth.
TEST_F(RenderDifferential, MultiviewTwoLayers) {
  RenderJob job = ColorJob();
  job.vertexSpirv = ReadSpirvFile("multiview.vert");
  job.fragmentSpirv = ReadSpirvFile("multiview.frag");
  job.viewMask = 0b11;
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.8f, 0.6f, 1, 1, 0, 0, 1);
  Vertex(v, 0.2f, -0.7f, 0.6f, 1, 0, 1, 0, 1);
  Vertex(v, -0.5f, 0.8f, 0.6f, 1, 0, 0, 1, 1);
  Vertex(v, -0.8f, 0.1f, 0.3f, 1, 1, 1, 0, 1);
  Vertex(v, 0.3f, 0.2f, 0.3f, 1, 1, 1, 0, 1);
  Vertex(v, -0.2f, 0.9f, 0.7f, 1, 1, 1, 0, 1);
  job.draws.push_back(DrawCommand{6});
  Expect(job, 1, 8);
}

// Points of size 1 at positions away from pixel-centre ties, a flat integer from each vertex; gl_PointCoord is
// (0.5, 0.5) at a one-pixel point's only fragment.
TEST_F(RenderDifferential, PointList) {
  RenderJob job = ColorJob();
  job.vertexSpirv = ReadSpirvFile("points.vert");
  job.fragmentSpirv = ReadSpirvFile("points.frag");
  job.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  std::vector<float>& v = job.streams[0].data;
  for (int i = 0; i < 40; ++i) {
    const float x = -0.95f + 0.047f * static_cast<float>(i), y = -0.9f + 0.043f * static_cast<float>((i * 7) % 40);
    Vertex(v, x, y, 0.5f, 1, 0.02f * i, 1 - 0.02f * i, 0, 1);
  }
  // Outside the view volume: discarded whole.
  Vertex(v, 1.2f, 0.0f, 0.5f, 1, 1, 1, 1, 1);
  Vertex(v, 0.0f, 0.0f, 1.5f, 1, 1, 1, 1, 1);
  job.draws.push_back(DrawCommand{static_cast<uint32_t>(v.size() / 8), 1, 0, 0, 0, false, {1.0f}});
  Expect(job, 1, 0);
}

// Line lists and a line strip with primitive restart: colours interpolated along each segment, a flat integer from
// its first vertex, segments clipped at the view volume's sides and near plane.
TEST_F(RenderDifferential, LinesAndStrips) {
  RenderJob job = ColorJob();
  job.vertexSpirv = ReadSpirvFile("points.vert");
  job.fragmentSpirv = ReadSpirvFile("lines.frag");
  job.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  std::vector<float>& v = job.streams[0].data;
  // Lines in every octant from a centre, x-major and y-major.
  for (int i = 0; i < 12; ++i) {
    const float a = 6.2831853f * (static_cast<float>(i) + 0.37f) / 12.0f;
    Vertex(v, -0.43f, -0.41f, 0.5f, 1, 1, 0, 0, 1);
    Vertex(v, -0.43f + 0.51f * std::cos(a), -0.41f + 0.53f * std::sin(a), 0.5f, 1, 0, 1, 0, 1);
  }
  // Crossing the right side and the near plane (z < 0 at one end).
  Vertex(v, 0.3f, -0.73f, 0.5f, 1, 1, 1, 0, 1);
  Vertex(v, 1.6f, -0.52f, 0.5f, 1, 0, 0, 1, 1);
  Vertex(v, 0.21f, -0.13f, 0.5f, 1, 1, 0, 1, 1);
  Vertex(v, 0.83f, 0.07f, -0.5f, 1, 0, 1, 1, 1);
  job.draws.push_back(DrawCommand{static_cast<uint32_t>(v.size() / 8), 1, 0, 0, 0, false, {1.0f}});
  Expect(job, 1, 6);

  // A strip through indices with a restart.
  RenderJob strip = ColorJob();
  strip.vertexSpirv = ReadSpirvFile("points.vert");
  strip.fragmentSpirv = ReadSpirvFile("lines.frag");
  strip.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  strip.primitiveRestart = true;
  std::vector<float>& s = strip.streams[0].data;
  for (int i = 0; i < 10; ++i)
    Vertex(s, -0.9f + 0.19f * static_cast<float>(i), (i % 2 ? 0.31f : -0.27f) + 0.013f * i, 0.5f, 1, 0.1f * i, 1, 0, 1);
  strip.indices = {0, 1, 2, 3, 4, 0xffffffffu, 5, 6, 7, 8, 9};
  strip.draws.push_back(DrawCommand{static_cast<uint32_t>(strip.indices.size()), 1, 0, 0, 0, true, {1.0f}});
  Expect(strip, 1, 6);
}

// Large points (PointSize 4.5: gl_PointCoord varies over each square) and lines 3 pixels wide, on devices that
// offer largePoints and wideLines (both do).
TEST_F(RenderDifferential, LargePointsAndWideLines) {
  RenderJob points = ColorJob();
  points.vertexSpirv = ReadSpirvFile("points.vert");
  points.fragmentSpirv = ReadSpirvFile("points.frag");
  points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  std::vector<float>& v = points.streams[0].data;
  for (int i = 0; i < 24; ++i) {
    const float x = -0.83f + 0.071f * static_cast<float>(i), y = -0.81f + 0.067f * static_cast<float>((i * 5) % 24);
    Vertex(v, x, y, 0.5f, 1, 0.04f * i, 1 - 0.04f * i, 0, 1);
  }
  points.draws.push_back(DrawCommand{static_cast<uint32_t>(v.size() / 8), 1, 0, 0, 0, false, {4.5f}});
  Expect(points, 1, 4);

  RenderJob lines = ColorJob();
  lines.vertexSpirv = ReadSpirvFile("points.vert");
  lines.fragmentSpirv = ReadSpirvFile("lines.frag");
  lines.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines.lineWidth = 3.0f;
  std::vector<float>& l = lines.streams[0].data;
  for (int i = 0; i < 8; ++i) {
    const float a = 6.2831853f * (static_cast<float>(i) + 0.29f) / 8.0f;
    Vertex(l, 0.03f, 0.02f, 0.5f, 1, 1, 0, 0, 1);
    Vertex(l, 0.03f + 0.81f * std::cos(a), 0.02f + 0.77f * std::sin(a), 0.5f, 1, 0, 1, 0, 1);
  }
  lines.draws.push_back(DrawCommand{static_cast<uint32_t>(l.size() / 8), 1, 0, 0, 0, false, {1.0f}});
  Expect(lines, 1, 12);
}

// 4x multisampling at the standard sample locations, resolved by averaging: edges get partial coverage, a second
// triangle crossing the first is depth-tested per sample, and the pipeline's sample mask drops sample 2.
TEST_F(RenderDifferential, Multisample4xWithResolve) {
  RenderJob job = ColorJob();
  job.samples = VK_SAMPLE_COUNT_4_BIT;
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.93f, -0.71f, 0.2f, 1, 1, 0, 0, 1);
  Vertex(v, 0.77f, -0.93f, 0.8f, 1, 1, 0, 0, 1);
  Vertex(v, -0.41f, 0.89f, 0.5f, 1, 1, 0, 0, 1);
  Vertex(v, 0.91f, 0.83f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.87f, 0.11f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, 0.53f, -0.79f, 0.5f, 1, 0, 1, 0, 1);
  job.draws.push_back(DrawCommand{6});
  job.occlusionQuery = true;
  Expect(job, 1, 6);

  job.sampleMask = 0b1011;
  Expect(job, 1, 6);
}

// Clip distances (a slanted plane and y <= 0.7) cut triangles and lines like the view volume's planes; a cull
// distance discards the triangle whose every vertex is negative in it and keeps one that is negative only in part.
TEST_F(RenderDifferential, ClipAndCullDistances) {
  RenderJob job = ColorJob();
  job.vertexSpirv = ReadSpirvFile("clip_cull.vert");
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.9f, -0.9f, 0.5f, 1, 1, 0, 0, 1);  // crosses both planes
  Vertex(v, 0.8f, -0.7f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.2f, 0.95f, 0.5f, 1, 0, 0, 1, 1);
  Vertex(v, 0.3f, 0.1f, 0.1f, 1, 1, 1, 0, 1);    // every cull distance negative: culled
  Vertex(v, 0.9f, 0.2f, 0.2f, 1, 1, 1, 0, 1);
  Vertex(v, 0.6f, 0.6f, 0.1f, 1, 1, 1, 0, 1);
  Vertex(v, -0.6f, -0.2f, 0.1f, 1, 0, 1, 1, 1);  // one vertex positive: kept
  Vertex(v, -0.1f, -0.5f, 0.1f, 1, 0, 1, 1, 1);
  Vertex(v, -0.3f, 0.3f, 0.6f, 1, 0, 1, 1, 1);
  job.draws.push_back(DrawCommand{9});
  Expect(job, 1, 8);

  job.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  job.draws[0].count = 8;
  Expect(job, 1, 8);
}

// Early fragment tests: a near quad drawn first, then a far one overlapping it; with EarlyFragmentTests the far
// quad's hidden fragments fail the depth test before the shader, so they never count themselves (every pixel's
// count is 1), and the colours are those of the near quad where they overlap.
TEST_F(RenderDifferential, EarlyFragmentTests) {
  RenderJob job = ColorJob();
  job.fragmentSpirv = ReadSpirvFile("early_count.frag");
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  job.storage.assign(64 * 64, 0);
  std::vector<float>& v = job.streams[0].data;
  auto quad = [&](float x0, float y0, float x1, float y1, float z, float r, float g) {
    Vertex(v, x0, y0, z, 1, r, g, 0, 1);
    Vertex(v, x1, y0, z, 1, r, g, 0, 1);
    Vertex(v, x0, y1, z, 1, r, g, 0, 1);
    Vertex(v, x0, y1, z, 1, r, g, 0, 1);
    Vertex(v, x1, y0, z, 1, r, g, 0, 1);
    Vertex(v, x1, y1, z, 1, r, g, 0, 1);
  };
  quad(-0.75f, -0.75f, 0.25f, 0.25f, 0.3f, 1, 0);  // near
  quad(-0.25f, -0.25f, 0.75f, 0.75f, 0.6f, 0, 1);  // far, partly hidden
  job.draws.push_back(DrawCommand{12});
  const RenderResult ours = ours_->Render(job);
  ASSERT_EQ(ours.result, VK_SUCCESS) << ours.error;
  const RenderResult oracle = oracle_->Render(job);
  ASSERT_EQ(oracle.result, VK_SUCCESS) << oracle.error;
  ASSERT_EQ(ours.storage.size(), oracle.storage.size());
  uint32_t shaded = 0, differing = 0;
  for (size_t p = 0; p < ours.storage.size(); ++p) {
    EXPECT_LE(ours.storage[p], 1u) << "pixel " << p % 64 << "," << p / 64 << " shaded twice";
    shaded += ours.storage[p];
    differing += ours.storage[p] != oracle.storage[p] ? 1 : 0;
  }
  EXPECT_GT(shaded, 1000u);
  EXPECT_EQ(differing, 0u) << "fragments shaded at other pixels than lavapipe's";
  Expect(job, 1, 0);
}

// Polygon modes LINE and POINT: the edges (or vertices) of the triangles back-face culling keeps, flat colours
// from each triangle's provoking vertex.
TEST_F(RenderDifferential, NonSolidPolygonModes) {
  RenderJob job = ColorJob();
  job.vertexSpirv = ReadSpirvFile("points.vert");
  job.fragmentSpirv = ReadSpirvFile("lines.frag");
  job.polygonMode = VK_POLYGON_MODE_LINE;
  job.cullMode = VK_CULL_MODE_BACK_BIT;
  std::vector<float>& v = job.streams[0].data;
  Vertex(v, -0.83f, -0.71f, 0.5f, 1, 1, 0, 0, 1);  // counter-clockwise on screen (y down): back face, culled
  Vertex(v, -0.13f, 0.62f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, 0.47f, -0.53f, 0.5f, 1, 0, 0, 1, 1);
  Vertex(v, 0.11f, 0.07f, 0.5f, 1, 1, 1, 0, 1);    // clockwise on screen: front face, kept
  Vertex(v, 0.87f, 0.21f, 0.5f, 1, 0, 1, 1, 1);
  Vertex(v, 0.41f, 0.91f, 0.5f, 1, 1, 0, 1, 1);
  Vertex(v, -0.91f, 0.12f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.37f, 0.33f, 0.5f, 1, 0, 1, 0, 1);
  Vertex(v, -0.52f, 0.93f, 0.5f, 1, 0, 1, 0, 1);
  job.draws.push_back(DrawCommand{9, 1, 0, 0, 0, false, {1.0f}});
  Expect(job, 1, 6);

  job.polygonMode = VK_POLYGON_MODE_POINT;
  Expect(job, 1, 2);
}

// A mesh large enough for every worker: 2 x 48 x 36 triangles over a 300x200 target (several 64x64 tiles, and
// more triangles than one worker bins alone), depth-tested heights and per-vertex colours, so tiles, binning
// chunks and primitive order across them are exercised against lavapipe.
TEST_F(RenderDifferential, MeshAcrossTilesAndWorkers) {
  RenderJob job = ColorJob();
  job.width = 300;
  job.height = 200;
  job.depthFormat = VK_FORMAT_D32_SFLOAT;
  job.depthStencil.depthTestEnable = VK_TRUE;
  job.depthStencil.depthWriteEnable = VK_TRUE;
  job.depthStencil.depthCompareOp = VK_COMPARE_OP_LESS;
  std::vector<float>& v = job.streams[0].data;
  const int columns = 48, rows = 36;
  for (int j = 0; j <= rows; ++j)
    for (int i = 0; i <= columns; ++i) {
      const float x = -1.0f + 2.0f * static_cast<float>(i) / columns, y = -1.0f + 2.0f * static_cast<float>(j) / rows;
      const float z = 0.5f + 0.3f * std::sin(x * 5.0f) * std::cos(y * 4.0f);
      Vertex(v, x, y, z, 1, 0.5f + 0.5f * x, 0.5f + 0.5f * y, z, 1);
    }
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const uint32_t a = static_cast<uint32_t>(j * (columns + 1) + i), b = a + 1, c = a + columns + 1, d = c + 1;
      job.indices.insert(job.indices.end(), {a, b, c, c, b, d});
    }
  // A second, tilted sheet through the first: the depth test decides pixel by pixel.
  const uint32_t base = static_cast<uint32_t>(v.size() / 8);
  Vertex(v, -0.9f, -0.8f, 0.2f, 1, 1, 1, 1, 1);
  Vertex(v, 0.95f, -0.7f, 0.8f, 1, 1, 0, 1, 1);
  Vertex(v, -0.2f, 0.9f, 0.6f, 1, 0, 1, 1, 1);
  job.indices.insert(job.indices.end(), {base, base + 1, base + 2});
  DrawCommand draw;
  draw.count = static_cast<uint32_t>(job.indices.size());
  draw.indexed = true;
  job.draws.push_back(draw);
  job.occlusionQuery = true;
  Expect(job, 1, 40);
}

}  // namespace
}  // namespace crashtest::test
