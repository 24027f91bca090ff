// The interpreter as a unit (no Vulkan device): shaders compiled by crashtest's compiler, run by
// execution::RunDispatch at every subgroup size from 4 to 64 and with 1 and 4 threads.
// - subgroup operations against a scalar reference computed here;
// - workgroup memory and barriers: a tiled matrix multiply, a parallel reduction and a prefix sum give the exact
//   reference results at every subgroup size (their arithmetic order does not depend on it);
// - determinism: the same results for any thread count.
#include <gtest/gtest.h>

#include <tuple>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "interpreter_rig.h"

namespace crashtest::execution {
namespace {

class SubgroupSizes : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SubgroupSizes, SubgroupOperationsMatchAScalarReference) {
  const uint32_t w = GetParam();
  auto exe = Build(Own("subgroup_ops.comp"));
  ASSERT_NE(exe, nullptr);
  const uint32_t n = 256;  // two workgroups of 128
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 37u + 11u) % 97u;
  std::vector<std::vector<uint32_t>> buffers = {in, std::vector<uint32_t>(n * 20, 0xffffffffu)};
  const uint32_t groups[3] = {2, 1, 1};
  DispatchOutcome outcome = RunShader(*exe, buffers, w, 2, groups);
  ASSERT_EQ(outcome.fault.kind, ShaderFaultKind::None);
  const std::vector<uint32_t>& o = buffers[1];
  for (uint32_t base = 0; base < n; base += w) {  // one subgroup: invocations [base, base + w)
    uint32_t sum = 0, mn = UINT32_MAX, mx = 0, x0r = 0, odd = 0, evenSum = 0, evens = 0;
    bool all = true, any5 = false;
    for (uint32_t l = 0; l < w; ++l) {
      const uint32_t x = in[base + l];
      sum += x, mn = std::min(mn, x), mx = std::max(mx, x), x0r ^= x, odd += x & 1u;
      all = all && x < 1000u, any5 = any5 || x == 5u;
      if ((x & 1u) == 0) evenSum += x, ++evens;
    }
    uint32_t running = 0, evenRunning = 0;
    for (uint32_t l = 0; l < w; ++l) {
      const uint32_t i = base + l, x = in[i];
      const uint32_t* r = &o[i * 20];
      SCOPED_TRACE("subgroup size " + std::to_string(w) + ", invocation " + std::to_string(i));
      EXPECT_EQ(r[0], sum);
      EXPECT_EQ(r[1], running + x);
      EXPECT_EQ(r[2], running);
      EXPECT_EQ(r[3], mn);
      EXPECT_EQ(r[4], mx);
      EXPECT_EQ(r[5], x0r);
      EXPECT_EQ(r[6], in[base]);
      EXPECT_EQ(r[7], in[base + (l * 3u) % w]);
      EXPECT_EQ(r[8], in[base + (l ^ 1u)]);
      EXPECT_EQ(r[9], odd);
      EXPECT_EQ(r[10], l == 0 ? 1u : 0u);
      EXPECT_EQ(r[11], uint32_t{all} | (uint32_t{any5} << 1));
      uint32_t cluster = 0;
      for (uint32_t k = l & ~3u; k < (l & ~3u) + 4; ++k) cluster += in[base + k];
      EXPECT_EQ(r[12], cluster);
      EXPECT_EQ(r[13], in[base + (l ^ 1u)]);
      if (l + 1 < w) {
        EXPECT_EQ(r[14], in[i + 1]);
      }
      EXPECT_EQ(r[15], l + w * 1000u + ((i % 128) / w) * 100000u);
      EXPECT_EQ(r[16], in[base + 2]);
      if ((x & 1u) == 0) {
        EXPECT_EQ(r[17], evenSum);
        EXPECT_EQ(r[18], evenRunning);
        EXPECT_EQ(r[19], evens);
        evenRunning += x;
      } else {
        EXPECT_EQ(r[17], 0xffffffffu);  // inactive lanes write nothing
      }
      running += x;
    }
  }
}

TEST_P(SubgroupSizes, TiledMatrixMultiplyIsExact) {
  const uint32_t w = GetParam();
  auto exe = Build(Corpus("matmul_tiled.comp"));
  ASSERT_NE(exe, nullptr);
  const uint32_t m = 64;
  std::vector<uint32_t> a(m * m), b(m * m);
  for (uint32_t i = 0; i < m * m; ++i) {
    a[i] = std::bit_cast<uint32_t>(static_cast<float>(i % 7) - 3.0f);
    b[i] = std::bit_cast<uint32_t>(static_cast<float>(i % 5) * 0.5f);
  }
  std::vector<std::vector<uint32_t>> buffers = {a, b, std::vector<uint32_t>(m * m, 0)};
  const uint32_t groups[3] = {4, 4, 1};
  ASSERT_EQ(RunShader(*exe, buffers, w, 2, groups, {m, m, m, std::bit_cast<uint32_t>(1.0f)}).fault.kind,
            ShaderFaultKind::None);
  for (uint32_t row = 0; row < m; ++row)
    for (uint32_t col = 0; col < m; ++col) {
      float expected = 0;  // small integers and halves: every partial sum is exact in any order
      for (uint32_t k = 0; k < m; ++k)
        expected += std::bit_cast<float>(a[row * m + k]) * std::bit_cast<float>(b[k * m + col]);
      ASSERT_EQ(std::bit_cast<float>(buffers[2][row * m + col]), expected) << row << "," << col << " at width " << w;
    }
}

TEST_P(SubgroupSizes, ReductionAndPrefixSumAreExact) {
  const uint32_t w = GetParam();
  auto reduce = Build(Corpus("reduce.comp"));
  ASSERT_NE(reduce, nullptr);
  std::vector<uint32_t> values(8192);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = std::bit_cast<uint32_t>(static_cast<float>(i % 13));
  std::vector<std::vector<uint32_t>> buffers = {values, std::vector<uint32_t>(8, 0)};
  const uint32_t groups[3] = {8, 1, 1};
  ASSERT_EQ(RunShader(*reduce, buffers, w, 4, groups, {8192}).fault.kind, ShaderFaultKind::None);
  float total = 0;
  for (uint32_t g = 0; g < 8; ++g) total += std::bit_cast<float>(buffers[1][g]);
  float expected = 0;
  for (uint32_t v : values) expected += std::bit_cast<float>(v);
  EXPECT_EQ(total, expected) << "width " << w;

  auto scan = Build(Corpus("prefix_sum.comp"));
  ASSERT_NE(scan, nullptr);
  std::vector<uint32_t> input(4096);
  for (uint32_t i = 0; i < input.size(); ++i) input[i] = (i * 7u) % 11u;
  std::vector<std::vector<uint32_t>> scanBuffers = {input, std::vector<uint32_t>(4096, 0), std::vector<uint32_t>(64, 0)};
  const uint32_t scanGroups[3] = {8, 1, 1};
  ASSERT_EQ(RunShader(*scan, scanBuffers, w, 4, scanGroups).fault.kind, ShaderFaultKind::None);
  // Each workgroup scans its own block of the input (exclusive), and writes the block's total.
  std::vector<uint32_t> reference = scanBuffers[1];
  auto again = scanBuffers;
  again[1].assign(4096, 0), again[2].assign(64, 0);
  ASSERT_EQ(RunShader(*scan, again, 4, 1, scanGroups).fault.kind, ShaderFaultKind::None);
  EXPECT_EQ(again[1], scanBuffers[1]) << "width " << w << " against width 4 on one thread";
  EXPECT_EQ(again[2], scanBuffers[2]);
  uint32_t blockTotal = 0;
  for (uint32_t v : input) blockTotal += v;
  uint32_t totals = 0;
  for (uint32_t g = 0; g < 8; ++g) totals += scanBuffers[2][g];
  EXPECT_EQ(totals, blockTotal) << "block sums add up to the input's total";
}

INSTANTIATE_TEST_SUITE_P(Widths, SubgroupSizes, ::testing::Values(4u, 8u, 16u, 32u, 64u));

// 64-bit float atomics on buffers and workgroup memory (lavapipe, the differential oracle, has none).
TEST(FloatAtomics, SixtyFourBitAddMinMaxAreExact) {
  auto exe = Build(Own("atomic_float64.comp"));
  ASSERT_NE(exe, nullptr);
  const uint32_t groupsCount = 8, n = 64 * groupsCount;
  std::vector<uint32_t> values(n);
  double sum = 0, low = 1e300, high = -1e300;
  std::vector<double> groupSum(groupsCount, 0), groupHigh(groupsCount, -1e300);
  for (uint32_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(static_cast<int>((i * 7919u) % 1024u) - 512) / 16.0f;
    values[i] = std::bit_cast<uint32_t>(x);
    sum += x, low = std::min<double>(low, x), high = std::max<double>(high, x);
    groupSum[i / 64] += x, groupHigh[i / 64] = std::max<double>(groupHigh[i / 64], x);
  }
  auto words = [](double d) {
    const uint64_t bits = std::bit_cast<uint64_t>(d);
    return std::pair<uint32_t, uint32_t>{static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  };
  std::vector<uint32_t> totals(6 + 4 * groupsCount, 0);
  std::tie(totals[2], totals[3]) = words(1e300);
  std::tie(totals[4], totals[5]) = words(-1e300);
  std::vector<std::vector<uint32_t>> buffers = {totals, values};
  const uint32_t groups[3] = {groupsCount, 1, 1};
  ASSERT_EQ(RunShader(*exe, buffers, 32, 4, groups).fault.kind, ShaderFaultKind::None);
  auto at = [&](size_t word) {
    return std::bit_cast<double>(uint64_t{buffers[0][word]} | (uint64_t{buffers[0][word + 1]} << 32));
  };
  EXPECT_EQ(at(0), sum);
  EXPECT_EQ(at(2), low);
  EXPECT_EQ(at(4), high);
  for (uint32_t g = 0; g < groupsCount; ++g) {
    EXPECT_EQ(at(6 + 4 * g), groupSum[g]) << "workgroup " << g;
    EXPECT_EQ(at(8 + 4 * g), groupHigh[g]) << "workgroup " << g;
  }
}

TEST(Determinism, SameResultsForAnyThreadCount) {
  auto exe = Build(Corpus("nbody.comp"));
  ASSERT_NE(exe, nullptr);
  std::vector<uint32_t> pos(4096), vel(4096);
  for (uint32_t i = 0; i < 4096; ++i) {
    pos[i] = std::bit_cast<uint32_t>(0.5f + static_cast<float>((i * 31) % 101) / 50.0f);
    vel[i] = std::bit_cast<uint32_t>(static_cast<float>((i * 17) % 23) / 23.0f - 0.5f);
  }
  const uint32_t groups[3] = {8, 1, 1};
  const std::vector<uint32_t> push = {1024, std::bit_cast<uint32_t>(0.01f), std::bit_cast<uint32_t>(0.1f)};
  std::vector<std::vector<uint32_t>> one = {pos, vel, std::vector<uint32_t>(4096, 0), std::vector<uint32_t>(4096, 0)};
  auto four = one;
  ASSERT_EQ(RunShader(*exe, one, 32, 1, groups, push).fault.kind, ShaderFaultKind::None);
  ASSERT_EQ(RunShader(*exe, four, 32, 4, groups, push).fault.kind, ShaderFaultKind::None);
  EXPECT_EQ(one, four);
  EXPECT_NE(one[2], std::vector<uint32_t>(4096, 0));
}

}  // namespace
}  // namespace crashtest::execution
