// The lean recipe registers a group of passes only when the module has something for it
// (frontend/optimizer.cpp, ScanModuleContents). These tests pin the scan on corpus shaders whose contents are known
// from their GLSL, and check that what the skipped passes would have done is still done where it is needed.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp>

#include "pipeline/compiler.h"
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
  EXPECT_FALSE(saxpy.privateVariables);
  EXPECT_TRUE(saxpy.functionVariables);  // `uint i = gl_GlobalInvocationID.x` is a Function variable in glslang's output

  EXPECT_TRUE(pipeline::ScanModuleContents(CorpusWords("function_calls.comp.spv")).functionCalls);
  EXPECT_TRUE(pipeline::ScanModuleContents(CorpusWords("private_storage.comp.spv")).privateVariables);
  EXPECT_TRUE(pipeline::ScanModuleContents(CorpusWords("spec_constants.comp.spv")).specConstants);
  EXPECT_FALSE(pipeline::ScanModuleContents(CorpusWords("reduce.comp.spv")).specConstants);
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
  // CCP runs with spec constants: `USE_SHARED && ...` (false by default) leaves no branch on a constant and no
  // workgroup-memory load behind.
  for (const ir::Block& block : spec.module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.op != spv::OpBranchConditional) continue;
      ir::ValueId condition = spec.module.Operands(inst)[0];
      EXPECT_NE(spec.module.values[condition].kind, ir::ValueKind::Constant) << "branch on a constant left behind";
    }
  // The SSA passes ran: saxpy's `i` lives in a register, not in a Function variable.
  pipeline::CompiledShader saxpy = MustCompile("saxpy.comp.spv");
  for (const ir::Block& block : saxpy.module.function.blocks)
    for (const ir::Instruction& inst : block.instructions) EXPECT_NE(inst.op, spv::OpVariable);
}

TEST(OptimizerRecipeTest, OptimisingTheOptimisedOutputAgainChangesNothing) {
  // The optimised SPIR-V has no calls, spec constants or Private variables left (private-to-local made them
  // Function variables; the dynamically indexed tables stay in Function memory, as on a GPU), so a second compile
  // of it registers fewer passes and yields the same IR size.
  pipeline::CompiledShader first = MustCompile("private_storage.comp.spv");
  ASSERT_TRUE(pipeline::ScanModuleContents(CorpusWords("private_storage.comp.spv")).privateVariables);
  pipeline::ModuleContents contents = pipeline::ScanModuleContents(first.optimizedSpirv);
  EXPECT_FALSE(contents.functionCalls);
  EXPECT_FALSE(contents.specConstants);
  EXPECT_FALSE(contents.privateVariables);
  pipeline::CompileOptions options;
  pipeline::CompiledShader second;
  pipeline::CompileError error;
  ASSERT_TRUE(pipeline::Compile(first.optimizedSpirv, options, &second, &error)) << error.message;
  EXPECT_EQ(second.module.InstructionCount(), first.module.InstructionCount());
}

}  // namespace
}  // namespace crashtest::test
