// HalfLog2 (lod_log2.h) replaces libm's log2(sqrt(m)) in the level-of-detail computation: it must stay within
// 1e-6 (or an ulp and a half) of it over every exponent a squared gradient length can have, and keep libm's answer
// at the edges.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "sampling/lod_log2.h"
#include "sampling/sampler.h"

namespace crashtest::sampling {
namespace {

TEST(HalfLog2, AgreesWithLibmOverEveryExponent) {
  std::mt19937 random(7);
  double worst = 0.0;
  // Every normal exponent, random mantissas, plus the mantissa ends where the series is least accurate.
  for (uint32_t exponent = 1; exponent < 255; ++exponent) {
    for (int i = 0; i < 2000; ++i) {
      const uint32_t mantissa = i == 0 ? 0u : i == 1 ? 0x7fffffu : i == 2 ? 0x3504f3u : random() & 0x7fffffu;
      const float m = std::bit_cast<float>(exponent << 23 | mantissa);
      const double exact = 0.5 * std::log2(static_cast<double>(m));
      const double error = std::fabs(HalfLog2(m) - exact);
      worst = std::max(worst, error);
      // 1e-6, or a float ulp and a half of the result where that is larger (|λ| up to 63): libm's own float
      // result is off by up to half an ulp.
      const double bound = exact == 0.0 ? 1e-6 : std::max(1e-6, 1.5 * std::ldexp(1.0, std::ilogb(exact) - 23));
      ASSERT_LT(error, bound) << "m = " << m;
    }
  }
  EXPECT_GT(worst, 0.0);  // the comparison ran
  EXPECT_EQ(HalfLog2(4.0f), 1.0f);
  EXPECT_EQ(HalfLog2(1.0f), 0.0f);
}

TEST(HalfLog2, KeepsLibmAtTheEdges) {
  EXPECT_EQ(HalfLog2(std::numeric_limits<float>::infinity()), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(HalfLog2(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(HalfLog2(0.0f), -std::numeric_limits<float>::infinity());
  const float subnormal = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(HalfLog2(subnormal), std::log2(std::sqrt(subnormal)));
}

// The subgroup-wide λ (16 quads per call) must give LodFromGradients' bits quad for quad, including zero
// gradients (-128), NaN coordinates and gradients too large for a float's square.
TEST(LodFromQuadGradients2D, GivesLodFromGradientsBitsForEveryQuad) {
  std::mt19937 random(11);
  ImageDescriptor image;
  image.bound = true;
  image.levels = 1;
  image.level[0].width = 256, image.level[0].height = 64;
  std::uniform_real_distribution<float> coordinate(-2.0f, 2.0f), step(-0.05f, 0.05f);
  uint32_t compared = 0;
  for (int round = 0; round < 200; ++round) {
    float s[64], t[64];
    for (uint32_t q = 0; q < 16; ++q) {
      const float s0 = coordinate(random), t0 = coordinate(random);
      const int special = static_cast<int>(random() % 8);
      for (uint32_t i = 0; i < 4; ++i) {
        s[4 * q + i] = special == 0 ? s0 : s0 + step(random);  // 0: zero gradients
        t[4 * q + i] = special == 0 ? t0 : t0 + step(random);
      }
      if (special == 1) s[4 * q + 1] = std::numeric_limits<float>::quiet_NaN();
      if (special == 2) t[4 * q + 2] = 3e30f;  // the squared length overflows to infinity
    }
    float lambda[16];
    const uint32_t quads = round % 2 == 0 ? 16 : 13;  // four at a time, and a scalar tail
    LodFromQuadGradients2D(image, s, t, quads, lambda);
    for (uint32_t q = 0; q < quads; ++q) {
      const float dx[3] = {s[4 * q + 1] - s[4 * q], t[4 * q + 1] - t[4 * q], 0};
      const float dy[3] = {s[4 * q + 2] - s[4 * q], t[4 * q + 2] - t[4 * q], 0};
      const float expected = LodFromGradients(image, Dim::k2D, dx, dy, 2);
      ASSERT_EQ(std::bit_cast<uint32_t>(lambda[q]), std::bit_cast<uint32_t>(expected))
          << "round " << round << " quad " << q;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2900u);
}

}  // namespace
}  // namespace crashtest::sampling
