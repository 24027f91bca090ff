// ir::PromoteMemoryToRegisters: every corpus shader compiled with the Minimal recipe (specialisation and inlining
// only) and promoted still verifies, keeps only the variables it must, and lands near the Lean recipe's instruction
// count; small purpose-built shaders check the SSA form it builds. The last test compares the compiler as wired
// with SPIRV-Tools' five memory passes, which the pass replaced.
#include <gtest/gtest.h>

#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pipeline/analysis/liveness.h"
#include "pipeline/compiler.h"
#include "pipeline/frontend/target_environment.h"
#include "pipeline/ir/passes/cleanup.h"
#include "pipeline/ir/passes/promote_memory.h"
#include "pipeline/ir/printer.h"
#include "pipeline/ir/verifier.h"
#include "pipeline/lowering/lower_spirv.h"
#include "pipeline/lowering/spirv_reader.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

using ir::kNone;

pipeline::CompiledShader CompileWith(const std::vector<uint32_t>& words, VkShaderStageFlagBits stage,
                                     pipeline::OptimizationRecipe recipe) {
  pipeline::CompileOptions options;
  options.stage = stage;
  options.recipe = recipe;
  options.vulkanApiVersion = VK_API_VERSION_1_3;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_TRUE(pipeline::Compile(words, options, &compiled, &error))
      << pipeline::CompilePhaseName(error.phase) << ": " << error.message;
  return compiled;
}

std::vector<uint32_t> PromoteTestWords(const std::string& file) {
  return ReadSpirvFile(std::string(CRASHTEST_PROMOTE_TEST_SHADER_DIR) + "/" + file);
}

// The IR where the pass is meant to run: the Minimal recipe's SPIR-V (specialised, inlined) just lowered, before
// the IR clean-up passes pipeline::Compile runs after lowering.
struct Lowered {
  std::vector<uint32_t> spirv;  // the Minimal recipe's output
  ir::Module module;
};

Lowered LowerMinimal(const std::vector<uint32_t>& words, VkShaderStageFlagBits stage) {
  Lowered lowered;
  lowered.spirv = CompileWith(words, stage, pipeline::OptimizationRecipe::Minimal).optimizedSpirv;
  spv_target_env env = pipeline::TargetEnvironmentFor(VK_API_VERSION_1_3, false);
  pipeline::SpirvModule spirv;
  std::string message;
  EXPECT_TRUE(pipeline::ReadSpirv(lowered.spirv, env, &spirv, &message)) << message;
  EXPECT_TRUE(pipeline::LowerSpirv(spirv, "main", pipeline::ExecutionModelOfStage(stage), &lowered.module, &message))
      << message;
  return lowered;
}

// A purpose-built shader lowered from the Minimal recipe, promoted and verified.
ir::Module Promoted(const std::string& file) {
  ir::Module module = LowerMinimal(PromoteTestWords(file), VK_SHADER_STAGE_COMPUTE_BIT).module;
  EXPECT_TRUE(ir::PromoteMemoryToRegisters(module));
  std::string message;
  EXPECT_TRUE(ir::Verify(module, &message)) << message << "\n" << ir::Print(module);
  return module;
}

bool IsMemoryStorage(uint32_t storageClass) {
  return storageClass == spv::StorageClassFunction || storageClass == spv::StorageClassPrivate;
}

// Names (OpName, else %id) of the Function variables and Private globals a module still has.
std::set<std::string> RemainingVariables(const ir::Module& module) {
  std::set<std::string> names;
  auto name = [&](ir::ValueId v) {
    if (module.valueNames.size() > v && !module.valueNames[v].empty()) return module.valueNames[v];
    return "%" + std::to_string(module.values[v].spirvId);
  };
  for (const ir::Global& global : module.globals)
    if (global.storageClass == spv::StorageClassPrivate) names.insert(name(global.value));
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.op == spv::OpVariable) names.insert(name(inst.result));
  return names;
}

size_t CountOp(const ir::Module& module, spv::Op op) {
  size_t count = 0;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) count += inst.op == op;
  return count;
}

// Loads and stores through Function or Private pointers.
size_t MemoryAccesses(const ir::Module& module) {
  size_t count = 0;
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if ((inst.op == spv::OpLoad || inst.op == spv::OpStore) && inst.valueCount > 0) {
        const ir::Type& pointer = module.TypeOf(module.Operands(inst)[0]);
        count += pointer.kind == ir::TypeKind::Pointer && IsMemoryStorage(pointer.storageClass);
      }
  return count;
}

// Whether some use of the variable (through constant-index access chains) is one promotion must not touch:
// a dynamic index or any instruction other than a load, a store to it, or a further access chain. An
// independent check of the pass's decision, by brute force over the module.
bool HasUnpromotableUse(const ir::Module& module, ir::ValueId variable) {
  std::set<ir::ValueId> pointers{variable};
  for (bool grew = true; grew;) {
    grew = false;
    for (const ir::Block& block : module.function.blocks)
      for (const ir::Instruction& inst : block.instructions) {
        auto operands = module.Operands(inst);
        for (uint32_t k = 0; k < inst.valueCount; ++k) {
          if (!pointers.count(operands[k])) continue;
          if (inst.op == spv::OpLoad && k == 0) continue;
          if (inst.op == spv::OpStore && k == 0) continue;
          if ((inst.op == spv::OpAccessChain || inst.op == spv::OpInBoundsAccessChain) && k == 0) {
            for (uint32_t i = 1; i < inst.valueCount; ++i)
              if (module.values[operands[i]].kind != ir::ValueKind::Constant) return true;
            grew |= pointers.insert(inst.result).second;
            continue;
          }
          return true;
        }
      }
  }
  return false;
}

const ir::Instruction* DefinitionOf(const ir::Module& module, ir::ValueId v) {
  const ir::Value& value = module.values[v];
  if (value.kind != ir::ValueKind::Instruction || value.owner == kNone) return nullptr;
  return &module.function.blocks[value.owner].instructions[value.index];
}

float FloatConstant(const ir::Module& module, ir::ValueId v) {
  const ir::Value& value = module.values[v];
  if (value.kind != ir::ValueKind::Constant) return -1000.0f;
  uint32_t bits = static_cast<uint32_t>(module.constants[value.owner].bits);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::vector<const ir::Instruction*> PhisOf(const ir::Block& block) {
  std::vector<const ir::Instruction*> phis;
  for (const ir::Instruction& inst : block.instructions)
    if (inst.op == spv::OpPhi) phis.push_back(&inst);
  return phis;
}

// --- The corpus -----------------------------------------------------------------------------------------------

// Variables the pass must leave in memory, per corpus shader; every other corpus shader keeps none.
const std::map<std::string, std::set<std::string>>& ExpectedRemaining() {
  static const std::map<std::string, std::set<std::string>> expected = {
      // glslang copies a constant array indexed dynamically into a Function variable ("indexable", %192).
      {"alpha_test.frag.spv", {"indexable"}},
      {"image_blur.comp.spv", {"indexable"}},
      {"instanced_points.vert.spv", {"indexable"}},
      // Dynamically indexed local and Private arrays, vectors and matrices.
      {"composites.comp.spv", {"local_parts", "o", "sw", "v"}},
      {"function_calls.comp.spv", {"param"}},
      {"private_storage.comp.spv", {"%192", "history", "quadrant_visits"}},
      {"stats_array_48.comp.spv", {"a"}},
      {"stats_array_96.comp.spv", {"a"}},
      {"stats_zero_product.comp.spv", {"history"}},
      {"stats_zero_product_preserve.comp.spv", {"history"}},
      {"texel_buffers.comp.spv", {"pos", "result"}},
      {"wireframe.geom.spv", {"d", "p"}},
      // modf's second operand is a pointer: the variable is written by another instruction than a store.
      {"glsl_std450.comp.spv", {"whole"}},
  };
  return expected;
}

class PromoteCorpusTest : public ::testing::TestWithParam<CorpusShader> {};

TEST_P(PromoteCorpusTest, VerifiesAndKeepsOnlyUnpromotableVariables) {
  const CorpusShader& shader = GetParam();
  Lowered lowered = LowerMinimal(CorpusWords(shader.file), StageBit(shader.stage));
  ir::Module module = lowered.module;
  std::set<std::string> before = RemainingVariables(module);
  bool changed = ir::PromoteMemoryToRegisters(module);
  std::string message;
  ASSERT_TRUE(ir::Verify(module, &message)) << message << "\n" << ir::Print(module);
  std::set<std::string> after = RemainingVariables(module);
  EXPECT_EQ(changed, after != before || module.InstructionCount() != lowered.module.InstructionCount());

  auto expected = ExpectedRemaining().find(shader.file);
  std::set<std::string> none;
  EXPECT_EQ(after, expected != ExpectedRemaining().end() ? expected->second : none);
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.op == spv::OpVariable) {
        EXPECT_TRUE(HasUnpromotableUse(module, inst.result));
      }
  for (const ir::Global& global : module.globals)
    if (global.storageClass == spv::StorageClassPrivate) {
      EXPECT_TRUE(HasUnpromotableUse(module, global.value));
    }
  // Without variables left, no Function/Private access may remain either.
  if (after.empty()) {
    EXPECT_EQ(MemoryAccesses(module), 0u);
  }
  // The interface names only globals that still exist (SPIR-V 1.4+ lists Private globals there too).
  for (ir::ValueId v : module.entryPoint.interface) {
    EXPECT_EQ(module.values[v].kind, ir::ValueKind::Global);
    ASSERT_LT(module.values[v].owner, module.globals.size());
    EXPECT_EQ(module.globals[module.values[v].owner].value, v);
  }
  for (uint32_t g = 0; g < module.globals.size(); ++g) EXPECT_EQ(module.values[module.globals[g].value].owner, g);

  // The analyses that follow in the compiler accept the result.
  analysis::DominatorTree dom = analysis::DominatorTree::Build(module.function);
  analysis::Liveness liveness = analysis::Liveness::Build(module);
  EXPECT_FALSE(ir::Print(module, {nullptr, &liveness}).empty());

  // Promoting again finds nothing.
  ir::Module again = module;
  EXPECT_FALSE(ir::PromoteMemoryToRegisters(again));
  EXPECT_EQ(again.InstructionCount(), module.InstructionCount());
}

std::string ShaderName(const ::testing::TestParamInfo<CorpusShader>& info) { return CorpusTestName(info.param); }

INSTANTIATE_TEST_SUITE_P(Corpus, PromoteCorpusTest, ::testing::ValuesIn(ReadCorpus()), ShaderName);

// --- Purpose-built shaders ------------------------------------------------------------------------------------

TEST(PromoteMemoryTest, LoopCounterBecomesAPhiInTheLoopHeader) {
  ir::Module module = Promoted("promote_loop_counter.comp.spv");
  EXPECT_TRUE(RemainingVariables(module).empty());
  EXPECT_EQ(MemoryAccesses(module), 0u);
  const ir::Block* header = nullptr;
  ir::BlockId headerId = kNone;
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b)
    if (module.function.blocks[b].mergeKind == ir::MergeKind::Loop) {
      header = &module.function.blocks[b];
      headerId = b;
    }
  ASSERT_NE(header, nullptr);
  // `i` (int, starting at 0) and `sum` (float, starting at 0.0): one (value, block) pair per predecessor, the
  // entry's value a constant, the back edge's an instruction of the loop.
  auto phis = PhisOf(*header);
  ASSERT_EQ(phis.size(), 2u) << ir::Print(module);
  std::set<ir::TypeKind> kinds;
  for (const ir::Instruction* phi : phis) {
    kinds.insert(module.types[phi->type].kind);
    ASSERT_EQ(phi->valueCount, header->predecessors.size());
    auto operands = module.Operands(*phi);
    for (uint32_t k = 0; k < phi->valueCount; ++k) {
      ir::BlockId pred = operands[phi->valueCount + k];
      const ir::Value& incoming = module.values[operands[k]];
      if (pred == 0 || pred < headerId) {
        EXPECT_EQ(incoming.kind, ir::ValueKind::Constant);
        EXPECT_EQ(module.constants[incoming.owner].bits, 0u);
      } else {
        ASSERT_EQ(incoming.kind, ir::ValueKind::Instruction);
        const ir::Instruction* def = DefinitionOf(module, operands[k]);
        ASSERT_NE(def, nullptr);
        EXPECT_TRUE(def->op == spv::OpIAdd || def->op == spv::OpFAdd) << def->op;
      }
    }
  }
  EXPECT_EQ(kinds, (std::set<ir::TypeKind>{ir::TypeKind::Int, ir::TypeKind::Float}));
}

TEST(PromoteMemoryTest, IfElseAssignmentBecomesAPhiAtTheMerge) {
  ir::Module module = Promoted("promote_if_else.comp.spv");
  EXPECT_TRUE(RemainingVariables(module).empty());
  EXPECT_EQ(MemoryAccesses(module), 0u);
  const ir::Block& entry = module.function.blocks[0];
  ASSERT_EQ(entry.mergeKind, ir::MergeKind::Selection);
  auto phis = PhisOf(module.function.blocks[entry.mergeBlock]);
  ASSERT_EQ(phis.size(), 1u) << ir::Print(module);
  auto operands = module.Operands(*phis[0]);
  ASSERT_EQ(phis[0]->valueCount, 2u);
  std::set<uint16_t> incoming;
  for (uint32_t k = 0; k < 2; ++k) {
    const ir::Instruction* def = DefinitionOf(module, operands[k]);
    ASSERT_NE(def, nullptr);
    incoming.insert(def->op);
  }
  EXPECT_EQ(incoming, (std::set<uint16_t>{spv::OpFMul, spv::OpFAdd}));
  // Only the merge needs a phi.
  EXPECT_EQ(CountOp(module, spv::OpPhi), 1u);
}

TEST(PromoteMemoryTest, StructAccessedByConstantMembersIsSplit) {
  ir::Module module = Promoted("promote_struct.comp.spv");
  EXPECT_TRUE(RemainingVariables(module).empty());
  EXPECT_EQ(MemoryAccesses(module), 0u);
  // The whole-struct copy `t = s` and its member reads fold to the parts: no struct value is ever built.
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      if (inst.type != kNone) {
        EXPECT_NE(module.types[inst.type].kind, ir::TypeKind::Struct) << ir::Print(module);
      }
  // `s.position.y += s.weight` is an FAdd of the loaded .y and .w components, stored straight to the output.
  EXPECT_EQ(CountOp(module, spv::OpPhi), 0u);
  std::string text = ir::Print(module);
  EXPECT_NE(text.find("OpFAdd f32"), std::string::npos) << text;
}

TEST(PromoteMemoryTest, DynamicallyIndexedArrayStaysInMemory) {
  ir::Module module = Promoted("promote_dynamic_array.comp.spv");
  EXPECT_EQ(RemainingVariables(module), (std::set<std::string>{"table"}));
  // The array's accesses are untouched: stores in the loop, loads in the loop and of table[pick].
  EXPECT_EQ(MemoryAccesses(module), 3u) << ir::Print(module);
  // `i` and `total` are loop-header phis.
  for (const ir::Block& block : module.function.blocks)
    if (block.mergeKind == ir::MergeKind::Loop) {
      EXPECT_EQ(PhisOf(block).size(), 2u) << ir::Print(module);
    }
}

TEST(PromoteMemoryTest, LoadBeforeAnyStoreReadsUndef) {
  ir::Module module = Promoted("promote_undef.comp.spv");
  const ir::Block& entry = module.function.blocks[0];
  auto phis = PhisOf(module.function.blocks[entry.mergeBlock]);
  ASSERT_EQ(phis.size(), 1u) << ir::Print(module);
  auto operands = module.Operands(*phis[0]);
  std::multiset<ir::ValueKind> kinds;
  for (uint32_t k = 0; k < phis[0]->valueCount; ++k) {
    kinds.insert(module.values[operands[k]].kind);
    if (operands[phis[0]->valueCount + k] == 0) {
      EXPECT_EQ(module.values[operands[k]].kind, ir::ValueKind::Undef);
    } else {
      EXPECT_EQ(FloatConstant(module, operands[k]), 3.0f);
    }
  }
  EXPECT_EQ(kinds, (std::multiset<ir::ValueKind>{ir::ValueKind::Constant, ir::ValueKind::Undef}));
}

TEST(PromoteMemoryTest, InitializersOfPrivateAndFunctionVariables) {
  ir::Module module = LowerMinimal(PromoteTestWords("promote_initializers.spv"), VK_SHADER_STAGE_COMPUTE_BIT).module;
  size_t globalsBefore = module.globals.size();
  ASSERT_EQ(RemainingVariables(module), (std::set<std::string>{"f", "g", "u"}));
  ASSERT_TRUE(ir::PromoteMemoryToRegisters(module));
  std::string message;
  ASSERT_TRUE(ir::Verify(module, &message)) << message;
  EXPECT_TRUE(RemainingVariables(module).empty());
  EXPECT_EQ(module.globals.size(), globalsBefore - 2);  // g and u leave Module::globals
  EXPECT_EQ(MemoryAccesses(module), 0u);
  for (ir::ValueId v : module.entryPoint.interface) EXPECT_NE(module.values[v].owner, kNone);

  const ir::Block& entry = module.function.blocks[0];
  const ir::Block& merge = module.function.blocks[entry.mergeBlock];
  auto phis = PhisOf(merge);
  // g: 5.0 from the then block, the initializer 3.0 from the entry; f.y: the loaded value or the initializer's 2.0.
  ASSERT_EQ(phis.size(), 2u) << ir::Print(module);
  bool sawG = false, sawFy = false;
  for (const ir::Instruction* phi : phis) {
    auto operands = module.Operands(*phi);
    for (uint32_t k = 0; k < phi->valueCount; ++k) {
      bool fromEntry = operands[phi->valueCount + k] == 0;
      float value = FloatConstant(module, operands[k]);
      if (fromEntry && value == 3.0f) sawG = true;
      if (fromEntry && value == 2.0f) sawFy = true;
      if (!fromEntry) {
        EXPECT_TRUE(value == 5.0f || module.values[operands[k]].kind == ir::ValueKind::Instruction);
      }
    }
  }
  EXPECT_TRUE(sawG && sawFy) << ir::Print(module);
  // f is rebuilt from its parts: (initializer's 1.0, the f.y phi). u, never stored, reads undef.
  size_t constructs = 0, undefOperands = 0;
  for (const ir::Instruction& inst : merge.instructions) {
    auto operands = module.Operands(inst);
    if (inst.op == spv::OpCompositeConstruct) {
      ++constructs;
      ASSERT_EQ(inst.valueCount, 2u);
      EXPECT_EQ(FloatConstant(module, operands[0]), 1.0f);
      const ir::Instruction* def = DefinitionOf(module, operands[1]);
      ASSERT_NE(def, nullptr);
      EXPECT_EQ(def->op, spv::OpPhi);
    }
    if (inst.op == spv::OpFAdd) {
      for (uint32_t k = 0; k < inst.valueCount; ++k)
        undefOperands += module.values[operands[k]].kind == ir::ValueKind::Undef;
    }
  }
  EXPECT_EQ(constructs, 1u) << ir::Print(module);
  EXPECT_EQ(undefOperands, 1u) << ir::Print(module);
}

TEST(PromoteMemoryTest, UnreachablePredecessorGivesUndefAndUnreachableLoadsReadUndef) {
  ir::Module module = LowerMinimal(PromoteTestWords("promote_unreachable.spv"), VK_SHADER_STAGE_COMPUTE_BIT).module;
  ASSERT_TRUE(ir::PromoteMemoryToRegisters(module));
  std::string message;
  ASSERT_TRUE(ir::Verify(module, &message)) << message;
  EXPECT_TRUE(RemainingVariables(module).empty());
  EXPECT_EQ(MemoryAccesses(module), 0u);
  analysis::DominatorTree dom = analysis::DominatorTree::Build(module.function);
  const ir::Block& merge = module.function.blocks[module.function.blocks[0].mergeBlock];
  ASSERT_EQ(merge.predecessors.size(), 3u);
  auto phis = PhisOf(merge);
  ASSERT_EQ(phis.size(), 1u) << ir::Print(module);
  ASSERT_EQ(phis[0]->valueCount, 3u);  // one operand per predecessor, the unreachable one included
  auto operands = module.Operands(*phis[0]);
  std::map<float, int> constants;
  for (uint32_t k = 0; k < 3; ++k) {
    ir::BlockId pred = operands[3 + k];
    if (!dom.IsReachable(pred)) {
      EXPECT_EQ(module.values[operands[k]].kind, ir::ValueKind::Undef);
    } else {
      ++constants[FloatConstant(module, operands[k])];
    }
  }
  EXPECT_EQ(constants, (std::map<float, int>{{1.0f, 1}, {2.0f, 1}}));
  // The unreachable block's load became undef: its FAdd reads undef.
  for (ir::BlockId b = 0; b < module.function.blocks.size(); ++b) {
    if (dom.IsReachable(b)) continue;
    for (const ir::Instruction& inst : module.function.blocks[b].instructions)
      if (inst.op == spv::OpFAdd) {
        EXPECT_EQ(module.values[module.Operands(inst)[0]].kind, ir::ValueKind::Undef);
      }
  }
}

TEST(PromoteMemoryTest, VolatileCopiedAndOutOfRangeVariablesStayInMemory) {
  ir::Module module = LowerMinimal(PromoteTestWords("promote_kept.spv"), VK_SHADER_STAGE_COMPUTE_BIT).module;
  size_t accessesBefore = MemoryAccesses(module);
  ASSERT_TRUE(ir::PromoteMemoryToRegisters(module));  // `plain` is promoted
  std::string message;
  ASSERT_TRUE(ir::Verify(module, &message)) << message;
  EXPECT_EQ(RemainingVariables(module), (std::set<std::string>{"vol", "copied", "target", "oob"}));
  // Only plain's store and load went; the kept variables' accesses and the copy are untouched.
  EXPECT_EQ(MemoryAccesses(module), accessesBefore - 2) << ir::Print(module);
  EXPECT_EQ(CountOp(module, spv::OpCopyMemory), 1u);
}

// --- Reports: the comparison with Lean and the cost ----------------------------------------------------------

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 != 0 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// What the pass replaced: SPIRV-Tools' private-to-local, local-single-block-elim, local-single-store-elim,
// scalar-replacement and ssa-rewrite on the same (Minimal) SPIR-V, lowered and cleaned up the same way.
ir::Module LowerWithSpirvToolsMemoryPasses(const std::vector<uint32_t>& minimalSpirv, VkShaderStageFlagBits stage) {
  spv_target_env env = pipeline::TargetEnvironmentFor(VK_API_VERSION_1_3, false);
  spvtools::Optimizer optimizer(env);
  optimizer.RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateScalarReplacementPass())
      .RegisterPass(spvtools::CreateSSARewritePass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> optimized;
  EXPECT_TRUE(optimizer.Run(minimalSpirv.data(), minimalSpirv.size(), &optimized, options));
  pipeline::SpirvModule spirv;
  ir::Module module;
  std::string message;
  EXPECT_TRUE(pipeline::ReadSpirv(optimized, env, &spirv, &message)) << message;
  EXPECT_TRUE(pipeline::LowerSpirv(spirv, "main", pipeline::ExecutionModelOfStage(stage), &module, &message))
      << message;
  ir::CleanUp(module);
  return module;
}

// The compiler as wired (Lean: Minimal SPIR-V, lowering, this pass, the IR clean-up) never leaves more instructions
// than SPIRV-Tools' memory passes did; it leaves fewer where they kept component-accessed vectors in memory. The
// per-shader table (instructions, peak live register components) is printed for the record.
TEST(PromoteMemoryReport, NeverMoreInstructionsThanSpirvToolsMemoryPasses) {
  std::vector<double> instructionRatios, registerRatios;
  size_t oursTotal = 0, referenceTotal = 0;
  std::printf("%-34s %8s %8s %7s %7s %8s\n", "shader", "ours", "spvtools", "ratio", "regs", "regsRef");
  for (const CorpusShader& shader : ReadCorpus()) {
    std::vector<uint32_t> words = CorpusWords(shader.file);
    VkShaderStageFlagBits stage = StageBit(shader.stage);
    pipeline::CompiledShader ours = CompileWith(words, stage, pipeline::OptimizationRecipe::Lean);
    ir::Module reference = LowerWithSpirvToolsMemoryPasses(LowerMinimal(words, stage).spirv, stage);
    std::string message;
    ASSERT_TRUE(ir::Verify(reference, &message)) << shader.file << ": " << message;
    EXPECT_LE(ours.module.InstructionCount(), reference.InstructionCount()) << shader.file;
    uint32_t registers = ours.liveness.MaxLiveComponents();
    uint32_t referenceRegisters = analysis::Liveness::Build(reference).MaxLiveComponents();
    double ratio =
        static_cast<double>(ours.module.InstructionCount()) / static_cast<double>(reference.InstructionCount());
    instructionRatios.push_back(ratio);
    registerRatios.push_back(static_cast<double>(registers) / std::max(1u, referenceRegisters));
    oursTotal += ours.module.InstructionCount();
    referenceTotal += reference.InstructionCount();
    std::printf("%-34s %8zu %8zu %7.2f %7u %8u\n", shader.file.c_str(), ours.module.InstructionCount(),
                reference.InstructionCount(), ratio, registers, referenceRegisters);
  }
  std::sort(instructionRatios.begin(), instructionRatios.end());
  std::sort(registerRatios.begin(), registerRatios.end());
  std::printf("instructions ours/spvtools: min %.2f median %.2f max %.2f; corpus total %zu vs %zu\n",
              instructionRatios.front(), Median(instructionRatios), instructionRatios.back(), oursTotal,
              referenceTotal);
  std::printf("peak live components ours/spvtools: min %.2f median %.2f max %.2f\n", registerRatios.front(),
              Median(registerRatios), registerRatios.back());
  EXPECT_EQ(instructionRatios.size(), ReadCorpus().size());
}

}  // namespace
}  // namespace crashtest::test
