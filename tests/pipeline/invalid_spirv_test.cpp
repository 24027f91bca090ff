// Invalid SPIR-V fails in the validation phase with a message that says what is wrong; lowering failures name
// the opcode and the instruction's id.
#include <gtest/gtest.h>

#include "pipeline/compiler.h"
#include "pipeline/lowering/lower_spirv.h"
#include "pipeline/lowering/spirv_reader.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

TEST(InvalidSpirvTest, EachCaseFailsValidationWithItsMessage) {
  std::vector<uint32_t> valid = CompilerTestWords("diamond.comp.spv");
  for (const InvalidSpirvCase& c : InvalidSpirvCases(valid)) {
    SCOPED_TRACE(c.name);
    pipeline::CompileOptions options;
    options.vulkanApiVersion = VK_API_VERSION_1_0;
    pipeline::CompiledShader compiled;
    pipeline::CompileError error;
    EXPECT_FALSE(pipeline::Compile(c.words, options, &compiled, &error));
    EXPECT_EQ(error.phase, pipeline::CompilePhase::Validation);
    EXPECT_NE(error.message.find(c.expectedMessage), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("Vulkan 1.0"), std::string::npos) << error.message;
    EXPECT_EQ(error.message.find('\n'), std::string::npos) << "messages are one log line";
  }
}

TEST(InvalidSpirvTest, ValidModuleCompiles) {
  pipeline::CompileOptions options;
  options.vulkanApiVersion = VK_API_VERSION_1_0;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_TRUE(pipeline::Compile(CompilerTestWords("diamond.comp.spv"), options, &compiled, &error)) << error.message;
}

TEST(InvalidSpirvTest, NewerSpirvThanTheDeviceAcceptsFails) {
  // The corpus is SPIR-V 1.6: valid for Vulkan 1.3, not for a Vulkan 1.0 device.
  pipeline::CompileOptions options;
  options.vulkanApiVersion = VK_API_VERSION_1_0;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_FALSE(pipeline::Compile(CorpusWords("saxpy.comp.spv"), options, &compiled, &error));
  EXPECT_EQ(error.phase, pipeline::CompilePhase::Validation);
  options.vulkanApiVersion = VK_API_VERSION_1_3;
  EXPECT_TRUE(pipeline::Compile(CorpusWords("saxpy.comp.spv"), options, &compiled, &error)) << error.message;
}

TEST(InvalidSpirvTest, MissingEntryPointNamesWhatExists) {
  pipeline::CompileOptions options;
  options.entryPoint = "not_main";
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_FALSE(pipeline::Compile(CorpusWords("saxpy.comp.spv"), options, &compiled, &error));
  EXPECT_EQ(error.phase, pipeline::CompilePhase::Lowering);
  EXPECT_NE(error.message.find("no entry point \"not_main\" for execution model GLCompute"), std::string::npos)
      << error.message;
  EXPECT_NE(error.message.find("\"main\" (GLCompute)"), std::string::npos) << error.message;
  // Right name, wrong stage.
  options.entryPoint = "main";
  options.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  EXPECT_FALSE(pipeline::Compile(CorpusWords("saxpy.comp.spv"), options, &compiled, &error));
  EXPECT_NE(error.message.find("execution model Fragment"), std::string::npos) << error.message;
}

TEST(InvalidSpirvTest, SpecializationDataOutOfRangeFails) {
  uint32_t data = 64;
  VkSpecializationMapEntry entry{0, 2, 4};  // bytes 2..6 of a 4-byte buffer
  VkSpecializationInfo info{1, &entry, sizeof data, &data};
  pipeline::CompileOptions options;
  options.specialization = &info;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_FALSE(pipeline::Compile(CorpusWords("spec_constants.comp.spv"), options, &compiled, &error));
  EXPECT_EQ(error.phase, pipeline::CompilePhase::Specialization);
  EXPECT_NE(error.message.find("constantID 0"), std::string::npos) << error.message;
}

TEST(InvalidSpirvTest, UnsupportedConstructNamesOpcodeAndId) {
  // Lowering the unoptimised module meets calls the front end would have inlined: a clean failure, never a crash.
  std::vector<uint32_t> words = CorpusWords("function_calls.comp.spv");
  pipeline::SpirvModule spirv;
  std::string message;
  ASSERT_TRUE(pipeline::ReadSpirv(words, SPV_ENV_VULKAN_1_3, &spirv, &message)) << message;
  ir::Module module;
  EXPECT_FALSE(pipeline::LowerSpirv(spirv, "main", 5 /* GLCompute */, &module, &message));
  EXPECT_NE(message.find("OpFunctionCall (result %"), std::string::npos) << message;
  EXPECT_NE(message.find("did not inline"), std::string::npos) << message;
}

}  // namespace
}  // namespace crashtest::test

namespace crashtest::test {
namespace {

TEST(InvalidSpirvTest, UnsupportedInstructionFailsLoweringByName) {
  pipeline::CompileOptions options;
  options.vulkanApiVersion = VK_API_VERSION_1_0;
  options.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_FALSE(pipeline::Compile(CompilerTestWords("interlock.frag.spv"), options, &compiled, &error));
  EXPECT_EQ(error.phase, pipeline::CompilePhase::Lowering);
  EXPECT_NE(error.message.find("unsupported instruction OpBeginInvocationInterlockEXT (at word "), std::string::npos)
      << error.message;
}

}  // namespace
}  // namespace crashtest::test
