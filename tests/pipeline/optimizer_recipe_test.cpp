// The lean recipe registers a group of passes only when the module has something for it
// (frontend/optimizer.cpp, ScanModuleContents), and the clean-up passes it used to end with (simplification,
// dead-branch-elim, local-redundancy-elimination, aggressive-dce, block-merge) now run on the IR
// (ir/passes/cleanup.h). These tests pin the scan on corpus shaders whose contents are known from their GLSL, and
// check that what the skipped or moved passes did is still done where it is needed.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp>

#include "pipeline/compiler.h"
#include "pipeline/frontend/dead_function_strip.h"
#include "pipeline/frontend/optimizer.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

bool HasOpcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16)
    if ((words[i] & 0xffffu) == opcode) return true;
  return false;
}

pipeline::CompiledShader MustCompile(const std::string& file) {
  pipeline::CompileOptions options;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_TRUE(pipeline::Compile(CorpusWords(file), options, &compiled, &error)) << file << ": " << error.message;
  return compiled;
}

TEST(OptimizerRecipeTest, ScanFindsWhatEachShaderHolds) {
  pipeline::ModuleContents saxpy = pipeline::ScanModuleContents(CorpusWords("saxpy.comp.spv"));
  EXPECT_FALSE(saxpy.specConstants);
  EXPECT_FALSE(saxpy.functionCalls);

  EXPECT_TRUE(pipeline::ScanModuleContents(CorpusWords("function_calls.comp.spv")).functionCalls);
  EXPECT_TRUE(pipeline::ScanModuleContents(CorpusWords("spec_constants.comp.spv")).specConstants);
  EXPECT_FALSE(pipeline::ScanModuleContents(CorpusWords("reduce.comp.spv")).specConstants);
}

size_t CountOpcode(const std::vector<uint32_t>& words, uint32_t opcode) {
  size_t n = 0;
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16)
    n += (words[i] & 0xffffu) == opcode;
  return n;
}

// After inlining, the callees are stripped word by word (dead_function_strip.h): one function is left, no call, and
// the module is still valid SPIR-V (names and decorations of the stripped ids gone with them).
TEST(OptimizerRecipeTest, InlinedModulesKeepOnlyTheEntryPointAndStayValid) {
  for (const char* file : {"function_calls.comp.spv", "private_storage.comp.spv"}) {
    SCOPED_TRACE(file);
    ASSERT_GT(CountOpcode(CorpusWords(file), spv::OpFunction), 1u);
    pipeline::CompiledShader compiled = MustCompile(file);
    EXPECT_EQ(CountOpcode(compiled.optimizedSpirv, spv::OpFunction), 1u);
    EXPECT_EQ(CountOpcode(compiled.optimizedSpirv, spv::OpFunctionCall), 0u);
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
    std::string problems;
    tools.SetMessageConsumer([&problems](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
      problems += text;
    });
    EXPECT_TRUE(tools.Validate(compiled.optimizedSpirv)) << problems;
  }
}

// glslang -gV: the debug information's module-level instructions are skipped by lowering (they failed it with
// "unsupported module-level instruction"), and the stripped callees' DebugFunction and scopes go with them.
TEST(OptimizerRecipeTest, ModulesWithShaderDebugInfoCompileAndKeepOnlyTheEntryPoint) {
  pipeline::CompileOptions options;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  ASSERT_TRUE(pipeline::Compile(CompilerTestWords("function_calls_debug.comp.spv"), options, &compiled, &error))
      << error.message;
  EXPECT_EQ(CountOpcode(compiled.optimizedSpirv, spv::OpFunction), 1u);
  EXPECT_EQ(CountOpcode(compiled.optimizedSpirv, spv::OpFunctionCall), 0u);
  EXPECT_FALSE(compiled.module.function.blocks.empty());
}

// A module whose entry point still calls a function is left as it is.
TEST(OptimizerRecipeTest, StrippingKeepsFunctionsAnEntryPointCalls) {
  const std::vector<uint32_t> original = CorpusWords("function_calls.comp.spv");
  std::vector<uint32_t> words = original;
  EXPECT_FALSE(pipeline::StripUncalledFunctions(words, SPV_ENV_VULKAN_1_3));
  EXPECT_EQ(words, original);
}

TEST(OptimizerRecipeTest, ScanStopsAtABrokenWordCount) {
  std::vector<uint32_t> words = CorpusWords("function_calls.comp.spv");
  ASSERT_GT(words.size(), 6u);
  words[5] = (0u << 16) | spv::OpCapability;  // a zero word count would loop forever if the scan trusted it
  pipeline::ModuleContents contents = pipeline::ScanModuleContents(words);
  EXPECT_FALSE(contents.functionCalls);
  words = CorpusWords("function_calls.comp.spv");
  words[5] = (0xffffu << 16) | spv::OpCapability;  // past the end
  EXPECT_FALSE(pipeline::ScanModuleContents(words).functionCalls);
  EXPECT_FALSE(pipeline::ScanModuleContents(std::vector<uint32_t>(3, 0)).functionCalls);
}

TEST(OptimizerRecipeTest, OptimisedSpirvHasNoCallsNoSpecConstantsAndNoFunctionMemory) {
  pipeline::CompiledShader calls = MustCompile("function_calls.comp.spv");
  EXPECT_FALSE(HasOpcode(calls.optimizedSpirv, spv::OpFunctionCall));
  pipeline::CompiledShader spec = MustCompile("spec_constants.comp.spv");
  EXPECT_FALSE(HasOpcode(spec.optimizedSpirv, spv::OpSpecConstant));
  EXPECT_FALSE(HasOpcode(spec.optimizedSpirv, spv::OpSpecConstantOp));
  // No CCP any more: `USE_SHARED && ...` (false by default) short-circuits into a phi of `false`, which the IR's
  // alternating folding and dead-branch elimination resolve: no branch on a constant, no workgroup-memory access
  // and no workgroup array left behind.
  for (const ir::Block& block : spec.module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op == spv::OpLoad || inst.op == spv::OpStore) {
        EXPECT_NE(spec.module.TypeOf(spec.module.Operands(inst)[0]).storageClass, spv::StorageClassWorkgroup);
      }
      if (inst.op != spv::OpBranchConditional && inst.op != spv::OpSwitch) continue;
      ir::ValueId condition = spec.module.Operands(inst)[0];
      EXPECT_NE(spec.module.values[condition].kind, ir::ValueKind::Constant) << "branch on a constant left behind";
    }
  for (const ir::Global& global : spec.module.globals) EXPECT_NE(global.storageClass, spv::StorageClassWorkgroup);
  // Memory to registers ran (on the IR): saxpy's `uint i = gl_GlobalInvocationID.x`, a Function variable in
  // glslang's output, lives in a register.
  pipeline::CompiledShader saxpy = MustCompile("saxpy.comp.spv");
  for (const ir::Block& block : saxpy.module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) EXPECT_NE(inst.op, spv::OpVariable);
}

TEST(OptimizerRecipeTest, LeanRegistersNoSpirvToolsPassForModulesWithNothingForIt) {
  // The optimisation moved to the IR, so a module without spec constants and calls leaves the lean recipe nothing
  // to do: the words come back as they are, without running spvtools::Optimizer.
  size_t untouched = 0;
  spv_target_env env = SPV_ENV_VULKAN_1_3;
  for (const CorpusShader& shader : ReadCorpus()) {
    std::vector<uint32_t> words = CorpusWords(shader.file);
    pipeline::ModuleContents contents = pipeline::ScanModuleContents(words);
    std::vector<uint32_t> lean, minimal;
    std::string message;
    ASSERT_TRUE(pipeline::SpecializeAndOptimize(words, env, {}, pipeline::OptimizationRecipe::Lean, &lean, &message))
        << shader.file << ": " << message;
    ASSERT_TRUE(pipeline::SpecializeAndOptimize(words, env, {}, pipeline::OptimizationRecipe::Minimal, &minimal,
                                                &message))
        << shader.file << ": " << message;
    bool nothing = !contents.specConstants && !contents.functionCalls;
    EXPECT_EQ(lean == words, nothing) << shader.file;
    EXPECT_EQ(minimal == words, nothing) << shader.file;
    untouched += nothing;
  }
  EXPECT_GT(untouched, 0u) << "no corpus shader exercises the skip";
  // The performance recipe always runs (it has passes for every module).
  std::vector<uint32_t> words = CorpusWords("reduce.comp.spv"), performance;
  std::string message;
  ASSERT_TRUE(pipeline::SpecializeAndOptimize(words, env, {}, pipeline::OptimizationRecipe::Performance,
                                              &performance, &message));
  EXPECT_NE(performance, words);
}

TEST(OptimizerRecipeTest, CompilingTheOptimisedOutputAgainGivesTheSameIr) {
  // What the pipeline cache stores is the recipe's SPIR-V: inlined, spec constants frozen. Compiling it again (a
  // cache hit lowers it with CompileOptimized) registers no SPIR-V pass and gives the same IR, because every other
  // pass runs on the IR in both cases.
  for (const char* file : {"function_calls.comp.spv", "spec_constants.comp.spv", "private_storage.comp.spv"}) {
    SCOPED_TRACE(file);
    pipeline::CompiledShader first = MustCompile(file);
    pipeline::ModuleContents contents = pipeline::ScanModuleContents(first.optimizedSpirv);
    EXPECT_FALSE(contents.functionCalls);
    EXPECT_FALSE(contents.specConstants);
    pipeline::CompileOptions options;
    pipeline::CompiledShader second;
    pipeline::CompileError error;
    ASSERT_TRUE(pipeline::Compile(first.optimizedSpirv, options, &second, &error)) << error.message;
    EXPECT_EQ(second.optimizedSpirv, first.optimizedSpirv);
    EXPECT_EQ(second.module.InstructionCount(), first.module.InstructionCount());
    EXPECT_EQ(second.module.function.blocks.size(), first.module.function.blocks.size());
  }
}

}  // namespace
}  // namespace crashtest::test
