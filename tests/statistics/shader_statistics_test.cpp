// Behavioural tests of the statistics on the purpose-built shader families (tests/shaders/stats): within a family
// only one property of the shader varies, and the statistic that measures it must respond the way a real
// compiler's would.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "statistics/representations.h"
#include "statistics/stable_hash.h"
#include "statistics/statistic_table.h"
#include "statistics_fixture.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

using statistics::ShaderStatistics;

const char* const kPressure[] = {"stats_pressure_04.comp.spv", "stats_pressure_16.comp.spv",
                                 "stats_pressure_32.comp.spv", "stats_pressure_64.comp.spv",
                                 "stats_pressure_96.comp.spv", "stats_pressure_160.comp.spv"};
const uint32_t kPressureValues[] = {4, 16, 32, 64, 96, 160};

TEST(RegisterPressure, MoreLiveValuesNeedMoreRegisters) {
  for (const char* device : {"amd-rdna2", "mali-g78", "default"}) {
    uint64_t previousDemand = 0, previousAllocated = 0;
    for (size_t i = 0; i < std::size(kPressure); ++i) {
      ShaderStatistics s = StatsOf(kPressure[i], device);
      SCOPED_TRACE(std::string(device) + " " + kPressure[i]);
      // N loaded values are live at once (the family's promise), so demand is at least N and grows with N.
      EXPECT_GE(s.registerDemand, kPressureValues[i]);
      EXPECT_GT(s.registerDemand, previousDemand);
      EXPECT_GE(s.registersAllocated, previousAllocated);
      EXPECT_EQ(s.registersAllocated % BuiltinModel(device).allocationGranule, 0u);
      EXPECT_LE(s.registersAllocated, (s.registerBudget + BuiltinModel(device).allocationGranule - 1) /
                                          BuiltinModel(device).allocationGranule *
                                          BuiltinModel(device).allocationGranule);
      previousDemand = s.registerDemand;
      previousAllocated = s.registersAllocated;
    }
    EXPECT_GT(StatsOf(kPressure[5], device).registersAllocated, StatsOf(kPressure[0], device).registersAllocated);
  }
}

TEST(RegisterPressure, CrossingTheBudgetSpillsAndLowersOccupancy) {
  // mali-g78: 64 registers per invocation. pressure_16 (about 35 live components) fits; pressure_96 and
  // pressure_160 (each loaded value and its address live together) do not.
  const MachineModel& mali = BuiltinModel("mali-g78");
  ASSERT_EQ(mali.registerBudget, 64u);
  ShaderStatistics fits = StatsOf("stats_pressure_04.comp.spv", "mali-g78");
  ShaderStatistics mid = StatsOf("stats_pressure_16.comp.spv", "mali-g78");
  ShaderStatistics over = StatsOf("stats_pressure_96.comp.spv", "mali-g78");
  ShaderStatistics far = StatsOf("stats_pressure_160.comp.spv", "mali-g78");
  for (const ShaderStatistics* s : {&fits, &mid}) {
    EXPECT_LE(s->registerDemand, 64u);
    EXPECT_FALSE(s->budgetExceeded);
    EXPECT_EQ(s->spills, 0u);
    EXPECT_EQ(s->fills, 0u);
    EXPECT_EQ(s->scratchBytes, 0u);
  }
  for (const ShaderStatistics* s : {&over, &far}) {
    EXPECT_TRUE(s->budgetExceeded);
    EXPECT_GT(s->spills, 0u);
    EXPECT_GT(s->fills, 0u);
    EXPECT_GE(s->scratchBytes, s->spills * 4);
    EXPECT_EQ(s->registersAllocated, 64u);  // capped at the budget: the rest lives in scratch
  }
  // Deeper over the budget: more values spilled.
  EXPECT_GT(far.spills, over.spills);
  // Occupancy: 2048 registers per lane / 64 = 32 subgroups, against 64 for a shader that needs 32 or fewer.
  EXPECT_EQ(fits.subgroupsPerCore, 64u);
  EXPECT_LT(over.subgroupsPerCore, fits.subgroupsPerCore);
  EXPECT_EQ(over.occupancyLimit, statistics::OccupancyLimit::Registers);
  // The same model with a budget that fits: no spills, and the spills' memory round trips leave the estimate.
  MachineModel roomy = mali;
  roomy.registerBudget = 256;
  pipeline::CompiledShader compiled = CompileCorpus("stats_pressure_96.comp.spv");
  ShaderStatistics noSpill = statistics::ComputeStatistics(compiled, roomy, VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(noSpill.spills, 0u);
  EXPECT_EQ(noSpill.scratchBytes, 0u);
  EXPECT_EQ(noSpill.instructions, over.instructions);
  EXPECT_EQ(over.estimatedCycles - noSpill.estimatedCycles, (over.spills + over.fills) * mali.latency.memory);
  EXPECT_GT(noSpill.registersAllocated, over.registersAllocated);
}

TEST(RegisterPressure, SpillsStayOutOfLoopsWherePossible) {
  // spill_loop: 96 values loaded before a loop, used only after it; the loop itself needs few registers. On the
  // 64-register mali-g78 they are spilled at their definitions before the loop and reloaded after it.
  ShaderStatistics s = StatsOf("stats_spill_loop.comp.spv", "mali-g78");
  ASSERT_EQ(s.loops, 1u);
  EXPECT_TRUE(s.budgetExceeded);
  EXPECT_GT(s.spills, 0u);
  EXPECT_GT(s.fills, 0u);
  EXPECT_EQ(s.spilling.spillsInLoops, 0u);
  EXPECT_EQ(s.spilling.fillsInLoops, 0u);
  // So the loop's trip count does not multiply any spill cost: the cycles exceed the spill-free model's by
  // exactly one memory round trip per spill and fill.
  MachineModel roomy = BuiltinModel("mali-g78");
  roomy.registerBudget = 256;
  ShaderStatistics free = statistics::ComputeStatistics(CompileCorpus("stats_spill_loop.comp.spv"), roomy,
                                                        VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(s.estimatedCycles - free.estimatedCycles,
            (s.spills + s.fills) * BuiltinModel("mali-g78").latency.memory);
  // Values used inside a loop cannot avoid it: compare_after's 256 accumulators live across and in its k loop.
  ShaderStatistics tile = StatsOf("stats_compare_after.comp.spv", "mali-g78");
  EXPECT_GT(tile.spilling.fillsInLoops, 0u);
  EXPECT_EQ(StatsOf("stats_compare_before.comp.spv", "mali-g78").spills, 0u);
}

TEST(SharedMemory, EqualsTheDeclaredWorkgroupArrays) {
  EXPECT_EQ(StatsOf("stats_shared_1k.comp.spv", "default").workgroupMemoryBytes, 1024u);
  EXPECT_EQ(StatsOf("stats_shared_4k.comp.spv", "default").workgroupMemoryBytes, 4096u);
  EXPECT_EQ(StatsOf("stats_shared_16k.comp.spv", "default").workgroupMemoryBytes, 16384u);
  // Nested arrays: matmul_tiled declares two float[16][17] tiles (padded against bank conflicts), 1088 bytes each.
  EXPECT_EQ(StatsOf("matmul_tiled.comp.spv", "default").workgroupMemoryBytes, 2u * 16u * 17u * 4u);
  EXPECT_EQ(StatsOf("shared_transpose.comp.spv", "default").workgroupMemoryBytes, 32u * 33u * 4u);
  EXPECT_EQ(StatsOf("stats_loop_none.comp.spv", "default").workgroupMemoryBytes, 0u);
}

TEST(SharedMemory, LimitsOccupancy) {
  // mali-g78 has 32 KiB of workgroup memory per core: two 16 KiB workgroups of 256 invocations, 16 subgroups of
  // 16 each, so 32 subgroups; 1 KiB workgroups are limited by the hardware cap instead.
  ShaderStatistics big = StatsOf("stats_shared_16k.comp.spv", "mali-g78");
  EXPECT_EQ(big.workgroupInvocations, 256u);
  EXPECT_EQ(big.occupancyLimit, statistics::OccupancyLimit::SharedMemory);
  EXPECT_EQ(big.subgroupsPerCore, 32768u / 16384u * (256u / 16u));
  ShaderStatistics small = StatsOf("stats_shared_1k.comp.spv", "mali-g78");
  EXPECT_GT(small.subgroupsPerCore, big.subgroupsPerCore);
}

TEST(Loops, TripCountMultipliesTheCycleEstimate) {
  for (const char* device : {"amd-rdna2", "mali-g78"}) {
    SCOPED_TRACE(device);
    ShaderStatistics none = StatsOf("stats_loop_none.comp.spv", device);
    ShaderStatistics eight = StatsOf("stats_loop_8.comp.spv", device);
    ShaderStatistics sixtyFour = StatsOf("stats_loop_64.comp.spv", device);
    EXPECT_EQ(none.loops, 0u);
    EXPECT_EQ(eight.loops, 1u);
    EXPECT_EQ(sixtyFour.loops, 1u);
    // The same code (only the bound differs): same instruction count, cycles scale with the trip count.
    EXPECT_EQ(eight.instructions, sixtyFour.instructions);
    ASSERT_GT(sixtyFour.estimatedCycles, eight.estimatedCycles);
    uint64_t perIteration = (sixtyFour.estimatedCycles - eight.estimatedCycles) / 56;
    EXPECT_EQ((sixtyFour.estimatedCycles - eight.estimatedCycles) % 56, 0u);
    EXPECT_GT(perIteration, 0u);
    // Eight runs of the loop body cost more than seven extra bodies over the loop-free shader.
    EXPECT_GT(eight.estimatedCycles, none.estimatedCycles + 7 * perIteration / 2);
    EXPECT_GT(sixtyFour.estimatedCycles, eight.estimatedCycles + 50 * perIteration);
  }
}

TEST(Devices, MobileAndDesktopModelsDiffer) {
  for (const char* file : {"stats_pressure_96.comp.spv", "matmul_tiled.comp.spv", "stats_loop_8.comp.spv"}) {
    SCOPED_TRACE(file);
    ShaderStatistics mali = StatsOf(file, "mali-g78");
    ShaderStatistics amd = StatsOf(file, "amd-rdna2");
    // The IR is the same: IR instruction counts and code size do not depend on the device; machine instructions
    // only grow where amd-rdna2 unrolls a loop (matmul_tiled's tile loop) and mali-g78 does not; the vector
    // register demand differs (amd-rdna2 keeps uniform values in scalar registers, mali-g78 has none), never
    // upwards.
    EXPECT_EQ(mali.irInstructions, amd.irInstructions);
    EXPECT_GE(amd.instructions, mali.instructions);
    EXPECT_LE(amd.registerDemand, mali.registerDemand);
    EXPECT_EQ(mali.scalarRegisterDemand, 0u);
    EXPECT_EQ(mali.codeSizeBytes, amd.codeSizeBytes);
    // What the models decide differs: subgroup size, allocation granule, latencies, hash.
    EXPECT_EQ(mali.subgroupSize, 16u);
    EXPECT_EQ(amd.subgroupSize, 64u);
    EXPECT_NE(mali.estimatedCycles, amd.estimatedCycles);
    EXPECT_NE(mali.hash, amd.hash);
    EXPECT_EQ(mali.registersAllocated % 32, 0u);
    EXPECT_EQ(amd.registersAllocated % 8, 0u);
  }
  EXPECT_GT(StatsOf("stats_pressure_96.comp.spv", "mali-g78").spills, 0u);
  EXPECT_EQ(StatsOf("stats_pressure_96.comp.spv", "amd-rdna2").spills, 0u);
}

void ExpectSameStatistics(const ShaderStatistics& a, const ShaderStatistics& b) {
  auto la = statistics::ListStatistics(a);
  auto lb = statistics::ListStatistics(b);
  ASSERT_EQ(la.size(), lb.size());
  for (size_t i = 0; i < la.size(); ++i) {
    EXPECT_EQ(la[i].descriptor, lb[i].descriptor);
    EXPECT_EQ(la[i].value.u64, lb[i].value.u64) << la[i].descriptor->name;
  }
}

TEST(Determinism, IdenticalSpirvGivesIdenticalStatistics) {
  ASSERT_EQ(CorpusWords("stats_identical_a.comp.spv"), CorpusWords("stats_identical_b.comp.spv"));
  for (const char* device : {"default", "mali-g78", "amd-rdna2", "intel-xe-igpu", "nvidia-hopper"}) {
    SCOPED_TRACE(device);
    pipeline::CompiledShader a = CompileCorpus("stats_identical_a.comp.spv");
    pipeline::CompiledShader b = CompileCorpus("stats_identical_b.comp.spv");
    ShaderStatistics sa = statistics::ComputeStatistics(a, BuiltinModel(device), VK_SHADER_STAGE_COMPUTE_BIT);
    ShaderStatistics sb = statistics::ComputeStatistics(b, BuiltinModel(device), VK_SHADER_STAGE_COMPUTE_BIT);
    ExpectSameStatistics(sa, sb);
    EXPECT_EQ(statistics::AnnotatedIrListing(a, BuiltinModel(device), sa),
              statistics::AnnotatedIrListing(b, BuiltinModel(device), sb));
    EXPECT_EQ(statistics::DisassembleSpirv(a.optimizedSpirv), statistics::DisassembleSpirv(b.optimizedSpirv));
  }
  // Spilling shaders too: the simulation is deterministic.
  ExpectSameStatistics(StatsOf("stats_compare_after.comp.spv", "mali-g78"),
                       StatsOf("stats_compare_after.comp.spv", "mali-g78"));
}

TEST(Determinism, DifferentShadersHashDifferently) {
  EXPECT_NE(StatsOf("stats_loop_8.comp.spv", "default").hash, StatsOf("stats_loop_64.comp.spv", "default").hash);
}

TEST(Determinism, EveryInputBitReachesTheLow32BitsOfTheHash) {
  // The radv dialect's "Hash" is the low 32 bits: a change in any bit of any word, and a word more or less, must
  // show there. Values fixed by the algorithm: the same on every run, build and machine.
  auto hashOf = [](std::vector<uint32_t> words) {
    statistics::StableHash hash;
    hash.Add(words);
    return hash.Value();
  };
  const std::vector<uint32_t> base = {0x07230203u, 0x00010600u, 0u, 42u, 7u};
  const uint64_t reference = hashOf(base);
  std::set<uint32_t> low = {static_cast<uint32_t>(reference)};
  for (size_t w = 0; w < base.size(); ++w)
    for (int bit = 0; bit < 32; ++bit) {
      std::vector<uint32_t> changed = base;
      changed[w] ^= 1u << bit;
      low.insert(static_cast<uint32_t>(hashOf(changed)));
    }
  EXPECT_EQ(low.size(), 1u + base.size() * 32u);
  std::vector<uint32_t> longer = base;
  longer.push_back(0u);
  EXPECT_NE(static_cast<uint32_t>(hashOf(longer)), static_cast<uint32_t>(reference));
  EXPECT_NE(hashOf({}), hashOf({0u}));
  EXPECT_EQ(hashOf(base), reference);
}

class CorpusStatistics : public ::testing::TestWithParam<CorpusShader> {};

TEST_P(CorpusStatistics, ConsistentOnEveryDevice) {
  const CorpusShader& shader = GetParam();
  VkShaderStageFlagBits stage = StageBit(shader.stage);
  pipeline::CompiledShader compiled = CompileCorpus(shader.file, stage);
  for (const char* device : {"default", "mali-g78", "amd-rdna2", "intel-xe-igpu", "nvidia-hopper"}) {
    SCOPED_TRACE(device);
    const MachineModel& model = BuiltinModel(device);
    ShaderStatistics s = statistics::ComputeStatistics(compiled, model, stage);
    // The statistics describe the back end's view of the shader when it has one (back_end_view.h).
    const pipeline::CompiledShader& seen = s.backEndView != nullptr ? *s.backEndView : compiled;
    uint64_t sum = 0;
    for (uint64_t n : s.instructionsByClass) sum += n;
    EXPECT_EQ(sum, s.instructions);
    EXPECT_EQ(s.irInstructions, seen.module.InstructionCount());
    // Every conditional branch and switch is a machine instruction; fall-through branches and returns are not.
    EXPECT_GE(InstructionsOfClass(s, statistics::InstructionClass::ControlFlow), s.branches);
    EXPECT_LE(InstructionsOfClass(s, statistics::InstructionClass::ControlFlow), s.irInstructions);
    EXPECT_EQ(s.codeSizeBytes, seen.module.EncodedSizeBytes());
    // Vector demand: every live value without a scalar unit, fewer with one; arrays kept in registers and outputs
    // held for the export on top.
    if (model.scalarRegisterBudget == 0 && s.arrayRegisters == 0 && s.heldOutputRegisters == 0) {
      EXPECT_EQ(s.registerDemand, seen.liveness.MaxLiveComponents());
    }
    EXPECT_GE(s.registerDemand, s.heldOutputRegisters);
    EXPECT_LE(s.registerDemand, seen.liveness.MaxLiveComponents() + s.arrayRegisters + s.heldOutputRegisters +
                                    s.temporaryRegisters);
    // Compute stages have no outputs to hold.
    if (stage == VK_SHADER_STAGE_COMPUTE_BIT) {
      EXPECT_EQ(s.heldOutputRegisters, 0u);
    }
    if (model.scalarRegisterBudget == 0) {
      EXPECT_EQ(s.scalarInstructions, 0u);
      EXPECT_EQ(s.scalarRegisters, 0u);
      EXPECT_EQ(s.scalarRegisterDemand, 0u);
    } else {
      EXPECT_GT(s.scalarRegisters, 0u);
      EXPECT_EQ(s.scalarRegisters % model.scalarAllocationGranule, 0u);
    }
    EXPECT_EQ(s.scalarInstructions + s.vectorInstructions, s.instructions);
    EXPECT_LE(s.divergentBranches, s.branches);
    EXPECT_EQ(s.budgetExceeded, s.registerDemand > model.registerBudget || s.spills > 0);
    EXPECT_EQ(s.spills > 0, s.budgetExceeded);
    if (s.spills == 0) {
      EXPECT_EQ(s.fills, 0u);
    }
    EXPECT_GT(s.registersAllocated, 0u);
    EXPECT_EQ(s.registersAllocated % model.allocationGranule, 0u);
    EXPECT_GT(s.subgroupsPerCore, 0u);
    EXPECT_LE(s.subgroupsPerCore, model.maxSubgroupsPerCore);
    EXPECT_GT(s.estimatedCycles, 0u);
    EXPECT_EQ(s.loops, seen.loops.loops().size());

    // The statistics as the extension lists them: names unique and non-empty, descriptions fit, BOOL32 is 0/1.
    std::set<std::string_view> names;
    for (const statistics::StatisticValue& v : statistics::ListStatistics(s, StatisticDialect::Crashtest)) {
      EXPECT_TRUE(names.insert(v.descriptor->name).second) << v.descriptor->name;
      EXPECT_FALSE(v.descriptor->description.empty());
      EXPECT_LT(v.descriptor->description.size(), size_t{VK_MAX_DESCRIPTION_SIZE});
      if (v.descriptor->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR) {
        EXPECT_TRUE(v.value.b32 == VK_TRUE || v.value.b32 == VK_FALSE);
      }
    }
    EXPECT_EQ(names.contains("Workgroup memory size"), stage == VK_SHADER_STAGE_COMPUTE_BIT);
    // Every dialect lists unique names with descriptions that fit.
    for (StatisticDialect dialect :
         {StatisticDialect::Crashtest, StatisticDialect::Radv, StatisticDialect::Nvidia, StatisticDialect::Anv}) {
      std::set<std::string_view> dialectNames;
      for (const statistics::StatisticValue& v : statistics::ListStatistics(s, dialect)) {
        EXPECT_TRUE(dialectNames.insert(v.descriptor->name).second) << v.descriptor->name;
        EXPECT_LT(v.descriptor->description.size(), size_t{VK_MAX_DESCRIPTION_SIZE});
      }
    }
  }
}

std::string ShaderName(const ::testing::TestParamInfo<CorpusShader>& info) { return CorpusTestName(info.param); }

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusStatistics, ::testing::ValuesIn(ReadCorpus()), ShaderName);

TEST(Uniformity, AUniformLoopOverPushConstantsAddsScalarNotVectorRegisters) {
  for (const char* device : {"amd-rdna2", "nvidia-hopper"}) {
    SCOPED_TRACE(device);
    ShaderStatistics base = StatsOf("stats_uniform_none.comp.spv", device);
    ShaderStatistics loop = StatsOf("stats_uniform_loop.comp.spv", device);
    EXPECT_EQ(loop.loops, 1u);
    EXPECT_EQ(loop.divergentBranches, 0u);
    EXPECT_EQ(loop.registerDemand, base.registerDemand);
    EXPECT_EQ(loop.registersAllocated, base.registersAllocated);
    EXPECT_GT(loop.scalarRegisterDemand, base.scalarRegisterDemand);
    // The loop's work is scalar (the per-block CSE may recompute one vector address after the loop).
    EXPECT_GT(loop.scalarInstructions - base.scalarInstructions,
              3 * (loop.vectorInstructions - base.vectorInstructions));
  }
  // Without a scalar unit (mali-g78) the same loop's values take vector registers.
  ShaderStatistics base = StatsOf("stats_uniform_none.comp.spv", "mali-g78");
  ShaderStatistics loop = StatsOf("stats_uniform_loop.comp.spv", "mali-g78");
  EXPECT_GT(loop.registerDemand, base.registerDemand);
  EXPECT_EQ(loop.scalarRegisterDemand, 0u);
}

// bitonic_sort.comp loads two {key, value} pairs, compares their keys and stores the pairs back swapped. A key
// extracted while its pair is still live is the pair's own register (ACO's sub-register views), so the vector
// demand is the two pairs (4), their two offset registers, the invocation index and the comparison's operand:
// 8, as RADV allocates, not 9 or more with the keys counted twice.
TEST(RegisterPressure, AComponentReadWhileItsCompositeLivesTakesNoRegisterOfItsOwn) {
  ShaderStatistics stats = StatsOf("bitonic_sort.comp.spv", "amd-rdna2");
  EXPECT_LE(stats.registerDemand, 8u);
  EXPECT_EQ(stats.registersAllocated, 8u);
}

TEST(Uniformity, DivergentBranchesAreCounted) {
  // stream_compaction keeps the elements a per-invocation predicate selects: its branch on that predicate
  // diverges; mandelbrot's escape loop exits when each invocation's own point escapes.
  EXPECT_GT(StatsOf("stream_compaction.comp.spv", "amd-rdna2").divergentBranches, 0u);
  EXPECT_GT(StatsOf("mandelbrot.comp.spv", "amd-rdna2").divergentBranches, 0u);
  EXPECT_EQ(StatsOf("stats_loop_64.comp.spv", "amd-rdna2").divergentBranches, 0u);
}

TEST(PrivateArrays, ASmallDynamicallyIndexedArrayStaysInRegistersUpToTheModelsLimit) {
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.privateArrayRegisterLimit, 64u);
  ShaderStatistics inRegisters = StatsOf("stats_array_48.comp.spv", "amd-rdna2");
  EXPECT_EQ(inRegisters.scratchBytes, 0u);
  EXPECT_EQ(inRegisters.arrayRegisters, 48u);
  EXPECT_GE(inRegisters.registerDemand, 48u);
  EXPECT_EQ(inRegisters.spills, 0u);
  // Beyond the limit: scratch, and no registers for it.
  ShaderStatistics beyond = StatsOf("stats_array_96.comp.spv", "amd-rdna2");
  EXPECT_EQ(beyond.scratchBytes, 96u * 4u);
  EXPECT_EQ(beyond.arrayRegisters, 0u);
  EXPECT_LT(beyond.registerDemand, 48u);
  // The same 48 floats on a model whose limit is smaller: scratch.
  MachineModel small = amd;
  small.privateArrayRegisterLimit = 32;
  ShaderStatistics scratch = statistics::ComputeStatistics(CompileCorpus("stats_array_48.comp.spv"), small,
                                                           VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(scratch.scratchBytes, 48u * 4u);
  EXPECT_EQ(scratch.arrayRegisters, 0u);
  EXPECT_LT(scratch.registerDemand, inRegisters.registerDemand);
  // An array in registers pins them: with a budget that cannot hold array and values, the values spill.
  MachineModel tight = amd;
  tight.registerBudget = 50;
  ShaderStatistics spilled = statistics::ComputeStatistics(CompileCorpus("stats_array_48.comp.spv"), tight,
                                                           VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_TRUE(spilled.budgetExceeded);
  EXPECT_GT(spilled.spills, 0u);
}

TEST(BackEndView, WhatOnlyAProductWithZeroUsesIsDeadAsTheBackEndSeesIt) {
  // zero_product keeps its `history` loop and array alive only through `peak * 0.0`: a back end folds the product
  // (Vulkan need not preserve NaN and infinities) and drops them. RADV (navi21): 8 VGPRs, and 24 with
  // SignedZeroInfNanPreserve 32 (zero_product_preserve), where the 16 floats and the loop stay.
  ShaderStatistics folded = StatsOf("stats_zero_product.comp.spv", "amd-rdna2");
  ShaderStatistics kept = StatsOf("stats_zero_product_preserve.comp.spv", "amd-rdna2");
  ASSERT_NE(folded.backEndView, nullptr);
  EXPECT_EQ(kept.backEndView, nullptr);
  EXPECT_EQ(folded.arrayRegisters, 0u);
  EXPECT_EQ(kept.arrayRegisters, 16u);
  EXPECT_LE(folded.registersAllocated, 8u);
  EXPECT_GE(kept.registersAllocated, 24u);
  EXPECT_LT(folded.instructions * 2, kept.instructions);
  // The executed IR is not changed: the product is still there (NaN * 0.0 is NaN when crashtest runs it).
  const pipeline::CompiledShader compiled = CompileCorpus("stats_zero_product.comp.spv");
  size_t products = 0;
  for (const ir::Block& block : compiled.module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) products += inst.op == spv::OpFMul;
  EXPECT_GT(products, 0u);
  // The listing shows the IR the statistics describe: without the array.
  const std::string listing = statistics::AnnotatedIrListing(compiled, BuiltinModel("amd-rdna2"), folded);
  EXPECT_EQ(listing.find("[16 x f32]"), std::string::npos) << listing;
  EXPECT_NE(statistics::AnnotatedIrListing(CompileCorpus("stats_zero_product_preserve.comp.spv"),
                                           BuiltinModel("amd-rdna2"), kept)
                .find("[16 x f32]"),
            std::string::npos);
}

TEST(LoadScheduling, LoadsOfMemoryTheShaderNeverWritesClimbAboveTheStores) {
  // Eight vec4 loads, each followed by a store of its result. From a buffer the shader never writes, every load
  // climbs above the stores before it and all are in flight together (RADV: 32 VGPRs); from one it also writes,
  // a load may alias the stores before it and keeps its place (RADV: 16).
  ShaderStatistics readonly = StatsOf("stats_loads_readonly.comp.spv", "amd-rdna2");
  ShaderStatistics written = StatsOf("stats_loads_written.comp.spv", "amd-rdna2");
  EXPECT_EQ(readonly.registersAllocated, 32u);
  EXPECT_LE(written.registersAllocated, 16u);
  EXPECT_GE(readonly.scheduledRegisterDemand, written.scheduledRegisterDemand + 16u);
  // The unscheduled demand is the same: only the order differs.
  EXPECT_EQ(readonly.registerDemand, written.registerDemand);
}

TEST(LoadScheduling, LoadsKeptInFlightTakeRegistersUpToTheSchedulersCeiling) {
  // texel_buffers.comp fetches two texels per channel in a loop of four that the back end unrolls; its scheduler
  // issues each fetch as soon as its coordinates are ready, so the fetched values are live together (RADV: 10
  // VGPRs of demand before its scheduler, 32 after). The unscheduled demand is the same with and without it.
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.loadSchedulingRegisters, 30u);
  const pipeline::CompiledShader shader = CompileCorpus("texel_buffers.comp.spv");
  ShaderStatistics scheduled = statistics::ComputeStatistics(shader, amd, VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_GT(scheduled.scheduledMoves, 0u);
  EXPECT_GT(scheduled.scheduledRegisterDemand, scheduled.registerDemand);
  EXPECT_LE(scheduled.scheduledRegisterDemand, 30u);
  EXPECT_EQ(scheduled.registersAllocated, 32u);
  MachineModel unscheduled = amd;
  unscheduled.loadSchedulingRegisters = 0;
  ShaderStatistics plain = statistics::ComputeStatistics(shader, unscheduled, VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(plain.registerDemand, scheduled.registerDemand);
  EXPECT_EQ(plain.scheduledRegisterDemand, plain.registerDemand);
  EXPECT_EQ(plain.registersAllocated, 16u);
  // The ceiling bounds the growth: at the demand itself nothing may grow.
  MachineModel tight = amd;
  tight.loadSchedulingRegisters = static_cast<uint32_t>(scheduled.registerDemand);
  EXPECT_EQ(statistics::ComputeStatistics(shader, tight, VK_SHADER_STAGE_COMPUTE_BIT).scheduledRegisterDemand,
            scheduled.registerDemand);
  // A shader whose loads already sit where their operands are ready has nothing to gain.
  ShaderStatistics saxpy = StatsOf("saxpy.comp.spv", "amd-rdna2");
  EXPECT_EQ(saxpy.scheduledRegisterDemand, saxpy.registerDemand);
  // Unrolled loops: every iteration's independent loads are in flight together, up to the ceiling. The 96
  // loads of stats_array_96's first loop fill it (RADV: 32); spec_constants' seven taps add seven (RADV: 8).
  ShaderStatistics array96 = StatsOf("stats_array_96.comp.spv", "amd-rdna2");
  EXPECT_EQ(array96.scheduledRegisterDemand, 30u);
  EXPECT_EQ(array96.registersAllocated, 32u);
  EXPECT_EQ(statistics::ComputeStatistics(CompileCorpus("stats_array_96.comp.spv"), unscheduled,
                                          VK_SHADER_STAGE_COMPUTE_BIT).registersAllocated, 8u);
  ShaderStatistics taps = StatsOf("spec_constants.comp.spv", "amd-rdna2");
  EXPECT_GT(taps.scheduledRegisterDemand, taps.registerDemand);
  EXPECT_EQ(taps.registersAllocated, 8u);
  // Models without a scheduler ceiling are unchanged.
  EXPECT_EQ(StatsOf("texel_buffers.comp.spv", "mali-g78").scheduledRegisterDemand,
            StatsOf("texel_buffers.comp.spv", "mali-g78").registerDemand);
}

TEST(PrivateArrays, AnArrayOfConstantsIsConstantDataNotRegistersOrScratch) {
  // alpha_test.frag indexes `const uint bayer[16]` dynamically: the back end moves it into the shader's constant
  // data (NIR's nir_opt_large_constants), whatever the model's array limit.
  ShaderStatistics amd = StatsOf("alpha_test.frag.spv", "amd-rdna2", VK_SHADER_STAGE_FRAGMENT_BIT);
  EXPECT_EQ(amd.arrayRegisters, 0u);
  EXPECT_EQ(amd.scratchBytes, 0u);
  MachineModel noArrays = BuiltinModel("amd-rdna2");
  noArrays.privateArrayRegisterLimit = 0;
  ShaderStatistics none = statistics::ComputeStatistics(CompileCorpus("alpha_test.frag.spv", VK_SHADER_STAGE_FRAGMENT_BIT), noArrays,
                                                        VK_SHADER_STAGE_FRAGMENT_BIT);
  EXPECT_EQ(none.scratchBytes, 0u);
  // An array the shader writes with computed values is not constant: stats_array_48 stays in registers.
  EXPECT_EQ(StatsOf("stats_array_48.comp.spv", "amd-rdna2").arrayRegisters, 48u);
}

TEST(Unrolling, CountedLoopsUnrollAsTheBackEndDoes) {
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.loopUnrollIterations, 32u);
  ASSERT_EQ(amd.loopUnrollIterationsForLoads, 128u);
  MachineModel noUnroll = amd;
  noUnroll.loopUnrollIterations = 0;
  auto with = [&](const char* file, const MachineModel& model) {
    return statistics::ComputeStatistics(CompileCorpus(file), model, VK_SHADER_STAGE_COMPUTE_BIT);
  };
  // spec_constants: a 7-tap loop with constant bounds is unrolled: no branch left, the body once per tap, and the
  // tap weight 1/(1+|k|), computed from the counter alone, folds into constants.
  ShaderStatistics unrolled = with("spec_constants.comp.spv", amd), rolled = with("spec_constants.comp.spv", noUnroll);
  EXPECT_EQ(rolled.branches, 1u);
  EXPECT_EQ(unrolled.branches, 0u);
  EXPECT_EQ(unrolled.unrolledLoops, 1u);
  EXPECT_GT(unrolled.instructions, rolled.instructions);
  EXPECT_EQ(unrolled.estimatedCycles, rolled.estimatedCycles);  // the cycle estimate already ran every iteration
  // [[dont_unroll]] is obeyed.
  EXPECT_EQ(with("stats_loop_8.comp.spv", amd).instructions, with("stats_loop_8.comp.spv", noUnroll).instructions);
  EXPECT_EQ(with("stats_loop_8.comp.spv", amd).unrolledLoops, 0u);
  // stats_array_48's 48-iteration loop loads a buffer and indexes its array with the counter: unrolled beyond 32
  // iterations (48 loads, at least).
  ShaderStatistics array = with("stats_array_48.comp.spv", amd);
  EXPECT_EQ(array.unrolledLoops, 1u);
  EXPECT_GE(array.instructions, with("stats_array_48.comp.spv", noUnroll).instructions + 47u * 2u);
}

TEST(Dialects, EachDialectNamesWhatItsDriverNames) {
  auto names = [](StatisticDialect d, VkShaderStageFlagBits stage) {
    ShaderStatistics s;
    s.stage = stage;
    std::vector<std::string> out;
    for (const statistics::StatisticValue& v : statistics::ListStatistics(s, d)) out.emplace_back(v.descriptor->name);
    return out;
  };
  EXPECT_EQ(names(StatisticDialect::Radv, VK_SHADER_STAGE_COMPUTE_BIT),
            (std::vector<std::string>{"Driver pipeline hash", "SGPRs", "VGPRs", "Spilled SGPRs", "Spilled VGPRs",
                                      "Code size", "LDS size", "Scratch size", "Subgroups per SIMD", "Hash",
                                      "Instructions", "Copies", "Branches", "Latency", "Inverse Throughput",
                                      "VMEM Clause", "SMEM Clause", "Pre-Sched SGPRs", "Pre-Sched VGPRs"}));
  EXPECT_EQ(names(StatisticDialect::Nvidia, VK_SHADER_STAGE_COMPUTE_BIT),
            (std::vector<std::string>{"Register Count", "Binary Size", "Stack Size", "Local Memory Size",
                                      "Shared Memory Size"}));
  EXPECT_EQ(names(StatisticDialect::Nvidia, VK_SHADER_STAGE_FRAGMENT_BIT).size(), 4u);
  EXPECT_EQ(names(StatisticDialect::Anv, VK_SHADER_STAGE_COMPUTE_BIT),
            (std::vector<std::string>{"Instruction Count", "SEND Count", "Loop Count", "Cycle Count", "Spill Count",
                                      "Fill Count", "Scratch Memory Size", "Workgroup Memory Size"}));
  // The device's dialect is the default; the figures behind the names are the same model's.
  ShaderStatistics amd = StatsOf("stats_array_96.comp.spv", "amd-rdna2");
  EXPECT_EQ(amd.dialect, StatisticDialect::Radv);
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "nvidia-hopper").dialect, StatisticDialect::Nvidia);
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "intel-xe-igpu").dialect, StatisticDialect::Anv);
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "mali-g78").dialect, StatisticDialect::Crashtest);
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "default").dialect, StatisticDialect::Crashtest);
  auto value = [](const ShaderStatistics& s, StatisticDialect d, std::string_view key) {
    return statistics::FindStatistic(key, d)->value(s);
  };
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "scratchSize"), amd.scratchBytes * 64);  // per wave64
  EXPECT_EQ(value(amd, StatisticDialect::Crashtest, "scratchSize"), amd.scratchBytes);  // per invocation
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "vgprs"), amd.registersAllocated);
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "sgprs"), amd.scalarRegisters);
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "subgroupsPerSimd"), amd.subgroupsPerCore / 2);
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "sgprs"), 128u);  // RDNA gives every wave a fixed SGPR block
  EXPECT_EQ(value(amd, StatisticDialect::Radv, "preSchedVgprs"), amd.registerDemand);
  EXPECT_EQ(ListStatistics(amd).front().descriptor->name, "Driver pipeline hash");
}

TEST(Representations, ExplainTheNumbers) {
  pipeline::CompiledShader compiled = CompileCorpus("stats_pressure_96.comp.spv");
  const MachineModel& mali = BuiltinModel("mali-g78");
  ShaderStatistics s = statistics::ComputeStatistics(compiled, mali, VK_SHADER_STAGE_COMPUTE_BIT);
  std::string listing = statistics::AnnotatedIrListing(compiled, mali, s);
  EXPECT_NE(listing.find("; register demand " + std::to_string(s.registerDemand)), std::string::npos);
  EXPECT_NE(listing.find("budget 64"), std::string::npos);
  EXPECT_NE(listing.find("spill %"), std::string::npos);
  EXPECT_NE(listing.find("fill  %"), std::string::npos);
  EXPECT_NE(listing.find("; live "), std::string::npos);
  EXPECT_NE(listing.find("limited by registers"), std::string::npos);
  std::string spirv = statistics::DisassembleSpirv(compiled.optimizedSpirv);
  EXPECT_NE(spirv.find("OpEntryPoint GLCompute"), std::string::npos);
  EXPECT_NE(statistics::DisassembleSpirv({}).find("disassembly failed"), std::string::npos);
}

TEST(StageInterface, OutputsAreHeldInRegistersUntilTheExportAtTheEnd) {
  // gbuffer.frag writes its four colour outputs one after another; the back end exports them together at the end
  // (NIR's outputs-to-temporaries, ACO's exports in the last block), so all twelve non-constant output components
  // (albedo 4, normal 2, ids 4, gl_FragCoord.zw 2; the constant 0.0 and 1.0 are not held) are live at the end
  // (RADV: 16 VGPRs). Without the export model the demand was 6 and the registers 8.
  ShaderStatistics amd = StatsOf("gbuffer.frag.spv", "amd-rdna2", VK_SHADER_STAGE_FRAGMENT_BIT);
  EXPECT_EQ(amd.heldOutputRegisters, 12u);
  EXPECT_GE(amd.registerDemand, 12u);
  EXPECT_EQ(amd.registersAllocated, 16u);
  // Every model's back end exports at the end: the same outputs are held on the others.
  EXPECT_EQ(StatsOf("gbuffer.frag.spv", "mali-g78", VK_SHADER_STAGE_FRAGMENT_BIT).heldOutputRegisters, 12u);
  // A shader that computes its outputs last holds nothing beyond its liveness: alpha_test.frag (RADV: 8).
  ShaderStatistics last = StatsOf("alpha_test.frag.spv", "amd-rdna2", VK_SHADER_STAGE_FRAGMENT_BIT);
  EXPECT_EQ(last.registersAllocated, 8u);
  // Compute shaders have no exports.
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "amd-rdna2").heldOutputRegisters, 0u);
}

TEST(StageInterface, VertexStageWavesAllocateTheRegistersTheHardwareInitialises) {
  // An NGG wave on RDNA2 starts with 9 VGPRs the hardware fills (vertex indices, primitive and instance ids):
  // fullscreen_triangle.vert needs fewer for its own values but is given 16 (RADV: 16).
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.vertexStageInputRegisters, 9u);
  const pipeline::CompiledShader shader = CompileCorpus("fullscreen_triangle.vert.spv", VK_SHADER_STAGE_VERTEX_BIT);
  ShaderStatistics s = statistics::ComputeStatistics(shader, amd, VK_SHADER_STAGE_VERTEX_BIT);
  EXPECT_LT(s.scheduledRegisterDemand, 9u);
  EXPECT_EQ(s.inputRegisters, 9u);
  EXPECT_EQ(s.registersAllocated, 16u);
  MachineModel without = amd;
  without.vertexStageInputRegisters = 0;
  EXPECT_EQ(statistics::ComputeStatistics(shader, without, VK_SHADER_STAGE_VERTEX_BIT).registersAllocated, 8u);
  // Not a fragment or compute wave's: alpha_test.frag and saxpy.comp keep 8.
  EXPECT_EQ(StatsOf("alpha_test.frag.spv", "amd-rdna2", VK_SHADER_STAGE_FRAGMENT_BIT).registersAllocated, 8u);
  EXPECT_EQ(StatsOf("saxpy.comp.spv", "amd-rdna2").registersAllocated, 8u);
  // Models that do not name any keep the demand's registers.
  EXPECT_EQ(BuiltinModel("mali-g78").vertexStageInputRegisters, 0u);
}

TEST(StageInterface, NggGeometryShadersHoldEveryEmittedVertexsOutputs) {
  // point_to_quad.geom emits four vertices from a loop of four (unrolled): on RDNA2's NGG geometry shaders each
  // vertex's computed position (4 components) stays in registers until the end, 16 held; its copied primitive id
  // is an input register, read again, and its constant corner folds away. RADV: 40 VGPRs, against 16 without.
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.geometryVerticesHeld, 1u);
  const pipeline::CompiledShader shader = CompileCorpus("point_to_quad.geom.spv", VK_SHADER_STAGE_GEOMETRY_BIT);
  ShaderStatistics held = statistics::ComputeStatistics(shader, amd, VK_SHADER_STAGE_GEOMETRY_BIT);
  EXPECT_EQ(held.heldOutputRegisters, 16u);
  EXPECT_GE(held.registerDemand, 16u);
  EXPECT_EQ(held.registersAllocated, 24u);
  MachineModel consumed = amd;
  consumed.geometryVerticesHeld = 0;
  ShaderStatistics legacy = statistics::ComputeStatistics(shader, consumed, VK_SHADER_STAGE_GEOMETRY_BIT);
  EXPECT_EQ(legacy.heldOutputRegisters, 0u);
  EXPECT_EQ(legacy.registersAllocated, 16u);
  // Other models: EmitVertex consumes the outputs.
  EXPECT_EQ(BuiltinModel("intel-xe-igpu").geometryVerticesHeld, 0u);
}

TEST(ExpansionTemporaries, ExpandedInstructionsHoldTheirSequencesTemporaries) {
  // On RDNA2 (RADV/ACO) an instruction lowered to a sequence needs registers beyond its operands and result while
  // the sequence runs (statistics/expansion_temporaries.h). Each count below is the demand with the temporaries
  // and without them (expansionTemporaries 0).
  const MachineModel& amd = BuiltinModel("amd-rdna2");
  ASSERT_EQ(amd.expansionTemporaries, 1u);
  MachineModel without = amd;
  without.expansionTemporaries = 0;
  auto both = [&](const char* file) {
    const pipeline::CompiledShader shader = CompileCorpus(file);
    return std::pair(statistics::ComputeStatistics(shader, amd, VK_SHADER_STAGE_COMPUTE_BIT),
                     statistics::ComputeStatistics(shader, without, VK_SHADER_STAGE_COMPUTE_BIT));
  };
  // control_flow.comp divides and takes the remainder by max(imm, 1), a divergent value: nir_lower_idiv's
  // sequence holds |n|, |d|, the quotient and a product (ACO: v6-v10 with six values live, 11 VGPRs; RADV 16).
  auto [division, plainDivision] = both("control_flow.comp.spv");
  EXPECT_EQ(plainDivision.registerDemand, 6u);
  EXPECT_EQ(division.registerDemand, 9u);
  EXPECT_EQ(plainDivision.registersAllocated, 8u);
  EXPECT_EQ(division.registersAllocated, 16u);
  EXPECT_EQ(division.temporaryRegisters, 4u);
  EXPECT_EQ(plainDivision.temporaryRegisters, 0u);
  // reduce_subgroup.comp's subgroupAdd of a divergent value: the operand's copy and the cross-row temporary
  // (ACO's p_reduce tmp and vtmp; 5 VGPRs used).
  auto [reduce, plainReduce] = both("reduce_subgroup.comp.spv");
  EXPECT_EQ(plainReduce.registerDemand, 3u);
  EXPECT_EQ(reduce.registerDemand, 5u);
  // atomics_all.comp's atomicMin/And/... of divergent values at uniform addresses become reductions
  // (nir_opt_uniform_atomics): two more (ACO: 9, the reduction in v7 with v8 for the permute).
  auto [atomics, plainAtomics] = both("atomics_all.comp.spv");
  EXPECT_EQ(plainAtomics.registerDemand, 7u);
  EXPECT_EQ(atomics.registerDemand, 9u);
  EXPECT_EQ(atomics.registersAllocated, 16u);
  // prefix_sum_subgroup.comp's exclusive scan inside `if (gl_SubgroupID == 0)`: its temporaries are defined
  // before the branch and live through the load of its operand.
  auto [scan, plainScan] = both("prefix_sum_subgroup.comp.spv");
  EXPECT_EQ(plainScan.registerDemand, 7u);
  EXPECT_EQ(scan.registerDemand, 8u);
  // Nothing to expand: saxpy.comp is unchanged.
  auto [saxpy, plainSaxpy] = both("saxpy.comp.spv");
  EXPECT_EQ(saxpy.registerDemand, plainSaxpy.registerDemand);
  // Other models: not modelled.
  EXPECT_EQ(BuiltinModel("mali-g78").expansionTemporaries, 0u);
}

TEST(RegisterPressure, ATexelWrittenToAStorageImageHoldsOnlyItsFormatsChannels) {
  // memory_barriers.comp writes vec4(float(neighbour)) to an r32f image: ACO stores one register
  // (image_store v1 ... dmask:0x1), so the vec4 holds 1 component, not 4: demand 6 (ACO's 5), 9 with the whole
  // vec4, which would need 16 registers (RADV 8).
  ShaderStatistics amd = StatsOf("memory_barriers.comp.spv", "amd-rdna2");
  EXPECT_EQ(amd.registerDemand, 6u);
  EXPECT_EQ(amd.registersAllocated, 8u);
}

TEST(LoadScheduling, ATessellationEvaluationShadersControlPointsAreLoadsFromMemory) {
  // On AMD a tessellation evaluation shader reads its control points from the off-chip ring buffer with buffer
  // loads (and a vertex shader fetches its attributes with buffer loads): ACO's scheduler issues them together.
  // terrain.tese's four positions and uvs are in flight at once: 32 registers on amd-rdna2 (RADV 32), 24 when
  // its inputs were taken as registers already filled.
  ShaderStatistics amd = StatsOf("terrain.tese.spv", "amd-rdna2", VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT);
  EXPECT_GT(amd.scheduledMoves, 0u);
  EXPECT_GT(amd.scheduledRegisterDemand, amd.registerDemand);
  EXPECT_EQ(amd.registersAllocated, 32u);
  MachineModel unscheduled = BuiltinModel("amd-rdna2");
  unscheduled.loadSchedulingRegisters = 0;
  EXPECT_EQ(statistics::ComputeStatistics(CompileCorpus("terrain.tese.spv",
                                                        VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT),
                                          unscheduled, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)
                .registersAllocated,
            24u);
  // A fragment shader's inputs are interpolated, not loaded: alpha_test.frag keeps 8.
  EXPECT_EQ(StatsOf("alpha_test.frag.spv", "amd-rdna2", VK_SHADER_STAGE_FRAGMENT_BIT).registersAllocated, 8u);
}

}  // namespace
}  // namespace crashtest::test
