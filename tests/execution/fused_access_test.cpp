// Buffer accesses fused with their address (src/execution/ops/ops_fused_memory.cpp): `x[i]`-shaped loads and
// stores, and loads through pointers fixed before the dispatch (uniform members, push constants). The fast forms
// (one range check per subgroup, one row copied for consecutive lanes) must give exactly what the general per-lane
// path gives: the same values for consecutive, gathered and scattered elements at every subgroup size and with
// subgroups cut short, for buffers and workgroup memory, and the same faults (kind, address, invocation, operation) for an index outside the range.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include <bit>
#include <vector>

#include "interpreter_rig.h"

namespace crashtest::execution {
namespace {

constexpr uint32_t kCount = 100;          // elements processed (params.count)
constexpr uint32_t kLocalSize = 96;   // element_access.comp
constexpr uint32_t kInvocations = 2 * kLocalSize;  // the last 92 invocations return early
constexpr float kScale = 3.0f, kBias = 0.5f;

struct Outcome {
  std::vector<std::vector<uint32_t>> buffers;
  DispatchOutcome outcome;
};

float Value(uint32_t i) { return static_cast<float>(i) * 0.25f - 7.0f; }
uint32_t Perm(uint32_t i) { return (i * 37u + 11u) % kCount; }  // a permutation: 37 is prime to 100

Outcome Dispatch(const Executable& exe, uint32_t width, int32_t shift, OutOfRangeMode mode = OutOfRangeMode::Fault) {
  Outcome run;
  std::vector<uint32_t> values(kCount), perm(kCount);
  for (uint32_t i = 0; i < kCount; ++i) values[i] = std::bit_cast<uint32_t>(Value(i)), perm[i] = Perm(i);
  const uint32_t poison = 0xdeadbeefu;  // what an element nobody writes keeps
  run.buffers = {values,
                 perm,
                 std::vector<uint32_t>(kCount, poison),
                 std::vector<uint32_t>(kCount, poison),
                 std::vector<uint32_t>(kCount / 4, poison),
                 std::vector<uint32_t>(kCount, poison),
                 {std::bit_cast<uint32_t>(kScale), kCount, 0, 0},
                 std::vector<uint32_t>(kCount, poison),
                 std::vector<uint32_t>(kCount, poison)};
  const uint32_t groups[3] = {kInvocations / kLocalSize, 1, 1};
  run.outcome = RunShader(exe, run.buffers, width, 2, groups,
                          {static_cast<uint32_t>(shift), std::bit_cast<uint32_t>(kBias)}, mode);
  return run;
}

float At(const std::vector<uint32_t>& buffer, uint32_t i) { return std::bit_cast<float>(buffer[i]); }

uint16_t SpirvOpOf(const Executable& exe, uint32_t op) { return exe.sites[exe.ops[op].site].spirvOp; }

class FusedAccess : public ::testing::TestWithParam<uint32_t> {};

TEST_P(FusedAccess, ConsecutiveGatheredAndScatteredElementsMatchAScalarReference) {
  auto exe = Build(Own("element_access.comp"));
  ASSERT_NE(exe, nullptr);
  const Outcome run = Dispatch(*exe, GetParam(), 0);
  ASSERT_EQ(run.outcome.fault.kind, ShaderFaultKind::None);
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(At(run.buffers[2], i), Value(i) * kScale + kBias) << "doubled[" << i << "]";
    ASSERT_EQ(At(run.buffers[3], i), Value(Perm(i))) << "gathered[" << i << "]";
    ASSERT_EQ(At(run.buffers[5], i), Value(i)) << "shifted[" << i << "]";
    ASSERT_EQ(run.buffers[7][i], i % kLocalSize + 1000) << "lineRead[" << i << "]";
    ASSERT_EQ(run.buffers[8][i], kLocalSize - 1 - i % kLocalSize + 2000) << "tileRead[" << i << "]";
  }
  for (uint32_t j = 0; j < kCount / 4; ++j) EXPECT_EQ(run.buffers[4][j], 4 * j + 3) << "lastWriter[" << j << "]";
}

TEST_P(FusedAccess, AnIndexBeforeTheRangeFaultsAtItsLoad) {
  auto exe = Build(Own("element_access.comp"));
  ASSERT_NE(exe, nullptr);
  const Outcome run = Dispatch(*exe, GetParam(), -1);
  const ShaderFault& fault = run.outcome.fault;
  ASSERT_EQ(fault.kind, ShaderFaultKind::ReadInvalid);
  EXPECT_EQ(fault.localIndex, 0u);
  EXPECT_EQ(fault.workgroup[0], 0u);
  EXPECT_EQ(SpirvOpOf(*exe, fault.op), spv::OpLoad);
  EXPECT_EQ(fault.address, RigAddress(0) - 4) << std::hex << fault.address;
}

TEST_P(FusedAccess, AnIndexPastTheRangeFaultsAtItsLoad) {
  auto exe = Build(Own("element_access.comp"));
  ASSERT_NE(exe, nullptr);
  const Outcome run = Dispatch(*exe, GetParam(), 1);
  const ShaderFault& fault = run.outcome.fault;
  ASSERT_EQ(fault.kind, ShaderFaultKind::ReadInvalid);
  EXPECT_EQ(fault.workgroup[0] * kLocalSize + fault.localIndex, kCount - 1);
  EXPECT_EQ(SpirvOpOf(*exe, fault.op), spv::OpLoad);
  EXPECT_EQ(fault.address, RigAddress(0) + kCount * 4) << std::hex << fault.address;
}

TEST_P(FusedAccess, RobustAccessReadsZeroOutsideTheRange) {
  auto exe = Build(Own("element_access.comp"));
  ASSERT_NE(exe, nullptr);
  for (int32_t shift : {-1, 1}) {
    const Outcome run = Dispatch(*exe, GetParam(), shift, OutOfRangeMode::Robust);
    ASSERT_EQ(run.outcome.fault.kind, ShaderFaultKind::None);
    for (uint32_t i = 0; i < kCount; ++i) {
      const int64_t source = int64_t{i} + shift;
      const float expected = source < 0 || source >= kCount ? 0.0f : Value(static_cast<uint32_t>(source));
      ASSERT_EQ(At(run.buffers[5], i), expected) << "shifted[" << i << "] with shift " << shift;
      ASSERT_EQ(At(run.buffers[2], i), Value(i) * kScale + kBias);
      // Workgroup memory outside its variable is undefined in SPIR-V: a GPU reads whatever its shared memory holds
      // there. crashtest reads the workgroup's own words, or zero outside them, never the host's memory.
      const int64_t local = int64_t{i % kLocalSize} + shift;
      const uint32_t read = run.buffers[7][i];
      if (local >= 0 && local < kLocalSize) {
        ASSERT_EQ(read, static_cast<uint32_t>(local) + 1000) << "lineRead[" << i << "] with shift " << shift;
      } else {
        const bool own = read == 0 || (read >= 1000 && read < 1000 + kLocalSize) || (read >= 2000 && read < 2000 + kLocalSize);
        ASSERT_TRUE(own) << "lineRead[" << i << "] = " << read << " with shift " << shift;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, FusedAccess, ::testing::Values(4u, 8u, 16u, 32u, 64u));

}  // namespace
}  // namespace crashtest::execution
