// The table-driven SPIR-V reader (src/pipeline/lowering/spirv_reader) against SPIRV-Tools' spvBinaryParse, which
// it replaced: on every corpus and test shader, before and after the optimiser, and on hand-written modules that
// reach the operand shapes glslang rarely emits, it must report the same instructions and the same operands (offset,
// word count and spv_operand_type_t). Malformed words must fail with a message naming the word, never read past them.
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "pipeline/compiler.h"
#include "pipeline/lowering/spirv_reader.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

// The reader as it was: SPIRV-Tools' binary parser with the grammar of `env`.
struct ReferenceState {
  pipeline::SpirvModule* module;
};

spv_result_t OnReferenceHeader(void* userData, spv_endianness_t, uint32_t, uint32_t version, uint32_t, uint32_t bound,
                               uint32_t) {
  auto* state = static_cast<ReferenceState*>(userData);
  state->module->version = version;
  state->module->bound = bound;
  return SPV_SUCCESS;
}

spv_result_t OnReferenceInstruction(void* userData, const spv_parsed_instruction_t* parsed) {
  pipeline::SpirvModule& module = *static_cast<ReferenceState*>(userData)->module;
  pipeline::SpirvInstruction inst{};
  inst.opcode = parsed->opcode;
  inst.numWords = parsed->num_words;
  inst.wordOffset = static_cast<uint32_t>(parsed->words - module.words.data());
  inst.typeId = parsed->type_id;
  inst.resultId = parsed->result_id;
  inst.firstOperand = static_cast<uint32_t>(module.operands.size());
  inst.operandCount = parsed->num_operands;
  for (uint16_t i = 0; i < parsed->num_operands; ++i) {
    const spv_parsed_operand_t& operand = parsed->operands[i];
    module.operands.push_back({operand.offset, operand.num_words, operand.type});
  }
  module.instructions.push_back(inst);
  return SPV_SUCCESS;
}

// Not inlined, so that callgrind can count it: valgrind --tool=callgrind --toggle-collect='*ReferenceRead*'.
[[gnu::noinline]] bool ReferenceRead(std::span<const uint32_t> words, spv_target_env env,
                                    pipeline::SpirvModule* module, std::string* message) {
  // As ReadSpirv did before the tables, reserve included, so that callgrind compares like with like.
  module->words = words;
  module->instructions.reserve(words.size() / 3);
  module->operands.reserve(words.size());
  spv_context context = spvContextCreate(env);
  ReferenceState state{module};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvBinaryParse(context, &state, words.data(), words.size(), OnReferenceHeader,
                                       OnReferenceInstruction, &diagnostic);
  if (result != SPV_SUCCESS && diagnostic != nullptr) *message = diagnostic->error;
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return result == SPV_SUCCESS;
}

std::vector<uint32_t> Assemble(const std::string& text) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic);
  std::vector<uint32_t> words;
  if (result == SPV_SUCCESS) words.assign(binary->code, binary->code + binary->wordCount);
  else ADD_FAILURE() << "spirv-as: " << (diagnostic != nullptr ? diagnostic->error : "failed");
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return words;
}

// Compares operand by operand; returns how many operands were compared (so a test can insist it saw some).
size_t ExpectSameAsReference(const std::vector<uint32_t>& words, const std::string& what) {
  SCOPED_TRACE(what);
  pipeline::SpirvModule expected, actual;
  std::string expectedMessage, actualMessage;
  EXPECT_TRUE(ReferenceRead(words, SPV_ENV_UNIVERSAL_1_6, &expected, &expectedMessage)) << expectedMessage;
  EXPECT_TRUE(pipeline::ReadSpirv(words, SPV_ENV_VULKAN_1_3, &actual, &actualMessage)) << actualMessage;
  EXPECT_EQ(actual.version, expected.version);
  EXPECT_EQ(actual.bound, expected.bound);
  EXPECT_EQ(actual.words.data(), words.data());
  EXPECT_EQ(actual.instructions.size(), expected.instructions.size());
  size_t compared = 0;
  for (size_t i = 0; i < std::min(actual.instructions.size(), expected.instructions.size()); ++i) {
    const pipeline::SpirvInstruction& a = actual.instructions[i];
    const pipeline::SpirvInstruction& e = expected.instructions[i];
    SCOPED_TRACE("instruction " + std::to_string(i) + " at word " + std::to_string(e.wordOffset) + ", opcode " +
                 std::to_string(e.opcode));
    EXPECT_EQ(a.opcode, e.opcode);
    EXPECT_EQ(a.numWords, e.numWords);
    EXPECT_EQ(a.wordOffset, e.wordOffset);
    EXPECT_EQ(a.typeId, e.typeId);
    EXPECT_EQ(a.resultId, e.resultId);
    EXPECT_EQ(a.firstOperand, e.firstOperand);
    EXPECT_EQ(a.operandCount, e.operandCount);
    auto actualOperands = actual.OperandsOf(a);
    auto expectedOperands = expected.OperandsOf(e);
    for (size_t k = 0; k < std::min(actualOperands.size(), expectedOperands.size()); ++k) {
      EXPECT_EQ(actualOperands[k].offset, expectedOperands[k].offset) << "operand " << k;
      EXPECT_EQ(actualOperands[k].numWords, expectedOperands[k].numWords) << "operand " << k;
      EXPECT_EQ(actualOperands[k].type, expectedOperands[k].type) << "operand " << k;
      ++compared;
    }
    if (::testing::Test::HasFailure()) break;  // one broken instruction is enough to read
  }
  return compared;
}

std::vector<std::string> TestShaderFiles() {
  return {"diamond.comp.spv", "interlock.frag.spv", "specialized_size.comp.spv", "saxpy.comp.spv",
          "spec_constants.comp.spv", "push_constants.comp.spv", "uniform_buffer.comp.spv", "image_blur.comp.spv",
          "texel_buffers.comp.spv", "fullscreen_triangle.vert.spv", "mesh_transform.vert.spv", "phong.frag.spv",
          "pn_triangles.tesc.spv", "pn_triangles.tese.spv", "wireframe.geom.spv"};
}

class SpirvReaderCorpusTest : public ::testing::TestWithParam<CorpusShader> {};

// Separate from the optimised case so that callgrind can compare the two readers on the same calls.
TEST_P(SpirvReaderCorpusTest, SameAsSpvBinaryParse) {
  EXPECT_GT(ExpectSameAsReference(CorpusWords(GetParam().file), "as compiled by glslang"), 0u);
}

TEST_P(SpirvReaderCorpusTest, OptimisedSameAsSpvBinaryParse) {
  const CorpusShader& shader = GetParam();
  std::vector<uint32_t> words = CorpusWords(shader.file);
  pipeline::CompileOptions options;
  options.stage = StageBit(shader.stage);
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  ASSERT_TRUE(pipeline::Compile(words, options, &compiled, &error)) << error.message;
  EXPECT_GT(ExpectSameAsReference(compiled.optimizedSpirv, "optimised"), 0u);
}

std::string ShaderName(const ::testing::TestParamInfo<CorpusShader>& info) { return CorpusTestName(info.param); }

INSTANTIATE_TEST_SUITE_P(Corpus, SpirvReaderCorpusTest, ::testing::ValuesIn(ReadCorpus()), ShaderName);

TEST(SpirvReaderTest, TestShadersSameAsSpvBinaryParse) {
  for (const std::string& file : TestShaderFiles()) EXPECT_GT(ExpectSameAsReference(CompilerTestWords(file), file), 0u);
}

// Operand shapes the corpus barely reaches: 64-bit and 16-bit context-dependent numbers (OpConstant, OpSwitch on a
// 64-bit selector), OpSpecConstantOp with the embedded opcode's operands, enum values and bits that add operands
// (Decoration, ExecutionMode, LoopControl with two parameter bits, MemoryAccess twice on OpCopyMemory, ImageOperands
// with several bits), the pair kinds (OpPhi, OpSwitch, OpGroupMemberDecorate), optional trailing operands (OpSource,
// OpTypeImage's access qualifier), strings of every length mod 4, and OpExtInst of a non-semantic set.
const char* kOperandShapes = R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability Float16
               OpCapability Float64
               OpCapability Kernel
               OpCapability ImageQuery
               OpCapability Linkage
               OpExtension "SPV_KHR_non_semantic_info"
          %1 = OpExtInstImport "GLSL.std.450"
          %2 = OpExtInstImport "NonSemantic.DebugPrintf"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 8 4 1
               OpSource GLSL 450 %file "src"
               OpSource GLSL 450
               OpSourceExtension "a"
               OpSourceExtension "ab"
               OpSourceExtension "abc"
               OpSourceExtension "abcd"
       %file = OpString "file.comp"
               OpName %main "main"
               OpDecorate %sc SpecId 7
               OpDecorate %ssbo Block
               OpDecorate %var DescriptorSet 0
               OpDecorate %var LinkageAttributes "sym" Export
               OpMemberDecorate %ssbo 0 Offset 0
               OpDecorate %var BuiltIn WorkgroupId
         %dg = OpDecorationGroup
               OpGroupMemberDecorate %dg %ssbo 0 %ssbo 1
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %short = OpTypeInt 16 1
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
       %half = OpTypeFloat 16
     %v4float = OpTypeVector %float 4
        %img = OpTypeImage %float 2D 0 0 0 1 Unknown ReadOnly
       %simg = OpTypeImage %float 2D 0 0 0 1 Unknown
    %sampled = OpTypeSampledImage %simg
     %v2uint = OpTypeVector %uint 2
       %ssbo = OpTypeStruct %uint %float
   %ptr_ssbo = OpTypePointer StorageBuffer %ssbo
   %ptr_func = OpTypePointer Function %uint
  %ptr_simg = OpTypePointer UniformConstant %sampled
      %fnty = OpTypeFunction %void
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %ulong_big = OpConstant %ulong 0x123456789
     %short_m = OpConstant %short -3
     %dbl = OpConstant %double 2.5
     %hlf = OpConstant %half 1.5
     %flt = OpConstant %float 0.5
         %sc = OpSpecConstant %uint 3
        %sco = OpSpecConstantOp %uint IAdd %sc %uint_1
       %sco2 = OpSpecConstantOp %uint CompositeExtract %cc 1
         %cc = OpConstantComposite %v2uint %uint_0 %uint_1
        %var = OpVariable %ptr_ssbo StorageBuffer
       %tex = OpVariable %ptr_simg UniformConstant
       %main = OpFunction %void None %fnty
      %entry = OpLabel
         %a = OpVariable %ptr_func Function
         %b = OpVariable %ptr_func Function
               OpStore %a %uint_1 Aligned|Volatile 4
               OpCopyMemory %a %b Aligned 4 Aligned 8
         %ld = OpLoad %uint %a Volatile|Aligned 16
         %ext = OpExtInst %float %1 FMix %flt %flt %flt
         %prn = OpExtInst %void %2 1 %file %ld %ld
         %si = OpLoad %sampled %tex
         %coord = OpCompositeConstruct %v2uint %uint_0 %uint_1
         %fcoord = OpConvertUToF %float %uint_0
         %v2f = OpCompositeConstruct %v4float %fcoord %fcoord %fcoord %fcoord
         %smp = OpImageSampleExplicitLod %v4float %si %v2f Lod|ConstOffset %flt %coord
         %sel = OpUConvert %ulong %ld
               OpSelectionMerge %merge None
               OpSwitch %sel %merge 1 %case 0x100000000 %case
       %case = OpLabel
               OpBranch %loop
       %loop = OpLabel
        %phi = OpPhi %uint %uint_0 %case %next %cont
               OpLoopMerge %merge2 %cont DependencyLength|MinIterations 4 2
               OpBranch %cont
       %cont = OpLabel
       %next = OpIAdd %uint %phi %uint_1
               OpBranchConditional %bool_c %loop %merge2
     %merge2 = OpLabel
               OpBranch %merge
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
     %bool_c = OpConstantTrue %bool
)";

TEST(SpirvReaderTest, OperandShapesSameAsSpvBinaryParse) {
  std::vector<uint32_t> words = Assemble(kOperandShapes);
  ASSERT_FALSE(words.empty());
  EXPECT_GT(ExpectSameAsReference(words, "operand shapes"), 100u);

  // Spot checks that do not depend on the reference: the 64-bit OpSwitch literal takes two words, the one after it
  // is the label.
  pipeline::SpirvModule module;
  std::string message;
  ASSERT_TRUE(pipeline::ReadSpirv(words, SPV_ENV_VULKAN_1_3, &module, &message)) << message;
  auto sw = std::find_if(module.instructions.begin(), module.instructions.end(),
                         [](const pipeline::SpirvInstruction& inst) { return inst.opcode == 251; /* OpSwitch */ });
  ASSERT_NE(sw, module.instructions.end());
  auto operands = module.OperandsOf(*sw);
  ASSERT_EQ(operands.size(), 6u);
  EXPECT_EQ(operands[2].type, SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER);
  EXPECT_EQ(operands[2].numWords, 2u);
  EXPECT_EQ(operands[4].numWords, 2u);
  EXPECT_EQ(module.Word(*sw, operands[4], 1), 1u);  // 0x100000000: high word
  EXPECT_EQ(operands[5].type, SPV_OPERAND_TYPE_ID);
}

// A valid module to break: OpCapability Shader, OpMemoryModel, ..., with known offsets.
std::vector<uint32_t> SmallModule() {
  return Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %main "main"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
       %fnty = OpTypeFunction %void
       %main = OpFunction %void None %fnty
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
}

// Offset of the first instruction with `opcode`.
size_t OffsetOf(const std::vector<uint32_t>& words, uint32_t opcode) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16)
    if ((words[at] & 0xffff) == opcode) return at;
  ADD_FAILURE() << "no opcode " << opcode;
  return 0;
}

struct MalformedCase {
  std::string name;
  std::vector<uint32_t> words;
  std::string expected;  // substring of the message
};

std::vector<MalformedCase> MalformedCases() {
  constexpr uint32_t kOpName = 5, kOpEntryPoint = 15, kOpExecutionMode = 16, kOpTypeInt = 21, kOpConstant = 43,
                     kOpReturn = 253;
  const std::vector<uint32_t> valid = SmallModule();
  std::vector<MalformedCase> cases;
  cases.push_back({"empty", {}, "truncated module: 0 words"});
  cases.push_back({"header cut", {valid.begin(), valid.begin() + 4}, "truncated module: 4 words"});
  {
    std::vector<uint32_t> words = valid;
    words[0] = 0x03022307;
    cases.push_back({"byte-swapped magic", words, "wrong magic number 0x03022307"});
  }
  {
    std::vector<uint32_t> words = valid;
    words[3] = 0x7fffffff;
    cases.push_back({"id bound above the universal limit", words, "above SPIR-V's limit of 4194303"});
  }
  {
    size_t at = OffsetOf(valid, kOpConstant);
    std::vector<uint32_t> words(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(at + 2));
    cases.push_back({"truncated inside an instruction", words,
                     "SPIR-V word " + std::to_string(at) + ": OpConstant: word count 4 runs past the end"});
  }
  {
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpReturn);
    words[at] = kOpReturn;  // word count 0
    cases.push_back({"zero word count", words, "SPIR-V word " + std::to_string(at) + ": OpReturn: word count 0"});
  }
  {
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpReturn);
    words[at] = (1u << 16) | 4999;
    cases.push_back(
        {"unknown opcode", words, "SPIR-V word " + std::to_string(at) + ": Op<4999>: opcode 4999 is not in"});
  }
  {
    // OpExecutionMode %main LocalSize with the word count cut to 4: LocalSize's y and z run past it.
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpExecutionMode);
    words[at] = (4u << 16) | kOpExecutionMode;
    cases.push_back({"enum parameter past the instruction", words,
                     "SPIR-V word " + std::to_string(at) + ": OpExecutionMode: word count 4 ends before operand 1"});
  }
  {
    // OpConstant of a 64-bit type with one value word: the literal runs past the instruction.
    std::vector<uint32_t> words = valid;
    words[OffsetOf(words, kOpTypeInt) + 2] = 64;
    size_t at = OffsetOf(words, kOpConstant);
    cases.push_back({"64-bit literal past the instruction", words,
                     "SPIR-V word " + std::to_string(at) + ": OpConstant: operand at word 3 needs 2 words"});
  }
  {
    // OpName's string loses its terminator: the NUL-padded word becomes "abcd".
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpName);
    words[at + 3] = 0x64636261;
    cases.push_back({"string without NUL", words, "SPIR-V word " + std::to_string(at) + ": OpName: literal string"});
  }
  {
    // OpTypeInt with a fifth word the grammar has no operand for.
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpTypeInt);
    words[at] = (5u << 16) | kOpTypeInt;
    words.insert(words.begin() + static_cast<std::ptrdiff_t>(at + 4), 0);
    cases.push_back({"extra operand words", words, "SPIR-V word " + std::to_string(at) + ": OpTypeInt: word count 5"});
  }
  {
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpEntryPoint);
    words[at + 2] = words[3] + 5;
    cases.push_back({"id at or above the bound", words, "SPIR-V word " + std::to_string(at) + ": OpEntryPoint: id "});
  }
  {
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpExecutionMode);
    words[at + 2] = 12345;  // no such ExecutionMode
    cases.push_back({"unknown enum value", words, "ExecutionMode 12345 is not in the SPIR-V grammar"});
  }
  {
    std::vector<uint32_t> words = valid;
    size_t at = OffsetOf(words, kOpConstant);
    words[at + 2] = words[OffsetOf(words, kOpTypeInt) + 1];  // the constant's result id is the type's
    cases.push_back(
        {"result id defined twice", words, "SPIR-V word " + std::to_string(at) + ": OpConstant: result id"});
  }
  return cases;
}

TEST(SpirvReaderTest, MalformedWordsFailWithTheWordOffset) {
  for (const MalformedCase& c : MalformedCases()) {
    SCOPED_TRACE(c.name);
    // Exact-size heap copies, so AddressSanitizer sees any read past the words.
    std::vector<uint32_t> words(c.words);
    words.shrink_to_fit();
    pipeline::SpirvModule module;
    std::string message;
    EXPECT_FALSE(pipeline::ReadSpirv(words, SPV_ENV_VULKAN_1_3, &module, &message));
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
}

TEST(SpirvReaderTest, MalformedCasesAreValidWithoutTheBreak) {
  // The cases break one thing each: the module they start from reads cleanly.
  std::vector<uint32_t> words = SmallModule();
  pipeline::SpirvModule module;
  std::string message;
  ASSERT_TRUE(pipeline::ReadSpirv(words, SPV_ENV_VULKAN_1_3, &module, &message)) << message;
  EXPECT_EQ(module.instructions.size(), 13u);
  ExpectSameAsReference(words, "small module");
}

TEST(SpirvReaderTest, CachedWordsThatDoNotReadFailLoweringCleanly) {
  // The pipeline cache lowers stored words without the optimiser: a reader failure is a lowering error.
  std::vector<uint32_t> words = SmallModule();
  words[OffsetOf(words, 253 /* OpReturn */)] = 253;  // word count 0
  pipeline::CompileOptions options;
  options.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  EXPECT_FALSE(pipeline::CompileOptimized(words, options, &compiled, &error));
  EXPECT_EQ(error.phase, pipeline::CompilePhase::Lowering);
  EXPECT_NE(error.message.find("word count 0"), std::string::npos) << error.message;
}

}  // namespace
}  // namespace crashtest::test
