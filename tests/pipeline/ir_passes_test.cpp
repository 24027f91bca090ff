// The IR clean-up passes (src/pipeline/ir/passes): each pass on a purpose-built shader
// (tests/pipeline/shaders/ir_*.comp), lowered after the front end's SPIRV-Tools passes but before the clean-up,
// asserting what was folded, removed, merged or kept; and every corpus shader through each pass with the verifier
// after each step.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <bit>
#include <set>
#include <utility>

#include "pipeline/compiler.h"
#include "pipeline/frontend/optimizer.h"
#include "pipeline/frontend/target_environment.h"
#include "pipeline/ir/passes/cleanup.h"
#include "pipeline/ir/passes/dead_branches.h"
#include "pipeline/ir/passes/dead_code.h"
#include "pipeline/ir/passes/fold_constants.h"
#include "pipeline/ir/passes/hoist_extracts.h"
#include "pipeline/ir/passes/instruction_properties.h"
#include "pipeline/ir/passes/ir_editing.h"
#include "pipeline/ir/passes/local_cse.h"
#include "pipeline/ir/passes/merge_blocks.h"
#include "pipeline/ir/passes/promote_memory.h"
#include "pipeline/ir/passes/sink_comparisons.h"
#include "pipeline/ir/verifier.h"
#include "pipeline/lowering/lower_spirv.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

// What Compile produces just before the clean-up passes: specialised, SPIRV-Tools' lean recipe, lowered, memory
// promoted to registers.
ir::Module LowerWithoutCleanup(const std::vector<uint32_t>& words, VkShaderStageFlagBits stage) {
  spv_target_env env = pipeline::TargetEnvironmentFor(VK_API_VERSION_1_3, false);
  std::vector<uint32_t> optimized;
  std::string message;
  EXPECT_TRUE(pipeline::SpecializeAndOptimize(words, env, {}, pipeline::OptimizationRecipe::Lean, &optimized,
                                              &message))
      << message;
  pipeline::SpirvModule spirv;
  ir::Module module;
  EXPECT_TRUE(pipeline::ReadSpirv(optimized, env, &spirv, &message)) << message;
  EXPECT_TRUE(pipeline::LowerSpirv(spirv, "main", pipeline::ExecutionModelOfStage(stage), &module, &message))
      << message;
  ir::PromoteMemoryToRegisters(module);
  return module;
}

// ir_*.comp are built next to this test (tests/pipeline/meson.build); the others are tests/pipeline/shaders'.
ir::Module LowerTestShader(const std::string& file) {
  std::vector<uint32_t> words = file.rfind("ir_", 0) == 0
                                    ? ReadSpirvFile(std::string(CRASHTEST_IR_PASSES_SHADER_DIR) + "/" + file)
                                    : CompilerTestWords(file);
  return LowerWithoutCleanup(words, VK_SHADER_STAGE_COMPUTE_BIT);
}

void ExpectVerifies(const ir::Module& module, const std::string& what) {
  std::string message;
  EXPECT_TRUE(ir::Verify(module, &message)) << what << ": " << message;
}

size_t CountOp(const ir::Module& module, uint16_t op) {
  size_t count = 0;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) count += inst.op == op;
  return count;
}

// Bits of the scalar constants stored to buffers by OpStore anywhere in the body (stores to the shaders' local
// variables, which only DCE removes, are left out).
std::multiset<uint64_t> StoredConstants(const ir::Module& module) {
  std::multiset<uint64_t> bits;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op != spv::OpStore) continue;
      if (module.TypeOf(module.Operands(inst)[0]).storageClass == spv::StorageClassFunction) continue;
      const ir::Value& value = module.values[module.Operands(inst)[1]];
      if (value.kind != ir::ValueKind::Constant) continue;
      const ir::Constant& constant = module.constants[value.owner];
      if (constant.constituents.empty()) bits.insert(constant.isNull ? 0 : constant.bits);
    }
  return bits;
}

bool BranchesOnAConstant(const ir::Module& module) {
  for (const ir::Block& block : module.function.blocks) {
    const ir::Instruction& terminator = block.instructions.back();
    if (terminator.op != spv::OpBranchConditional && terminator.op != spv::OpSwitch) continue;
    if (module.values[module.Operands(terminator)[0]].kind == ir::ValueKind::Constant) return true;
  }
  return false;
}

TEST(FoldConstantsTest, FoldsWhatIsDefinedAndKeepsWhatIsUndefined) {
  ir::Module module = LowerTestShader("ir_fold.comp.spv");
  ASSERT_GT(CountOp(module, spv::OpIMul), 0u);
  EXPECT_TRUE(ir::FoldConstants(module));
  ExpectVerifies(module, "after folding");
  std::multiset<uint64_t> stored = StoredConstants(module);
  EXPECT_EQ(stored.count(42), 1u);                                   // 6 * 7
  EXPECT_EQ(stored.count(0xffffffffu), 3u);                          // 6 - 7 wraps; 7 smod -2; -2 >> 1
  EXPECT_EQ(stored.count(std::bit_cast<uint32_t>(0.75f)), 1u);       // 0.5 + 0.25 in binary32
  EXPECT_EQ(stored.count(4), 1u);                                    // uint(0.5 * 8.0)
  EXPECT_EQ(stored.count(7), 1u);                                    // int(uvec2(6, 7).y)
  for (uint16_t folded : {spv::OpIMul, spv::OpISub, spv::OpSMod, spv::OpShiftRightArithmetic, spv::OpFAdd,
                          spv::OpFMul, spv::OpConvertFToU, spv::OpCompositeConstruct, spv::OpCompositeExtract,
                          spv::OpBitcast})
    EXPECT_EQ(CountOp(module, folded), 0u) << "left an Op" << folded;
  // (u[10] + 6) - 1 is u[10] + 5 (the inner addition is left for DCE).
  bool reassociated = false;
  for (const ir::Instruction& inst : module.function.blocks[0].instructions)
    if (inst.op == spv::OpIAdd) {
      const ir::Value& constant = module.values[module.Operands(inst)[1]];
      reassociated |= constant.kind == ir::ValueKind::Constant && module.constants[constant.owner].bits == 5;
    }
  EXPECT_TRUE(reassociated);
  // Undefined results stay as they are: INT_MIN / -1, x / 0, x << 32.
  EXPECT_EQ(CountOp(module, spv::OpSDiv), 1u);
  EXPECT_EQ(CountOp(module, spv::OpUDiv), 1u);
  EXPECT_EQ(CountOp(module, spv::OpShiftLeftLogical), 1u);
  // u[6] = u[7] * 1 + 0 stores the load itself.
  bool storesTheLoad = false;
  for (const ir::Instruction& inst : module.function.blocks[0].instructions) {
    if (inst.op != spv::OpStore) continue;
    const ir::Value& value = module.values[module.Operands(inst)[1]];
    if (value.kind == ir::ValueKind::Instruction &&
        module.function.blocks[value.owner].instructions[value.index].op == spv::OpLoad)
      storesTheLoad = true;
  }
  EXPECT_TRUE(storesTheLoad);
  EXPECT_FALSE(ir::FoldConstants(module)) << "a second run found more";
}

// The number of float multiplies and adds of each width (32, 64) left in the module.
std::pair<size_t, size_t> CountFloatOps(const ir::Module& module, uint16_t op) {
  size_t narrow = 0, wide = 0;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.op == op) (module.types[ir::ComponentType(module, inst.type)].width == 64 ? wide : narrow) += 1;
  return {narrow, wide};
}

TEST(FoldConstantsTest, InexactFloatIdentitiesOnlyWhenAskedAndWhereVulkanAllowsThem) {
  const ir::Module lowered = LowerTestShader("ir_inexact.comp.spv");
  ASSERT_EQ(CountFloatOps(lowered, spv::OpFMul), std::make_pair(size_t{2}, size_t{2}));
  ASSERT_EQ(CountFloatOps(lowered, spv::OpFAdd), std::make_pair(size_t{1}, size_t{0}));
  EXPECT_TRUE(ir::HasInexactFloatIdentities(lowered));

  // By default (the executed IR) nothing that would change a NaN, an infinity or a zero's sign is folded.
  ir::Module exact = lowered;
  ir::CleanUp(exact);
  EXPECT_EQ(CountFloatOps(exact, spv::OpFMul), std::make_pair(size_t{2}, size_t{2}));
  EXPECT_EQ(CountFloatOps(exact, spv::OpFAdd), std::make_pair(size_t{1}, size_t{0}));

  // As a back end: every product with zero but the precise 64-bit one, and the sum with zero.
  ir::CleanupOptions backEnd;
  backEnd.fold.inexactFloatIdentities = true;
  ir::Module folded = lowered;
  ir::CleanUp(folded, backEnd);
  ExpectVerifies(folded, "after the inexact identities");
  EXPECT_EQ(CountFloatOps(folded, spv::OpFMul), std::make_pair(size_t{0}, size_t{1}));
  EXPECT_EQ(CountFloatOps(folded, spv::OpFAdd), std::make_pair(size_t{0}, size_t{0}));
  EXPECT_FALSE(ir::HasInexactFloatIdentities(folded));

  // SignedZeroInfNanPreserve 32 keeps the 32-bit ones; the 64-bit inexact product still folds.
  ir::Module preserved = lowered;
  preserved.entryPoint.executionModes.push_back({spv::ExecutionModeSignedZeroInfNanPreserve, 32});
  ir::CleanUp(preserved, backEnd);
  EXPECT_EQ(CountFloatOps(preserved, spv::OpFMul), std::make_pair(size_t{2}, size_t{1}));
  EXPECT_EQ(CountFloatOps(preserved, spv::OpFAdd), std::make_pair(size_t{1}, size_t{0}));
  preserved.entryPoint.executionModes.push_back({spv::ExecutionModeSignedZeroInfNanPreserve, 64});
  EXPECT_FALSE(ir::HasInexactFloatIdentities(preserved));
}

TEST(DeadBranchesTest, ConstantBranchesBecomeJumpsAndDeadArmsGo) {
  ir::Module module = LowerTestShader("ir_dead_branch.comp.spv");
  size_t blocksBefore = module.function.blocks.size();
  ASSERT_TRUE(BranchesOnAConstant(module));
  ASSERT_EQ(StoredConstants(module).count(111), 1u);
  // Fold and dead-branch elimination alternate: the && short circuit leaves a phi of `false` and another value,
  // which becomes constant only once the branch that fed the other value is gone.
  for (int round = 0; round < 4; ++round) {
    ir::FoldConstants(module);
    if (!ir::EliminateDeadBranches(module)) break;
    ExpectVerifies(module, "after dead-branch elimination");
  }
  EXPECT_FALSE(BranchesOnAConstant(module));
  EXPECT_LT(module.function.blocks.size(), blocksBefore);
  std::multiset<uint64_t> stored = StoredConstants(module);
  EXPECT_EQ(stored.count(111), 0u);  // if (false)
  EXPECT_EQ(stored.count(222), 1u);  // its else
  EXPECT_EQ(stored.count(333), 0u);  // false && ...
  EXPECT_EQ(stored.count(444), 0u);  // switch (2): case 1
  EXPECT_EQ(stored.count(555), 1u);  //             case 2
  EXPECT_EQ(stored.count(666), 0u);  //             default
  // The loop survives with its structure: one header, its merge and continue target still blocks of the body.
  size_t loops = 0;
  for (const ir::Block& block : module.function.blocks) {
    if (block.mergeKind == ir::MergeKind::Selection) ADD_FAILURE() << "selection header left on a removed branch";
    if (block.mergeKind != ir::MergeKind::Loop) continue;
    ++loops;
    EXPECT_LT(block.mergeBlock, module.function.blocks.size());
    EXPECT_LT(block.continueTarget, module.function.blocks.size());
  }
  EXPECT_EQ(loops, 1u);
}

TEST(DeadBranchesTest, UnreachableMergeOfALiveLoopIsKeptAsUnreachable) {
  // `while (forever)` with forever == true: the exit goes, the code after the loop goes, but the loop header still
  // names its merge block, which stays as a lone OpUnreachable.
  ir::Module module = LowerTestShader("ir_endless_loop.comp.spv");
  ASSERT_EQ(StoredConstants(module).count(7), 1u);
  ir::CleanUp(module);
  ExpectVerifies(module, "after the clean-up");
  EXPECT_EQ(StoredConstants(module).count(7), 0u);
  const ir::Block* header = nullptr;
  for (const ir::Block& block : module.function.blocks)
    if (block.mergeKind == ir::MergeKind::Loop) header = &block;
  ASSERT_NE(header, nullptr);
  const ir::Block& merge = module.function.blocks[header->mergeBlock];
  ASSERT_EQ(merge.instructions.size(), 1u);
  EXPECT_EQ(merge.instructions[0].op, spv::OpUnreachable);
  EXPECT_TRUE(merge.predecessors.empty());
  // Block merge folded the body and the continue block into the header: a one-block loop, its own continue target.
  EXPECT_EQ(module.function.blocks.size(), 3u);
  EXPECT_EQ(&module.function.blocks[header->continueTarget], header);
  EXPECT_EQ(header->instructions.back().op, spv::OpBranch);
}

TEST(DeadCodeTest, WriteOnlyVariablesUnusedLoadsAndDeadSharedMemoryGo) {
  ir::Module module = LowerTestShader("ir_cse_dce.comp.spv");
  ASSERT_GT(CountOp(module, spv::OpVariable), 0u);  // `scratch`, dynamically indexed, stays in memory
  size_t loadsBefore = CountOp(module, spv::OpLoad);
  EXPECT_TRUE(ir::EliminateDeadCode(module));
  ExpectVerifies(module, "after DCE");
  EXPECT_EQ(CountOp(module, spv::OpVariable), 0u);
  EXPECT_EQ(CountOp(module, spv::OpLoad), loadsBefore - 1);  // `unused = data.u[i] * 9u`
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.op == spv::OpIMul) {
        const ir::Value& factor = module.values[module.Operands(inst)[1]];
        EXPECT_FALSE(factor.kind == ir::ValueKind::Constant && module.constants[factor.owner].bits == 9u);
      }
  EXPECT_FALSE(ir::EliminateDeadCode(module));

  // The shared array of ir_dead_branch.comp is used only under `false && ...`: once that branch is gone the
  // global goes too, so it no longer counts as workgroup memory.
  ir::Module branches = LowerTestShader("ir_dead_branch.comp.spv");
  auto workgroupGlobals = [](const ir::Module& m) {
    size_t count = 0;
    for (const ir::Global& global : m.globals) count += global.storageClass == spv::StorageClassWorkgroup;
    return count;
  };
  ASSERT_EQ(workgroupGlobals(branches), 1u);
  ir::CleanUp(branches);
  EXPECT_EQ(workgroupGlobals(branches), 0u);
  for (ir::ValueId v : branches.entryPoint.interface)
    EXPECT_NE(branches.values[v].owner, ir::kNone) << "interface names a removed global";
  for (uint32_t g = 0; g < branches.globals.size(); ++g) EXPECT_EQ(branches.values[branches.globals[g].value].owner, g);
}

TEST(LocalCseTest, RepeatedAddressArithmeticIsComputedOnce) {
  ir::Module module = LowerTestShader("ir_cse_dce.comp.spv");
  size_t multipliesBefore = CountOp(module, spv::OpIMul);
  ASSERT_GE(multipliesBefore, 4u);  // i * 4u three times in one statement, once under the if, and * 9u
  ir::Module perBlock = module;
  // Across blocks (the default, as NIR's CSE over the dominator tree): the one under the if is merged too.
  EXPECT_TRUE(ir::EliminateCommonSubexpressions(module));
  ExpectVerifies(module, "after CSE");
  EXPECT_EQ(CountOp(module, spv::OpIMul), 2u);  // i * 4u once, * 9u
  // Per block only (SPIRV-Tools' local-redundancy-elimination): the one under the if stays.
  EXPECT_TRUE(ir::EliminateCommonSubexpressions(perBlock, {.acrossBlocks = false}));
  ExpectVerifies(perBlock, "after per-block CSE");
  EXPECT_EQ(CountOp(perBlock, spv::OpIMul), 3u);
  // Loads are never merged: three loads of data.u stay three.
  EXPECT_EQ(CountOp(module, spv::OpLoad), CountOp(perBlock, spv::OpLoad));
  EXPECT_FALSE(ir::EliminateCommonSubexpressions(module, {.acrossBlocks = true}));
}

TEST(LocalCseTest, LoadsFromReadOnlyMemoryAreMergedOthersAreNot) {
  ir::Module module = LowerTestShader("ir_readonly_loads.comp.spv");
  auto loadsFrom = [&](uint32_t storageClass) {
    size_t count = 0;
    for (const ir::Block& block : module.function.blocks)
      for (const ir::Instruction& inst : block.instructions)
        count += inst.op == spv::OpLoad && module.TypeOf(module.Operands(inst)[0]).storageClass == storageClass;
    return count;
  };
  ASSERT_EQ(loadsFrom(spv::StorageClassPushConstant), 2u);
  ASSERT_EQ(loadsFrom(spv::StorageClassUniform), 2u);
  ASSERT_EQ(loadsFrom(spv::StorageClassInput), 2u);
  ASSERT_EQ(loadsFrom(spv::StorageClassStorageBuffer), 2u);
  EXPECT_TRUE(ir::EliminateCommonSubexpressions(module));
  ExpectVerifies(module, "after CSE");
  EXPECT_EQ(loadsFrom(spv::StorageClassPushConstant), 1u);
  EXPECT_EQ(loadsFrom(spv::StorageClassUniform), 1u);  // the shader writes no Uniform memory
  EXPECT_EQ(loadsFrom(spv::StorageClassInput), 1u);
  EXPECT_EQ(loadsFrom(spv::StorageClassStorageBuffer), 2u);  // written in between: never merged
}

TEST(MergeBlocksTest, StraightLineChainsBecomeOneBlockAndLoopsKeepTheirShape) {
  ir::Module module = LowerTestShader("ir_dead_branch.comp.spv");
  for (int round = 0; round < 4; ++round) {
    ir::FoldConstants(module);
    if (!ir::EliminateDeadBranches(module)) break;
  }
  ir::EliminateDeadCode(module);
  size_t before = module.function.blocks.size();
  ir::MergeBlocksResult result = ir::MergeBlocks(module);
  EXPECT_TRUE(result.changed);
  ExpectVerifies(module, "after block merge");
  // Entry (all the if/switch remains up to the loop), loop header with its condition, body with the continue
  // block, loop merge.
  EXPECT_EQ(module.function.blocks.size(), 4u) << "from " << before;
  const ir::Block* header = nullptr;
  for (const ir::Block& block : module.function.blocks)
    if (block.mergeKind == ir::MergeKind::Loop) header = &block;
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->instructions.back().op, spv::OpBranchConditional);
  EXPECT_EQ(header->predecessors.size(), 2u);
  EXPECT_FALSE(ir::MergeBlocks(module).changed);

  // A diamond has nothing to merge: the merge block has two predecessors.
  ir::Module diamond = LowerTestShader("diamond.comp.spv");
  EXPECT_FALSE(ir::MergeBlocks(diamond).changed);
}

bool Reads(const ir::Module& module, const ir::Instruction& inst, ir::ValueId v) {
  if (inst.op == spv::OpPhi) return false;  // a phi reads at the end of a predecessor
  auto operands = module.Operands(inst);
  return std::find(operands.begin(), operands.begin() + inst.valueCount, v) != operands.begin() + inst.valueCount;
}

// Comparisons not placed as SinkComparisons places them: with something other than comparisons between them and
// their first reader in the block (the terminator when nothing else reads them).
size_t ComparisonsAwayFromTheirUse(const ir::Module& module) {
  size_t away = 0;
  for (const ir::Block& block : module.function.blocks)
    for (size_t i = 0; i + 1 < block.instructions.size(); ++i) {
      if (!ir::IsComparison(block.instructions[i].op) || block.instructions[i].result == ir::kNone) continue;
      for (size_t j = i + 1; j < block.instructions.size(); ++j) {
        if (Reads(module, block.instructions[j], block.instructions[i].result) || j + 1 == block.instructions.size())
          break;
        if (!ir::IsComparison(block.instructions[j].op)) {
          ++away;
          break;
        }
      }
    }
  return away;
}

// Extracts of a composite defined earlier in their block (not by a phi) that do not follow it or its other
// extracts directly.
size_t ExtractsAwayFromTheirComposite(const ir::Module& module) {
  size_t away = 0;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) {
    const auto& instructions = module.function.blocks[b].instructions;
    for (size_t i = 0; i < instructions.size(); ++i) {
      if (instructions[i].op != spv::OpCompositeExtract) continue;
      const ir::Value& composite = module.values[module.Operands(instructions[i])[0]];
      if (composite.kind != ir::ValueKind::Instruction || composite.owner != b) continue;
      if (instructions[composite.index].op == spv::OpPhi) continue;
      for (size_t k = composite.index + 1; k < i; ++k)
        if (instructions[k].op != spv::OpCompositeExtract) {
          ++away;
          break;
        }
    }
  }
  return away;
}

// A reordering pass: on `file` (after the clean-up) `misplaced` finds something to move and the pass moves all of
// it without changing the instruction count; a second run changes nothing; every corpus shader verifies after it
// with nothing misplaced.
void ExpectPlacesEverything(const std::string& file, bool (*pass)(ir::Module&),
                            size_t (*misplaced)(const ir::Module&), const std::string& what) {
  ir::Module module = LowerWithoutCleanup(CorpusWords(file), VK_SHADER_STAGE_COMPUTE_BIT);
  ir::CleanUp(module);
  ASSERT_GT(misplaced(module), 0u) << file << " has nothing for " << what << " to move";
  size_t instructions = module.InstructionCount();
  EXPECT_TRUE(pass(module));
  ExpectVerifies(module, what);
  EXPECT_EQ(misplaced(module), 0u);
  EXPECT_EQ(module.InstructionCount(), instructions);
  EXPECT_FALSE(pass(module));
  for (const CorpusShader& shader : ReadCorpus()) {
    SCOPED_TRACE(shader.file);
    ir::Module corpus = LowerWithoutCleanup(CorpusWords(shader.file), StageBit(shader.stage));
    ir::CleanUp(corpus);
    pass(corpus);
    ExpectVerifies(corpus, what);
    EXPECT_EQ(misplaced(corpus), 0u);
  }
}

// bitonic_sort_shared.comp computes `(i & k) == 0` before the min and max it selects between; RADV's NIR moves the
// comparison down to the select (nir_opt_move), so `i & k` stays live across them.
TEST(SinkComparisonsTest, ComparisonsMoveRightBeforeTheirFirstUse) {
  ExpectPlacesEverything("bitonic_sort_shared.comp.spv", ir::SinkComparisons, ComparisonsAwayFromTheirUse,
                         "sinking comparisons");
}

// particle_update.comp extracts a loaded struct's members where they are used; a back end splits the struct where
// it is loaded.
TEST(HoistExtractsTest, ExtractsFollowTheirComposite) {
  ExpectPlacesEverything("particle_update.comp.spv", ir::HoistExtracts, ExtractsAwayFromTheirComposite,
                         "hoisting extracts");
}

// Every corpus shader: each pass alone keeps the IR valid, the whole clean-up is idempotent (a second run changes
// no count), and it never grows the body.
TEST(CleanupCorpusTest, EveryShaderVerifiesAfterEachPass) {
  for (const CorpusShader& shader : ReadCorpus()) {
    SCOPED_TRACE(shader.file);
    ir::Module module = LowerWithoutCleanup(CorpusWords(shader.file), StageBit(shader.stage));
    size_t instructions = module.InstructionCount();
    ExpectVerifies(module, "lowered");
    ir::FoldConstants(module);
    ExpectVerifies(module, "fold");
    ir::EliminateDeadBranches(module);
    ExpectVerifies(module, "dead branches");
    ir::EliminateCommonSubexpressions(module);
    ExpectVerifies(module, "CSE");
    ir::EliminateDeadCode(module);
    ExpectVerifies(module, "DCE");
    ir::MergeBlocks(module);
    ExpectVerifies(module, "block merge");
    ir::CleanUp(module);
    ExpectVerifies(module, "clean-up");
    EXPECT_LE(module.InstructionCount(), instructions);
    size_t cleanedInstructions = module.InstructionCount(), cleanedBlocks = module.function.blocks.size();
    ir::CleanUp(module);
    EXPECT_EQ(module.InstructionCount(), cleanedInstructions);
    EXPECT_EQ(module.function.blocks.size(), cleanedBlocks);
    for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b)
      for (uint32_t i = 0; i < module.function.blocks[b].instructions.size(); ++i) {
        const ir::Instruction& inst = module.function.blocks[b].instructions[i];
        if (inst.result == ir::kNone) continue;
        EXPECT_EQ(module.values[inst.result].owner, b);
        EXPECT_EQ(module.values[inst.result].index, i);
      }
  }
}

}  // namespace
}  // namespace crashtest::test
