// Analyses on purpose-built shaders: dominators of a diamond, trip counts of constant loops (also after
// specialisation), liveness that grows with the pressure family, and the verifier catching broken SSA.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include "pipeline/compiler.h"
#include "pipeline/ir/printer.h"
#include "pipeline/ir/verifier.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

pipeline::CompiledShader MustCompile(const std::vector<uint32_t>& words, const VkSpecializationInfo* spec = nullptr) {
  pipeline::CompileOptions options;
  options.specialization = spec;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_TRUE(pipeline::Compile(words, options, &compiled, &error)) << error.message;
  return compiled;
}

TEST(DominatorTest, DiamondArmsAreDominatedByTheHeaderAndPostDominatedByTheMerge) {
  pipeline::CompiledShader compiled = MustCompile(CompilerTestWords("diamond.comp.spv"));
  const auto& blocks = compiled.module.function.blocks;
  ir::BlockId header = ir::kNone;
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    if (blocks[b].mergeKind == ir::MergeKind::Selection) header = b;
  ASSERT_NE(header, ir::kNone) << ir::Print(compiled.module);
  const ir::Block& block = blocks[header];
  ASSERT_EQ(block.successors.size(), 2u);
  ir::BlockId merge = block.mergeBlock;
  for (ir::BlockId arm : block.successors) {
    EXPECT_NE(arm, merge);
    EXPECT_EQ(compiled.dominators.ImmediateDominator(arm), header);
    EXPECT_FALSE(compiled.dominators.Dominates(arm, merge));
    EXPECT_EQ(compiled.postDominators.ImmediateDominator(arm), merge);
  }
  EXPECT_EQ(compiled.dominators.ImmediateDominator(merge), header);
  EXPECT_EQ(compiled.postDominators.ImmediateDominator(header), merge);
  EXPECT_TRUE(compiled.postDominators.Dominates(merge, header));
  EXPECT_TRUE(compiled.loops.loops().empty());
}

TEST(LoopTest, ConstantLoopsHaveTheirTripCounts) {
  for (auto [file, trips] : {std::pair{"stats_loop_64.comp.spv", 64u}, std::pair{"stats_loop_8.comp.spv", 8u}}) {
    SCOPED_TRACE(file);
    pipeline::CompiledShader compiled = MustCompile(CorpusWords(file));
    ASSERT_EQ(compiled.loops.loops().size(), 1u) << ir::Print(compiled.module);
    const analysis::Loop& loop = compiled.loops.loops()[0];
    ASSERT_TRUE(loop.tripCount.has_value()) << ir::Print(compiled.module, {&compiled.loops});
    EXPECT_EQ(*loop.tripCount, trips);
    EXPECT_EQ(loop.depth, 1u);
    EXPECT_NE(loop.merge, ir::kNone);
    EXPECT_EQ(compiled.loops.Depth(loop.header), 1u);
    EXPECT_EQ(compiled.loops.Depth(0), 0u);
    std::string text = ir::Print(compiled.module, {&compiled.loops});
    EXPECT_NE(text.find("trip count " + std::to_string(trips)), std::string::npos) << text;
    EXPECT_NE(text.find("loop header, merge block"), std::string::npos);
  }
  EXPECT_TRUE(MustCompile(CorpusWords("stats_loop_none.comp.spv")).loops.loops().empty());
}

TEST(LoopTest, NestedLoopsNest) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("bitonic_sort_shared.comp.spv"));
  uint32_t maxDepth = 0;
  for (const analysis::Loop& loop : compiled.loops.loops()) maxDepth = std::max(maxDepth, loop.depth);
  EXPECT_GE(maxDepth, 2u) << ir::Print(compiled.module, {&compiled.loops});
}

TEST(SpecializationTest, ConstantsChangeWorkgroupSizeAndTripCount) {
  pipeline::CompiledShader defaults = MustCompile(CompilerTestWords("specialized_size.comp.spv"));
  EXPECT_EQ(defaults.module.entryPoint.localSize[0], 1u);
  ASSERT_EQ(defaults.loops.loops().size(), 1u);
  EXPECT_EQ(defaults.loops.loops()[0].tripCount, std::optional<uint64_t>(4));

  struct {
    uint32_t localSizeX;
    int32_t iterations;
  } data{128, 10};
  VkSpecializationMapEntry entries[] = {{0, 0, 4}, {1, 4, 4}};
  VkSpecializationInfo info{2, entries, sizeof data, &data};
  pipeline::CompiledShader specialized = MustCompile(CompilerTestWords("specialized_size.comp.spv"), &info);
  EXPECT_EQ(specialized.module.entryPoint.localSize[0], 128u);
  ASSERT_EQ(specialized.loops.loops().size(), 1u);
  EXPECT_EQ(specialized.loops.loops()[0].tripCount, std::optional<uint64_t>(10));
}

TEST(LivenessTest, PeakGrowsWithThePressureFamily) {
  uint32_t previous = 0;
  for (uint32_t n : {4u, 16u, 32u, 64u, 96u, 160u}) {
    char file[64];
    std::snprintf(file, sizeof file, "stats_pressure_%02u.comp.spv", n);
    SCOPED_TRACE(file);
    pipeline::CompiledShader compiled = MustCompile(CorpusWords(file));
    uint32_t peak = compiled.liveness.MaxLiveComponents();
    EXPECT_GE(peak, n);
    EXPECT_GT(peak, previous);
    previous = peak;
  }
}

TEST(LivenessTest, LiveOutFeedsSuccessorsLiveIn) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("control_flow.comp.spv"));
  const auto& blocks = compiled.module.function.blocks;
  for (ir::BlockId b = 0; b < blocks.size(); ++b)
    for (ir::BlockId s : blocks[b].successors)
      for (ir::ValueId v : compiled.liveness.LiveIn(s)) {
        const ir::Value& value = compiled.module.values[v];
        bool phiOfSuccessor = value.owner == s && blocks[s].instructions[value.index].op == spv::OpPhi;
        if (phiOfSuccessor) continue;
        auto out = compiled.liveness.LiveOut(b);
        EXPECT_NE(std::find(out.begin(), out.end(), v), out.end()) << "value %" << value.spirvId;
      }
}

// The pointers data[5i], data[5i + 1], ... data[5i + 4] differ by constants, which the back end folds into the
// memory instructions' immediate offsets: one offset register, held by the first, for all five.
TEST(OffsetRegistersTest, PointersWhoseIndicesDifferByAConstantShareOneRegister) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("stats_pressure_04.comp.spv"));
  const ir::Module& module = compiled.module;
  std::vector<ir::ValueId> bufferPointers;
  for (const ir::Instruction& inst : module.function.blocks[0].instructions)
    if (inst.op == spv::OpAccessChain && module.types[inst.type].storageClass == spv::StorageClassStorageBuffer)
      bufferPointers.push_back(inst.result);
  ASSERT_EQ(bufferPointers.size(), 5u);
  const analysis::OffsetRegisters& offsets = compiled.offsetRegisters;
  EXPECT_TRUE(offsets.HoldsRegister(bufferPointers[0]));
  for (size_t k = 1; k < bufferPointers.size(); ++k) {
    EXPECT_FALSE(offsets.HoldsRegister(bufferPointers[k])) << k;
    EXPECT_EQ(offsets.holderOf[bufferPointers[k]], bufferPointers[0]) << k;
  }
  // A pointer with constant indices only (the Input variable's gl_GlobalInvocationID.x) holds nothing.
  for (const ir::Instruction& inst : module.function.blocks[0].instructions)
    if (inst.op == spv::OpAccessChain && module.types[inst.type].storageClass == spv::StorageClassInput) {
      EXPECT_EQ(offsets.holderOf.empty() ? ir::kNone : offsets.holderOf[inst.result], ir::kNone);
    }
  // The holder stays live until the last store through any of them: across the instruction before the last store
  // (the holder's own last store is earlier), the liveness with the shared holders counts one component more.
  const auto& instructions = module.function.blocks[0].instructions;
  uint32_t lastStore = 0;
  for (uint32_t i = 0; i < instructions.size(); ++i)
    if (instructions[i].op == spv::OpStore) lastStore = i;
  ASSERT_NE(lastStore, 0u);
  analysis::Liveness without = analysis::Liveness::Build(module);
  EXPECT_EQ(compiled.liveness.LiveComponentsAt(0, lastStore - 1), without.LiveComponentsAt(0, lastStore - 1) + 1);
}

// bitonic_sort_shared.comp reads s[i] and s[i + j] with j a loop variable: two roots, two offset registers.
TEST(OffsetRegistersTest, PointersWithDifferentDynamicIndicesHoldTheirOwn) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("bitonic_sort_shared.comp.spv"));
  const ir::Module& module = compiled.module;
  size_t holders = 0, workgroupPointers = 0;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op != spv::OpAccessChain || module.types[inst.type].storageClass != spv::StorageClassWorkgroup)
        continue;
      ++workgroupPointers;
      holders += compiled.offsetRegisters.HoldsRegister(inst.result);
    }
  // s[lid], s[lid + 512] (one register), s[i], s[i + j] in the loop.
  EXPECT_EQ(workgroupPointers, 4u);
  EXPECT_EQ(holders, 3u);
}

// atomics_all.comp reads samples[gid] and writes counters.slots[gid]: different buffers, both indexed by gid with a
// stride of 4 (the slots' 44 bytes fold into the immediate), so NIR computes gid << 2 once and ACO keeps it (v0).
TEST(OffsetRegistersTest, PointersIntoDifferentBuffersWithTheSameIndexAndStrideShareOneRegister) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("atomics_all.comp.spv"));
  const ir::Module& module = compiled.module;
  std::vector<ir::ValueId> dynamic;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.op == spv::OpAccessChain && module.types[inst.type].storageClass == spv::StorageClassStorageBuffer &&
          !compiled.offsetRegisters.holderOf.empty() && compiled.offsetRegisters.holderOf[inst.result] != ir::kNone)
        dynamic.push_back(inst.result);
  ASSERT_EQ(dynamic.size(), 2u);  // samples[gid], counters.slots[gid]
  EXPECT_TRUE(compiled.offsetRegisters.HoldsRegister(dynamic[0]));
  EXPECT_EQ(compiled.offsetRegisters.holderOf[dynamic[1]], dynamic[0]);
}

TEST(VerifierTest, UseBeforeDefinitionIsCaught) {
  pipeline::CompiledShader compiled = MustCompile(CompilerTestWords("diamond.comp.spv"));
  ir::Module module = compiled.module;
  std::string message;
  ASSERT_TRUE(ir::Verify(module, &message)) << message;
  // Make the first instruction of the entry block that uses a value use a result defined after it instead.
  ir::Block& entry = module.function.blocks[0];
  ir::ValueId later = ir::kNone;
  for (const ir::Instruction& inst : entry.instructions)
    if (inst.result != ir::kNone) later = inst.result;
  ASSERT_NE(later, ir::kNone);
  bool changed = false;
  for (ir::Instruction& inst : entry.instructions)
    if (!changed && inst.valueCount > 0 && inst.result != later) {
      module.function.operands[inst.firstOperand] = later;
      changed = true;
    }
  ASSERT_TRUE(changed);
  EXPECT_FALSE(ir::Verify(module, &message));
  EXPECT_NE(message.find("IR verifier"), std::string::npos) << message;
  EXPECT_NE(message.find("not dominated by its definition"), std::string::npos) << message;
}

TEST(VerifierTest, TypeMismatchIsCaught) {
  pipeline::CompiledShader compiled = MustCompile(CorpusWords("stats_loop_none.comp.spv"));
  ir::Module module = compiled.module;
  std::string message;
  bool changed = false;
  for (ir::Block& block : module.function.blocks)
    for (ir::Instruction& inst : block.instructions)
      if (!changed && (inst.op == spv::OpFMul || inst.op == spv::OpFAdd)) {
        // Swap in a pointer operand: a float multiply of a pointer must be rejected.
        module.function.operands[inst.firstOperand] = module.globals[0].value;
        changed = true;
      }
  ASSERT_TRUE(changed);
  EXPECT_FALSE(ir::Verify(module, &message));
  EXPECT_NE(message.find("is not a float of the result's shape"), std::string::npos) << message;
}

}  // namespace
}  // namespace crashtest::test
