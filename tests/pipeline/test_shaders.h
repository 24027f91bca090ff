// Shader files for the pipeline tests: the shared corpus (tests/shaders, listed in corpus.txt) and this
// directory's purpose-built shaders, plus deliberately broken SPIR-V for the invalid-input tables.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace crashtest::test {

struct CorpusShader {
  std::string file;   // e.g. "reduce.comp.spv"
  std::string stage;  // comp, vert, frag, geom, tesc, tese
  std::string tags;   // comma-separated
};

std::vector<CorpusShader> ReadCorpus();  // every module of corpus.txt
std::vector<uint32_t> ReadSpirvFile(const std::string& path);
std::vector<uint32_t> CorpusWords(const std::string& file);  // a corpus file name, or an absolute path
std::vector<uint32_t> CompilerTestWords(const std::string& file);  // tests/pipeline/shaders
VkShaderStageFlagBits StageBit(const std::string& stage);
// A test name for a corpus shader in parameterised suites: "reduce_comp" for "reduce.comp.spv".
std::string CorpusTestName(const CorpusShader& shader);

// One broken module per way SPIR-V can be invalid, each derived from a valid SPIR-V 1.0 module.
struct InvalidSpirvCase {
  const char* name;
  std::vector<uint32_t> words;
  const char* expectedMessage;  // a substring of the error message
};
std::vector<InvalidSpirvCase> InvalidSpirvCases(const std::vector<uint32_t>& valid);

}  // namespace crashtest::test
