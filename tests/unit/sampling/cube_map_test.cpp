// Cube map edge handling (src/sampling/cube_map.cpp) against texels worked out by hand from the spec's face table,
// and the address modes of non-seamless samplers, which lavapipe 22.3 ignores (it clamps within the face whatever
// the mode), so the differential image tests cannot check them.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

#include "sampling/cube_map.h"
#include "sampling/sampler.h"

namespace crashtest::sampling {
namespace {

bool Same(const CubeTexel& a, const CubeTexel& b) { return a.face == b.face && a.i == b.i && a.j == b.j; }

TEST(CubeEdgeTexels, InsideTheFaceIsTheTexelItself) {
  CubeTexel out[3];
  ASSERT_EQ(CubeEdgeTexels(3, 2, 1, 4, out), 1u);
  EXPECT_TRUE(Same(out[0], {3, 2, 1}));
}

TEST(CubeEdgeTexels, PastAnEdgeIsTheNeighbouringFacesTexel) {
  CubeTexel out[3];
  // +X's s = 0 edge (sc = -rz = -1) meets +Z's s = 1 edge (sc = rx = 1); both have tc = -ry.
  ASSERT_EQ(CubeEdgeTexels(0, -1, 1, 4, out), 1u);
  EXPECT_TRUE(Same(out[0], {4, 3, 1}));
  // +Y's t = 0 edge (tc = rz = -1) meets -Z's t = 0 edge (tc = -ry = -1); x runs the other way on -Z.
  ASSERT_EQ(CubeEdgeTexels(2, 1, -1, 4, out), 1u);
  EXPECT_TRUE(Same(out[0], {5, 2, 0}));
}

TEST(CubeEdgeTexels, PastACornerAreTheThreeCornerTexels) {
  CubeTexel out[3];
  // +Z's (s, t) = (0, 0) corner is the cube's (-x, +y, +z) corner.
  ASSERT_EQ(CubeEdgeTexels(4, -1, -1, 4, out), 3u);
  EXPECT_TRUE(Same(out[0], {1, 3, 0}));  // -X: sc = rz = 1, tc = -ry = -1
  EXPECT_TRUE(Same(out[1], {2, 0, 3}));  // +Y: sc = rx = -1, tc = rz = 1
  EXPECT_TRUE(Same(out[2], {4, 0, 0}));  // +Z's own corner texel
}

// Every texel one step past an edge maps to an edge texel of the neighbour, and stepping outward from there across
// that edge comes back to the first face's edge texel: the faces are stitched consistently on all 24 edges.
TEST(CubeEdgeTexels, EdgesAreStitchedBothWays) {
  const int32_t n = 5;
  for (int32_t face = 0; face < 6; ++face) {
    for (int32_t k = 1; k < n - 1; ++k) {
      const CubeTexel inside[4] = {{face, 0, k}, {face, n - 1, k}, {face, k, 0}, {face, k, n - 1}};
      const CubeTexel past[4] = {{face, -1, k}, {face, n, k}, {face, k, -1}, {face, k, n}};
      for (int e = 0; e < 4; ++e) {
        CubeTexel there[3], back[3];
        ASSERT_EQ(CubeEdgeTexels(face, past[e].i, past[e].j, n, there), 1u);
        const CubeTexel& t = there[0];
        ASSERT_NE(t.face, face);
        int32_t i = t.i, j = t.j;
        if (t.i == 0) --i; else if (t.i == n - 1) ++i; else if (t.j == 0) --j; else ++j;
        ASSERT_EQ(CubeEdgeTexels(t.face, i, j, n, back), 1u);
        EXPECT_TRUE(Same(back[0], inside[e])) << "face " << face << " edge " << e << " texel " << k;
      }
    }
  }
}

// A 2x2 cube of R32_SFLOAT whose texel (i, j) of face f holds 10 f + 2 j + i, sampled linearly just past +X's
// s = 0 edge: u = 0.1, so texels i = -1 and 0 with weights 0.4 and 0.6, rows 0 and 1 half each.
class CubeSampling : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int f = 0; f < 6; ++f)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) texels_[f * 4 + j * 2 + i] = static_cast<float>(10 * f + 2 * j + i);
    image_.bound = true;
    image_.format = VK_FORMAT_R32_SFLOAT;
    image_.codec = format::ColorCodec(VK_FORMAT_R32_SFLOAT);
    image_.kind = format::ValueKind::kFloat;
    image_.texelBytes = 4;
    image_.levels = 1;
    image_.layers = 6;
    image_.cube = true;
    LevelView& level = image_.level[0];
    level.base = reinterpret_cast<std::byte*>(texels_);
    level.rowPitch = 8, level.depthPitch = 16, level.layerPitch = 16;
    level.width = level.height = 2, level.depth = 1;
    sampler_.bound = true;
    sampler_.magFilter = sampler_.minFilter = VK_FILTER_LINEAR;
  }
  float SampleNearEdge(VkSamplerAddressMode mode, bool nonSeamless) {
    for (VkSamplerAddressMode& a : sampler_.address) a = mode;
    sampler_.nonSeamlessCube = nonSeamless;
    SampleRequest request;
    request.dim = Dim::kCube;
    request.coord[0] = 1.0f, request.coord[1] = 0.0f, request.coord[2] = 0.9f;  // s = 0.5 * (-0.9 + 1) = 0.05
    return std::bit_cast<float>(Sample(image_, sampler_, request).v[0]);
  }
  float texels_[24] = {};
  ImageDescriptor image_;
  SamplerDescriptor sampler_;
};

TEST_F(CubeSampling, SeamlessReadsTheNeighbouringFace) {
  // Texel -1 of +X is texel 1 of +Z (rows 41 and 43): 0.4 * 42 + 0.6 * 1, whatever the address mode.
  EXPECT_NEAR(SampleNearEdge(VK_SAMPLER_ADDRESS_MODE_REPEAT, false), 17.4f, 1e-4f);
  EXPECT_NEAR(SampleNearEdge(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, false), 17.4f, 1e-4f);
}

TEST_F(CubeSampling, NonSeamlessAppliesTheAddressModesWithinTheFace) {
  EXPECT_NEAR(SampleNearEdge(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true), 1.0f, 1e-4f);  // column 0 twice
  EXPECT_NEAR(SampleNearEdge(VK_SAMPLER_ADDRESS_MODE_REPEAT, true), 0.4f * 2.0f + 0.6f * 1.0f, 1e-4f);
  // Clamp to border: texel -1 is the (transparent black) border colour.
  EXPECT_NEAR(SampleNearEdge(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, true), 0.6f * 1.0f, 1e-4f);
}

}  // namespace
}  // namespace crashtest::sampling
