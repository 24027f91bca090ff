// Every shader of the corpus compiles: validation, specialisation at defaults, the lean recipe, lowering, the IR
// verifier, the analyses, and the printer.
#include <gtest/gtest.h>

#include <algorithm>

#include "pipeline/compiler.h"
#include "pipeline/ir/printer.h"
#include "test_shaders.h"

namespace crashtest::test {
namespace {

class CorpusTest : public ::testing::TestWithParam<CorpusShader> {};

TEST_P(CorpusTest, LowersVerifiesAnalysesAndPrints) {
  const CorpusShader& shader = GetParam();
  std::vector<uint32_t> words = CorpusWords(shader.file);
  pipeline::CompileOptions options;
  options.stage = StageBit(shader.stage);
  pipeline::CompiledShader compiled;
  pipeline::CompileError error;
  ASSERT_TRUE(pipeline::Compile(words, options, &compiled, &error))
      << pipeline::CompilePhaseName(error.phase) << ": " << error.message;
  const ir::Module& module = compiled.module;
  EXPECT_EQ(module.entryPoint.name, "main");
  EXPECT_GT(module.InstructionCount(), 0u);
  EXPECT_GT(module.EncodedSizeBytes(), module.InstructionCount() * 4);
  if (shader.stage == "comp") {
    EXPECT_GT(module.entryPoint.localSize[0], 0u);
  }
  // Corpus shaders tagged `loop` keep at least one loop unless the optimiser could remove it; a shader with no
  // loop tag must have none.
  if (shader.tags.find("loop") == std::string::npos) {
    EXPECT_TRUE(compiled.loops.loops().empty());
  }
  // Every block reachable from the entry is dominated by the entry.
  for (ir::BlockId b : compiled.dominators.ReversePostOrder()) EXPECT_TRUE(compiled.dominators.Dominates(0, b));

  std::string text = ir::Print(module, {&compiled.loops, &compiled.liveness});
  EXPECT_NE(text.find("block0:"), std::string::npos);
  EXPECT_NE(text.find("; live "), std::string::npos);
  // One line per instruction, plus header, globals and block labels.
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_GE(lines, module.InstructionCount() + module.function.blocks.size());
}

std::string ShaderName(const ::testing::TestParamInfo<CorpusShader>& info) { return CorpusTestName(info.param); }

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(ReadCorpus()), ShaderName);

TEST(CorpusTest, CorpusIsComplete) {
  // docs/shader-corpus.md promises at least 48 general shaders plus the statistics families.
  EXPECT_GE(ReadCorpus().size(), 64u);
}

}  // namespace
}  // namespace crashtest::test
