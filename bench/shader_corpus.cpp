#include "shader_corpus.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace crashtest::bench {
namespace {

namespace fs = std::filesystem;

bool has_spirv(const std::string& directory) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) return false;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (entry.path().extension() == ".spv") return true;
  }
  return false;
}

std::string choose_directory() {
  if (const char* chosen = std::getenv("CRASHTEST_BENCH_SHADERS"); chosen && *chosen) return chosen;
  if (has_spirv(CRASHTEST_BENCH_CORPUS_DIR)) return CRASHTEST_BENCH_CORPUS_DIR;
  return CRASHTEST_BENCH_OWN_SHADERS_DIR;
}

void read_shader(CorpusShader& shader) {
  std::ifstream file(shader.path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file.good() && !file.eof()) {
    shader.error = "cannot read " + shader.path;
    return;
  }
  if (bytes.empty() || bytes.size() % 4 != 0) {
    shader.error = shader.path + " is " + std::to_string(bytes.size()) + " bytes, not a whole number of words";
    return;
  }
  shader.words.resize(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(shader.words.data()));
  std::string error;
  shader.interface = reflect_spirv(shader.words, &error);
  if (!shader.interface) shader.error = shader.path + ": " + error;
}

}  // namespace

Corpus load_corpus() { return load_corpus_from(choose_directory()); }

Corpus load_own_shaders() { return load_corpus_from(CRASHTEST_BENCH_OWN_SHADERS_DIR); }

Corpus load_corpus_from(const std::string& directory) {
  Corpus corpus;
  corpus.directory = directory;
  std::error_code ec;
  if (!fs::is_directory(corpus.directory, ec)) {
    corpus.error = "shader directory " + corpus.directory + " does not exist (CRASHTEST_BENCH_SHADERS)";
    return corpus;
  }
  for (const auto& entry : fs::directory_iterator(corpus.directory, ec)) {
    if (entry.path().extension() != ".spv") continue;
    CorpusShader shader;
    shader.path = entry.path().string();
    shader.name = entry.path().stem().string();
    read_shader(shader);
    corpus.shaders.push_back(std::move(shader));
  }
  std::sort(corpus.shaders.begin(), corpus.shaders.end(),
            [](const CorpusShader& a, const CorpusShader& b) { return a.name < b.name; });
  if (corpus.shaders.empty()) corpus.error = "no .spv files in " + corpus.directory;
  return corpus;
}

}  // namespace crashtest::bench
