// pipeline::FreezeSpecConstants (frontend/spec_constant_freezer.h), which replaces SPIRV-Tools'
// set-spec-constant-default-value, freeze-spec-constant-value and fold-spec-constant-op-and-composite for the common
// case. Its output is compared with those three passes' output after lowering and the IR passes, its evaluation
// against the SPIR-V spec's definitions, and what it does not handle must reach SPIRV-Tools unchanged.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/compiler.h"
#include "pipeline/frontend/optimizer.h"
#include "pipeline/frontend/spec_constant_freezer.h"
#include "pipeline/ir/passes/cleanup.h"
#include "pipeline/ir/passes/promote_memory.h"
#include "pipeline/lowering/lower_spirv.h"
#include "pipeline/lowering/spirv_reader.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

constexpr spv_target_env kEnv = SPV_ENV_VULKAN_1_3;

// The three SPIRV-Tools passes the freezer stands in for, exactly as optimizer.cpp registers them.
std::vector<uint32_t> SpirvToolsFrozen(const std::vector<uint32_t>& words,
                                       const pipeline::SpecializationValues& values) {
  spvtools::Optimizer optimizer(kEnv);
  if (!values.empty()) optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(values));
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> out;
  EXPECT_TRUE(optimizer.Run(words.data(), words.size(), &out, options));
  return out;
}

// What the rest of the compiler sees of a frozen module.
struct Summary {
  size_t instructions = 0;
  size_t blocks = 0;
  uint32_t localSize[3] = {0, 0, 0};
  std::vector<uint64_t> constantBits;  // scalar constants used by instructions, sorted
};

Summary Summarise(const std::vector<uint32_t>& words, uint32_t executionModel) {
  pipeline::SpirvModule spirv;
  ir::Module module;
  std::string message;
  Summary summary;
  EXPECT_TRUE(pipeline::ReadSpirv(words, kEnv, &spirv, &message)) << message;
  if (!pipeline::LowerSpirv(spirv, "main", executionModel, &module, &message)) {
    ADD_FAILURE() << message;
    return summary;
  }
  ir::PromoteMemoryToRegisters(module);
  ir::CleanUp(module);
  summary.instructions = module.InstructionCount();
  summary.blocks = module.function.blocks.size();
  std::copy(std::begin(module.entryPoint.localSize), std::end(module.entryPoint.localSize), summary.localSize);
  for (const ir::Block& block : module.function.blocks)
    for (const ir::Instruction& inst : block.instructions)
      for (ir::ValueId value : module.Operands(inst).first(inst.valueCount)) {
        if (module.values[value].kind != ir::ValueKind::Constant) continue;
        const ir::Constant& constant = module.constants[module.values[value].owner];
        if (constant.constituents.empty() && !constant.isNull) summary.constantBits.push_back(constant.bits);
      }
  std::sort(summary.constantBits.begin(), summary.constantBits.end());
  return summary;
}

bool HasSpecConstantOrSpecId(const std::vector<uint32_t>& words) {
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
    uint32_t opcode = words[i] & 0xffffu;
    if (opcode >= spv::OpSpecConstantTrue && opcode <= spv::OpSpecConstantOp) return true;
    if (opcode == spv::OpDecorate && words[i + 2] == spv::DecorationSpecId) return true;
  }
  return false;
}

std::vector<uint32_t> Inlined(const std::vector<uint32_t>& words) {
  spvtools::Optimizer optimizer(kEnv);
  optimizer.RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> out;
  EXPECT_TRUE(optimizer.Run(words.data(), words.size(), &out, options));
  EXPECT_TRUE(pipeline::ScanModuleContents(out).specConstants);
  return out;
}

struct SpecShader {
  std::vector<uint32_t> words;
  std::string name;
  uint32_t executionModel;
};

std::vector<SpecShader> ShadersWithSpecConstants() {
  std::vector<SpecShader> shaders;
  for (const CorpusShader& shader : ReadCorpus()) {
    std::vector<uint32_t> words = CorpusWords(shader.file);
    pipeline::ModuleContents contents = pipeline::ScanModuleContents(words);
    if (!contents.specConstants) continue;
    // The freezer only runs on modules without calls; inline first (spec constants untouched) so that the
    // comparison can lower the result, and the freezer still sees the module's spec constants.
    if (contents.functionCalls) words = Inlined(words);
    shaders.push_back({words, shader.file, pipeline::ExecutionModelOfStage(StageBit(shader.stage))});
  }
  // The shaders the spec-constant pipeline tests create pipelines from (SPIR-V 1.0 builds).
  for (const char* file : {"specialized_size.comp.spv", "spec_constants.comp.spv"})
    shaders.push_back({CompilerTestWords(file), std::string("test:") + file, spv::ExecutionModelGLCompute});
  return shaders;
}

TEST(SpecConstantFreezerTest, MatchesSpirvToolsOnEveryShaderWithSpecConstants) {
  // SpecId 0 is local_size_x_id in spec_constants.comp, matmul_tiled.comp and specialized_size.comp; 1 an int
  // (RADIUS, kIterations, TILE_Y), 2 and 4 booleans in spec_constants.comp.
  const pipeline::SpecializationValues someValues = {{0, {32}}, {1, {5}}, {2, {0}}, {4, {1}}};
  std::vector<SpecShader> shaders = ShadersWithSpecConstants();
  ASSERT_GE(shaders.size(), 3u);
  bool sawLocalSize = false;
  for (const SpecShader& shader : shaders)
    for (const pipeline::SpecializationValues& values : {pipeline::SpecializationValues{}, someValues}) {
      SCOPED_TRACE(shader.name + (values.empty() ? " (defaults)" : " (with values)"));
      std::vector<uint32_t> ours;
      ASSERT_EQ(pipeline::FreezeSpecConstants(shader.words, values, &ours), pipeline::FreezeResult::Frozen);
      EXPECT_FALSE(HasSpecConstantOrSpecId(ours));
      EXPECT_EQ(ours[3], shader.words[3]) << "id bound";
      Summary mine = Summarise(ours, shader.executionModel);
      Summary reference = Summarise(SpirvToolsFrozen(shader.words, values), shader.executionModel);
      EXPECT_EQ(mine.instructions, reference.instructions);
      EXPECT_EQ(mine.blocks, reference.blocks);
      for (int axis = 0; axis < 3; ++axis) EXPECT_EQ(mine.localSize[axis], reference.localSize[axis]) << axis;
      EXPECT_EQ(mine.constantBits, reference.constantBits);
      if (!values.empty() && mine.localSize[0] == 32) sawLocalSize = true;
    }
  EXPECT_TRUE(sawLocalSize) << "no shader took its workgroup size from a specialisation value";
}

struct EvaluationCase {
  spv::Op op;
  uint32_t resultWidth;
  std::vector<pipeline::ScalarConstant> operands;
  std::optional<uint64_t> expected;
};

TEST(SpecConstantFreezerTest, EvaluatesPerTheSpirvSpec) {
  using C = pipeline::ScalarConstant;
  const uint64_t m1 = 0xffffffffu;  // -1 as a 32-bit pattern
  const std::vector<EvaluationCase> cases = {
      {spv::OpIAdd, 32, {C{32, 0xffffffffu}, C{32, 2}}, 1},  // wraps at the width
      {spv::OpISub, 32, {C{32, 0}, C{32, 1}}, m1},
      {spv::OpIMul, 32, {C{32, 0x80000000u}, C{32, 2}}, 0},
      {spv::OpIMul, 64, {C{64, 0x100000000ull}, C{64, 3}}, 0x300000000ull},
      {spv::OpSNegate, 32, {C{32, 0x80000000u}}, 0x80000000u},
      {spv::OpSNegate, 32, {C{32, 3}}, 0xfffffffdu},
      {spv::OpNot, 16, {C{16, 0x00ff}}, 0xff00},
      {spv::OpUDiv, 32, {C{32, m1}, C{32, 2}}, 0x7fffffffu},
      {spv::OpSDiv, 32, {C{32, static_cast<uint32_t>(-7)}, C{32, 2}}, static_cast<uint32_t>(-3)},  // truncates
      {spv::OpSRem, 32, {C{32, static_cast<uint32_t>(-7)}, C{32, 2}}, m1},                         // dividend's sign
      {spv::OpSRem, 32, {C{32, 7}, C{32, static_cast<uint32_t>(-2)}}, 1},
      {spv::OpSMod, 32, {C{32, static_cast<uint32_t>(-7)}, C{32, 2}}, 1},                          // divisor's sign
      {spv::OpSMod, 32, {C{32, 7}, C{32, static_cast<uint32_t>(-2)}}, m1},
      {spv::OpSMod, 32, {C{32, 6}, C{32, static_cast<uint32_t>(-2)}}, 0},
      {spv::OpUMod, 32, {C{32, 7}, C{32, 3}}, 1},
      {spv::OpSDiv, 64, {C{64, ~0ull - 5}, C{64, 2}}, ~0ull - 2},  // -6 / 2 = -3
      {spv::OpSConvert, 64, {C{32, m1}}, ~0ull},
      {spv::OpSConvert, 16, {C{32, 0x12345}}, 0x2345},
      {spv::OpUConvert, 64, {C{32, m1}}, 0xffffffffull},
      {spv::OpShiftLeftLogical, 32, {C{32, 1}, C{32, 31}}, 0x80000000u},
      {spv::OpShiftRightLogical, 32, {C{32, 0x80000000u}, C{32, 31}}, 1},
      {spv::OpShiftRightArithmetic, 32, {C{32, 0x80000000u}, C{32, 31}}, m1},
      {spv::OpShiftRightArithmetic, 64, {C{64, 1ull << 63}, C{32, 63}}, ~0ull},  // shift of another width
      {spv::OpBitwiseAnd, 32, {C{32, 0xf0}, C{32, 0x3c}}, 0x30},
      {spv::OpBitwiseOr, 32, {C{32, 0xf0}, C{32, 0x0f}}, 0xff},
      {spv::OpBitwiseXor, 32, {C{32, 0xff}, C{32, 0x0f}}, 0xf0},
      {spv::OpSLessThan, 1, {C{32, m1}, C{32, 0}}, 1},
      {spv::OpULessThan, 1, {C{32, m1}, C{32, 0}}, 0},
      {spv::OpSGreaterThanEqual, 1, {C{64, 0}, C{64, ~0ull}}, 1},
      {spv::OpUGreaterThan, 1, {C{64, ~0ull}, C{64, 0}}, 1},
      {spv::OpIEqual, 1, {C{32, 4}, C{32, 4}}, 1},
      {spv::OpINotEqual, 1, {C{32, 4}, C{32, 4}}, 0},
      {spv::OpLogicalAnd, 1, {C{1, 1}, C{1, 0}}, 0},
      {spv::OpLogicalOr, 1, {C{1, 1}, C{1, 0}}, 1},
      {spv::OpLogicalNot, 1, {C{1, 0}}, 1},
      {spv::OpLogicalEqual, 1, {C{1, 0}, C{1, 0}}, 1},
      {spv::OpLogicalNotEqual, 1, {C{1, 1}, C{1, 0}}, 1},
      {spv::OpSelect, 32, {C{1, 0}, C{32, 5}, C{32, 9}}, 9},
      // Undefined results and unsupported operations: left to SPIRV-Tools.
      {spv::OpUDiv, 32, {C{32, 1}, C{32, 0}}, std::nullopt},
      {spv::OpSDiv, 32, {C{32, 0x80000000u}, C{32, m1}}, std::nullopt},
      {spv::OpSRem, 64, {C{64, 1ull << 63}, C{64, ~0ull}}, std::nullopt},
      {spv::OpSMod, 32, {C{32, 1}, C{32, 0}}, std::nullopt},
      {spv::OpShiftLeftLogical, 32, {C{32, 1}, C{32, 32}}, std::nullopt},
      {spv::OpFConvert, 32, {C{32, 0}}, std::nullopt},
      {spv::OpQuantizeToF16, 32, {C{32, 0}}, std::nullopt},
  };
  for (const EvaluationCase& c : cases) {
    SCOPED_TRACE(std::string("opcode ") + std::to_string(c.op) + " width " + std::to_string(c.resultWidth));
    EXPECT_EQ(pipeline::EvaluateScalarSpecOp(c.op, c.resultWidth, c.operands), c.expected);
  }
}

std::vector<uint32_t> Assemble(const std::string& constants) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %n SpecId 0
OpDecorate %d SpecId 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%v2int = OpTypeVector %int 2
%n = OpSpecConstant %int 4
%d = OpSpecConstant %int 0
)" + constants + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_0);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words));
  return words;
}

TEST(SpecConstantFreezerTest, WhatItDoesNotHandleFallsBackToSpirvTools) {
  struct Case {
    const char* name;
    std::string constants;
    pipeline::SpecializationValues values;
  };
  const std::vector<Case> cases = {
      {"vector shuffle", "%v = OpSpecConstantComposite %v2int %n %d\n"
                         "%s = OpSpecConstantOp %v2int VectorShuffle %v %v 1 2", {}},
      {"composite extract", "%v = OpSpecConstantComposite %v2int %n %d\n"
                            "%x = OpSpecConstantOp %int CompositeExtract %v 1", {}},
      {"division by zero", "%q = OpSpecConstantOp %int SDiv %n %d", {}},
      {"value of the wrong size", "%q = OpSpecConstantOp %int IAdd %n %d", {{0, {1, 2}}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint32_t> words = Assemble(c.constants), frozen;
    ASSERT_FALSE(words.empty());
    EXPECT_EQ(pipeline::FreezeSpecConstants(words, c.values, &frozen), pipeline::FreezeResult::NotHandled);
    std::vector<uint32_t> viaOptimizer;
    std::string message;
    ASSERT_TRUE(pipeline::SpecializeAndOptimize(words, kEnv, c.values, pipeline::OptimizationRecipe::Lean,
                                                &viaOptimizer, &message))
        << message;
    EXPECT_EQ(viaOptimizer, SpirvToolsFrozen(words, c.values)) << "the fallback is SPIRV-Tools' three passes";
  }
  // Through pipeline::Compile (validation, specialisation, lowering): the shuffle compiles as before.
  pipeline::CompileOptions options;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  std::vector<uint32_t> words = Assemble(cases[0].constants);
  ASSERT_TRUE(pipeline::Compile(words, options, &compiled, &error)) << error.message;
  EXPECT_EQ(compiled.optimizedSpirv, SpirvToolsFrozen(words, {}));
  // And the handled case: a scalar expression of an application value, frozen by the freezer.
  std::vector<uint32_t> scalar = Assemble("%q = OpSpecConstantOp %int IAdd %n %d"), frozen;
  ASSERT_EQ(pipeline::FreezeSpecConstants(scalar, {{1, {7}}}, &frozen), pipeline::FreezeResult::Frozen);
  bool sawEleven = false;
  for (size_t i = 5; i < frozen.size(); i += frozen[i] >> 16)
    if ((frozen[i] & 0xffffu) == spv::OpConstant && frozen[i + 3] == 11u) sawEleven = true;  // 4 + 7
  EXPECT_TRUE(sawEleven);
}

TEST(SpecConstantFreezerTest, FreezesIntegerVectorOperationsComponentByComponent) {
  std::vector<uint32_t> words = Assemble("%v = OpSpecConstantComposite %v2int %n %d\n"
                                         "%neg = OpSpecConstantOp %v2int SNegate %v\n"
                                         "%sum = OpSpecConstantOp %v2int IAdd %neg %v\n"),
                        frozen;
  ASSERT_FALSE(words.empty());
  ASSERT_EQ(pipeline::FreezeSpecConstants(words, {{0, {7}}, {1, {2}}}, &frozen), pipeline::FreezeResult::Frozen);
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_0);
  std::string text;
  ASSERT_TRUE(tools.Disassemble(frozen, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  EXPECT_TRUE(tools.Validate(frozen)) << text;
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %int -7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %int -2\n"), std::string::npos) << text;
}

// The OpSpecConstantOp forms SPIRV-Tools' fold-spec-constant-op-and-composite leaves (issue 18, defect 3): Select
// of floats and vectors (scalar and vector conditions) and FConvert. The freezer freezes them itself; and when it
// cannot freeze a module (a vector operation), SPIRV-Tools runs and the freezer finishes its output.
std::vector<uint32_t> AssembleFloat(const std::string& constants) {
  const std::string text = R"(
OpCapability Shader
OpCapability Float16
OpCapability Float64
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %x "x"
OpName %whole "whole"
OpName %each "each"
OpName %wide "wide"
OpName %narrow "narrow"
OpName %widev "widev"
OpName %one "one"
OpName %zero "zero"
OpName %three "three"
OpDecorate %flag SpecId 0
OpDecorate %f SpecId 1
OpDecorate %n SpecId 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%double = OpTypeFloat 64
%v2float = OpTypeVector %float 2
%v2double = OpTypeVector %double 2
%v2bool = OpTypeVector %bool 2
%v2int = OpTypeVector %int 2
%ulong = OpTypeInt 64 0
%v2ulong = OpTypeVector %ulong 2
%flag = OpSpecConstantFalse %bool
%f = OpSpecConstant %float 1.5
%n = OpSpecConstant %int 4
%one = OpConstant %float 1
%zero = OpConstant %float 0
%three = OpConstant %float 3
)" + constants + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_0);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words));
  return words;
}

std::string Disassembled(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_0);
  std::string text;
  EXPECT_TRUE(tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  EXPECT_TRUE(tools.Validate(words)) << text;
  return text;
}

TEST(SpecConstantFreezerTest, FreezesFloatSelectAndFConvert) {
  const std::string constants =
      "%x = OpSpecConstantOp %float Select %flag %one %zero\n"
      "%a = OpConstantComposite %v2float %one %zero\n"
      "%b = OpConstantComposite %v2float %zero %three\n"
      "%whole = OpSpecConstantOp %v2float Select %flag %a %b\n"
      "%flags = OpSpecConstantComposite %v2bool %flag %flag\n"
      "%each = OpSpecConstantOp %v2float Select %flags %a %b\n"
      "%wide = OpSpecConstantOp %double FConvert %f\n"
      "%narrow = OpSpecConstantOp %half FConvert %f\n"
      "%fs = OpSpecConstantComposite %v2float %f %three\n"
      "%widev = OpSpecConstantOp %v2double FConvert %fs\n";
  std::vector<uint32_t> words = AssembleFloat(constants), frozen;
  ASSERT_FALSE(words.empty());
  // FLAG false (default), f = 1.5 (default).
  ASSERT_EQ(pipeline::FreezeSpecConstants(words, {}, &frozen), pipeline::FreezeResult::Frozen);
  std::string text = Disassembled(frozen);
  EXPECT_EQ(text.find("OpSpecConstant"), std::string::npos) << text;
  EXPECT_NE(text.find("%x = OpConstant %float 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%whole = OpConstantComposite %v2float %zero %three\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%each = OpConstantComposite %v2float %zero %three\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%wide = OpConstant %double 1.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%narrow = OpConstant %half 0x1.8p+0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%widev = OpConstantComposite %v2double"), std::string::npos) << text;
  // FLAG true, f = 0.1: FConvert to half rounds to nearest even (0x2e66), to double exactly.
  float tenth = 0.1f;
  uint32_t tenthBits;
  std::memcpy(&tenthBits, &tenth, 4);
  ASSERT_EQ(pipeline::FreezeSpecConstants(words, {{0, {1}}, {1, {tenthBits}}}, &frozen),
            pipeline::FreezeResult::Frozen);
  text = Disassembled(frozen);
  EXPECT_NE(text.find("%x = OpConstant %float 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%whole = OpConstantComposite %v2float %one %zero\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%each = OpConstantComposite %v2float %one %zero\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%wide = OpConstant %double 0.100000001490116"), std::string::npos) << text;
  EXPECT_NE(text.find("%narrow = OpConstant %half 0x1.998p-4\n"), std::string::npos) << text;

  // With a composite operation the freezer gives up on the first pass; SPIRV-Tools folds that, and the freezer
  // then freezes what SPIRV-Tools leaves: the Select and FConvert, and a vector UConvert.
  std::vector<uint32_t> mixed = AssembleFloat(constants +
                                              "%vn = OpSpecConstantComposite %v2int %n %n\n"
                                              "%sh = OpSpecConstantOp %v2int VectorShuffle %vn %vn 1 2\n"
                                              "%vu = OpSpecConstantOp %v2ulong UConvert %sh\n");
  ASSERT_EQ(pipeline::FreezeSpecConstants(mixed, {}, &frozen), pipeline::FreezeResult::NotHandled);
  std::vector<uint32_t> optimized;
  std::string message;
  ASSERT_TRUE(pipeline::SpecializeAndOptimize(mixed, kEnv, {}, pipeline::OptimizationRecipe::Lean, &optimized,
                                              &message))
      << message;
  text = Disassembled(optimized);
  EXPECT_EQ(text.find("OpSpecConstantOp"), std::string::npos) << text;
  EXPECT_NE(text.find("%x = OpConstant %float 0\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace crashtest::test
