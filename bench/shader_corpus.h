// The SPIR-V corpus the pipeline and dispatch suites run: every `*.spv` in one directory, reflected once.
//
// Directory: $CRASHTEST_BENCH_SHADERS, else the build tree's tests/shaders output when it holds .spv files, else
// the bench's own shaders (bench/shaders, compiled at build time) so the suites work before the corpus exists.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spirv_reflect.h"

namespace crashtest::bench {

struct CorpusShader {
  std::string name;                      // file name without ".spv", e.g. "saxpy.comp"
  std::string path;
  std::vector<uint32_t> words;
  std::optional<ShaderInterface> interface;
  std::string error;                     // why the file could not be read or reflected ("" when fine)
};

struct Corpus {
  std::string directory;
  std::vector<CorpusShader> shaders;     // sorted by name
  std::string error;                     // set when the directory itself is unusable
};

Corpus load_corpus();
// The shaders of one directory; load_own_shaders: bench/shaders' own kernels.
Corpus load_corpus_from(const std::string& directory);
Corpus load_own_shaders();

}  // namespace crashtest::bench
