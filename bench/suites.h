// Suites whose benchmarks depend on run-time input (the shader corpus) register them from main().
#pragma once

#include "shader_corpus.h"

namespace crashtest::bench {

// The corpus must outlive the benchmark run: the benchmarks keep pointers to its shaders.
void register_pipeline_benchmarks(const Corpus& corpus);
void register_dispatch_benchmarks(const Corpus& corpus);
// Large dispatches of corpus kernels and of the bench's own (`own`) ALU kernel.
void register_throughput_benchmarks(const Corpus& corpus, const Corpus& own);
// Draws of the bench's own (`own`) vertex and fragment shaders: a new pipeline's first draw, a 1080p textured
// quad, a 100k-triangle mesh.
void register_draw_benchmarks(const Corpus& own);

}  // namespace crashtest::bench
