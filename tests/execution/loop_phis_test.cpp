// Loop-carried values computed in their phi's slot (src/execution/executable_builder_phis.cpp): the back edge of a
// loop whose values are each updated once copies nothing, and loops where the old value is still needed (a swap,
// a read after the update, a break after it) keep their copies and give the scalar reference's results at every
// subgroup size, with lanes leaving each loop at different iterations.
#include <gtest/gtest.h>

#include <vector>

#include "interpreter_rig.h"

namespace crashtest::execution {
namespace {

constexpr uint32_t kInvocations = 96;  // two workgroups of 48
constexpr uint32_t kLimit = 5000;

std::vector<uint32_t> Reference(uint32_t i) {
  const uint32_t trips = i % 7u + 1u;
  uint32_t acc = i;
  for (uint32_t k = 0; k < trips; ++k) acc = acc * 3u + k;
  uint32_t a = i, b = 1000u;
  for (uint32_t k = 0; k < trips; ++k) {
    const uint32_t t = a;
    a = b;
    b = t + 1u;
  }
  uint32_t p = i + 1u, seen = 0u;
  for (uint32_t k = 0; k < trips; ++k) {
    const uint32_t next = p * 2u + 1u;
    seen += next ^ p;
    p = next;
  }
  uint32_t v = i + 2u;
  for (uint32_t k = 0; k < 40u; ++k) {
    const uint32_t grown = v * 3u + 1u;
    if (grown > kLimit) break;
    v = grown;
  }
  uint32_t outer = i;
  for (uint32_t k = 0; k < trips; ++k) {
    uint32_t inner = outer;
    for (uint32_t j = 0; j <= k; ++j) inner = inner + j * 5u;
    outer = inner ^ k;
  }
  return {acc, a, b, seen, v, outer};
}

class LoopPhis : public ::testing::TestWithParam<uint32_t> {};

TEST_P(LoopPhis, LoopCarriedValuesMatchAScalarReference) {
  auto exe = Build(Own("loop_carried.comp"));
  ASSERT_NE(exe, nullptr);
  std::vector<std::vector<uint32_t>> buffers = {std::vector<uint32_t>(kInvocations * 6, 0)};
  const uint32_t groups[3] = {kInvocations / 48, 1, 1};
  ASSERT_EQ(RunShader(*exe, buffers, GetParam(), 2, groups, {kLimit}).fault.kind, ShaderFaultKind::None);
  const char* names[6] = {"acc", "a", "b", "seen", "v", "outer"};
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const std::vector<uint32_t> expected = Reference(i);
    for (uint32_t k = 0; k < 6; ++k)
      ASSERT_EQ(buffers[0][i * 6 + k], expected[k]) << names[k] << " of invocation " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, LoopPhis, ::testing::Values(4u, 8u, 16u, 32u, 64u));

// The ALU benchmark's loop (bench/shaders/alu.comp): x, y and the counter are each updated once at the end of the
// body, so its back edge copies nothing (three copies of every lane per iteration before).
TEST(LoopPhisShare, ABackEdgeWhoseValuesAreUpdatedOnceCopiesNothing) {
  auto exe = Build(Own("alu.comp"));
  ASSERT_NE(exe, nullptr);
  uint32_t backEdges = 0;
  for (uint32_t b = 0; b < exe->blocks.size(); ++b) {
    const BlockCode& block = exe->blocks[b];
    for (uint32_t e = block.firstEdge; e < block.firstEdge + block.edgeCount; ++e) {
      if (exe->edges[e].target > b) continue;
      ++backEdges;
      EXPECT_EQ(exe->edges[e].copyCount, 0u) << "back edge of block " << b;
    }
  }
  EXPECT_EQ(backEdges, 1u);
}

}  // namespace
}  // namespace crashtest::execution
