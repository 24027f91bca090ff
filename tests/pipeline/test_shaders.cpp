#include "test_shaders.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace crashtest::test {

std::vector<uint32_t> ReadSpirvFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(words.size() * 4),
            reinterpret_cast<char*>(words.data()));
  return words;
}

std::vector<uint32_t> CorpusWords(const std::string& file) {
  if (!file.empty() && file[0] == '/') return ReadSpirvFile(file);  // a module outside the corpus
  return ReadSpirvFile(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/" + file);
}

std::vector<uint32_t> CompilerTestWords(const std::string& file) {
  return ReadSpirvFile(std::string(CRASHTEST_COMPILER_TEST_SHADER_DIR) + "/" + file);
}

std::vector<CorpusShader> ReadCorpus() {
  std::ifstream file(std::string(CRASHTEST_SHADER_CORPUS_DIR) + "/corpus.txt");
  if (!file) throw std::runtime_error("cannot open corpus.txt");
  std::vector<CorpusShader> shaders;
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    CorpusShader shader;
    fields >> shader.file >> shader.stage >> shader.tags;
    shaders.push_back(shader);
  }
  return shaders;
}

VkShaderStageFlagBits StageBit(const std::string& stage) {
  if (stage == "vert") return VK_SHADER_STAGE_VERTEX_BIT;
  if (stage == "tesc") return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  if (stage == "tese") return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  if (stage == "geom") return VK_SHADER_STAGE_GEOMETRY_BIT;
  if (stage == "frag") return VK_SHADER_STAGE_FRAGMENT_BIT;
  return VK_SHADER_STAGE_COMPUTE_BIT;
}

namespace {

constexpr uint32_t kOpCapability = 17, kOpTypeInt = 21, kOpStore = 62;

// Offsets of the instructions after the 5-word header.
std::vector<size_t> InstructionOffsets(const std::vector<uint32_t>& words) {
  std::vector<size_t> offsets;
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) offsets.push_back(at);
  return offsets;
}

}  // namespace

std::vector<InvalidSpirvCase> InvalidSpirvCases(const std::vector<uint32_t>& valid) {
  std::vector<InvalidSpirvCase> cases;
  cases.push_back({"header only, truncated", {valid.begin(), valid.begin() + 3}, "truncated module"});
  {
    // Cut inside an instruction: its word count promises more words than remain.
    size_t cut = valid.size() - 1;
    for (size_t at : InstructionOffsets(valid))
      if ((valid[at] & 0xffff) == kOpStore) cut = at + 2;
    std::vector<uint32_t> words(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(cut));
    cases.push_back({"truncated inside an instruction", words, "End of input reached"});
  }
  {
    std::vector<uint32_t> words = valid;
    words[0] = 0x03022307;  // byte-swapped magic
    cases.push_back({"wrong magic", words, "wrong magic number 0x03022307"});
  }
  {
    // An OpStore whose pointer operand names an id beyond the module's bound.
    std::vector<uint32_t> words = valid;
    for (size_t at : InstructionOffsets(words))
      if ((words[at] & 0xffff) == kOpStore) {
        words[at + 1] = words[3] + 10;
        break;
      }
    cases.push_back({"undefined id", words, "has not been defined"});
  }
  {
    // An OpStore whose object operand names the 32-bit integer type: the message must name that id the way
    // spirv-val does, "%uint" or "%int", not just its number (the validator runs without friendly names first and
    // again with them only for the message).
    std::vector<uint32_t> words = valid;
    uint32_t intType = 0;
    for (size_t at : InstructionOffsets(words))
      if ((words[at] & 0xffff) == kOpTypeInt && words[at + 2] == 32) intType = words[at + 1];
    for (size_t at : InstructionOffsets(words))
      if ((words[at] & 0xffff) == kOpStore && intType != 0) {
        words[at + 2] = intType;
        break;
      }
    cases.push_back({"operand names a type (message uses friendly names)", words, "int]' cannot be a type"});
  }
  {
    // Without OpCapability Shader every instruction of a Vulkan shader is invalid.
    std::vector<uint32_t> words;
    auto offsets = InstructionOffsets(valid);
    words.assign(valid.begin(), valid.begin() + 5);
    for (size_t at : offsets) {
      uint32_t count = valid[at] >> 16;
      if ((valid[at] & 0xffff) == kOpCapability && valid[at + 1] == 1 /* Shader */) continue;
      words.insert(words.end(), valid.begin() + static_cast<std::ptrdiff_t>(at),
                   valid.begin() + static_cast<std::ptrdiff_t>(at + count));
    }
    cases.push_back({"fails validation (no Shader capability)", words, "capabilit"});
  }
  return cases;
}

std::string CorpusTestName(const CorpusShader& shader) {
  std::string name = shader.file.substr(0, shader.file.size() - 4);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

}  // namespace crashtest::test
