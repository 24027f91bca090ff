// crashtest-bench: every suite in one executable, so bench/compare starts one process per ICD and repetition and
// the loader and driver load once per process; --benchmark_filter selects suites. Startup, recording, submit,
// copy and fault benchmarks register statically; the corpus-driven ones register here.
#include <benchmark/benchmark.h>

#include "suites.h"
#include "vk_context.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const crashtest::bench::Corpus corpus = crashtest::bench::load_corpus();
  crashtest::bench::register_pipeline_benchmarks(corpus);
  crashtest::bench::register_dispatch_benchmarks(corpus);
  const crashtest::bench::Corpus own = crashtest::bench::load_own_shaders();
  crashtest::bench::register_throughput_benchmarks(corpus, own);
  crashtest::bench::register_draw_benchmarks(own);
  benchmark::AddCustomContext("shader_corpus", corpus.directory);
  if (!corpus.error.empty()) benchmark::AddCustomContext("shader_corpus_error", corpus.error);
  benchmark::RunSpecifiedBenchmarks();
  // Devices and instances go before static destruction, while the loader is certainly still loaded.
  crashtest::bench::ContextCache::release_all();
  benchmark::Shutdown();
  return 0;
}
