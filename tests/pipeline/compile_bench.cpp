// Compile time per corpus shader: validation + specialisation + optimisation + lowering + verification +
// analyses, the work pipeline creation does per stage. Prints each shader's median over the repetitions and the
// median over the corpus; asserts nothing (timings depend on the machine).
//
//   compile_bench [--repetitions N] [--recipe minimal|lean|performance] [--no-validate] [--filter TEXT]
//   compile_bench --print FILE.spv   (the annotated IR listing of one corpus shader)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pipeline/compiler.h"
#include "pipeline/ir/printer.h"
#include "test_shaders.h"

namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 != 0 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace crashtest;
  int repetitions = 21;
  pipeline::CompileOptions options;
  std::string filter, print;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repetitions") && i + 1 < argc) {
      repetitions = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--recipe") && i + 1 < argc) {
      std::string recipe = argv[++i];
      options.recipe = recipe == "minimal"       ? pipeline::OptimizationRecipe::Minimal
                       : recipe == "performance" ? pipeline::OptimizationRecipe::Performance
                                                 : pipeline::OptimizationRecipe::Lean;
    } else if (!std::strcmp(argv[i], "--no-validate")) {
      options.validate = false;
    } else if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) {
      filter = argv[++i];
    } else if (!std::strcmp(argv[i], "--print") && i + 1 < argc) {
      print = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--repetitions N] [--recipe minimal|lean|performance] [--no-validate] "
                           "[--filter TEXT] | --print FILE.spv\n", argv[0]);
      return 2;
    }
  }
  if (!print.empty()) {
    for (const test::CorpusShader& shader : test::ReadCorpus()) {
      if (shader.file != print) continue;
      options.stage = test::StageBit(shader.stage);
      pipeline::CompiledShader compiled;
      pipeline::CompileError error;
      if (!pipeline::Compile(test::CorpusWords(shader.file), options, &compiled, &error)) {
        std::printf("%s: %s\n", pipeline::CompilePhaseName(error.phase), error.message.c_str());
        return 1;
      }
      std::fputs(ir::Print(compiled.module, {&compiled.loops, &compiled.liveness}).c_str(), stdout);
      return 0;
    }
    std::fprintf(stderr, "%s is not in corpus.txt\n", print.c_str());
    return 2;
  }
  std::printf("%-34s %9s %9s %9s %9s %9s %9s %9s %6s %8s %5s\n", "shader", "total_ms", "valid", "opt", "lower",
              "cleanup", "verify", "analyse", "insts", "bytes", "live");
  std::vector<double> totals, validation, optimization, lowering, cleanup, verification, analysis;
  int failures = 0;
  for (const test::CorpusShader& shader : test::ReadCorpus()) {
    if (!filter.empty() && shader.file.find(filter) == std::string::npos) continue;
    std::vector<uint32_t> words = test::CorpusWords(shader.file);
    options.stage = test::StageBit(shader.stage);
    std::vector<double> runs, v, o, l, c, ve, a;
    pipeline::CompiledShader compiled;
    bool ok = true;
    for (int r = 0; r <= repetitions && ok; ++r) {  // run 0 warms caches and is not counted
      pipeline::CompileError error;
      compiled = pipeline::CompiledShader{};
      if (!pipeline::Compile(words, options, &compiled, &error)) {
        std::printf("%-34s FAILED (%s): %s\n", shader.file.c_str(), pipeline::CompilePhaseName(error.phase),
                    error.message.c_str());
        ok = false;
        ++failures;
        break;
      }
      if (r == 0) continue;
      const pipeline::CompileTimings& t = compiled.timings;
      runs.push_back(static_cast<double>(t.Total()) / 1e6);
      v.push_back(static_cast<double>(t.validation) / 1e6);
      o.push_back(static_cast<double>(t.optimization) / 1e6);
      l.push_back(static_cast<double>(t.lowering) / 1e6);
      c.push_back(static_cast<double>(t.cleanup) / 1e6);
      ve.push_back(static_cast<double>(t.verification) / 1e6);
      a.push_back(static_cast<double>(t.analysis) / 1e6);
    }
    if (!ok) continue;
    totals.push_back(Median(runs));
    validation.push_back(Median(v));
    optimization.push_back(Median(o));
    lowering.push_back(Median(l));
    cleanup.push_back(Median(c));
    verification.push_back(Median(ve));
    analysis.push_back(Median(a));
    std::printf("%-34s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %6zu %8zu %5u\n", shader.file.c_str(),
                totals.back(), validation.back(), optimization.back(), lowering.back(), cleanup.back(),
                verification.back(), analysis.back(),
                compiled.module.InstructionCount(), compiled.module.EncodedSizeBytes(),
                compiled.liveness.MaxLiveComponents());
  }
  std::printf("\nrecipe %s, %zu shaders, %d repetitions each: median of per-shader medians %.3f ms "
              "(validation %.3f, optimisation %.3f, lowering %.3f, clean-up %.3f, verification %.3f, analyses %.3f); "
              "max %.3f ms\n",
              pipeline::RecipeName(options.recipe), totals.size(), repetitions, Median(totals), Median(validation),
              Median(optimization), Median(lowering), Median(cleanup), Median(verification), Median(analysis),
              totals.empty() ? 0.0 : *std::max_element(totals.begin(), totals.end()));
  return failures == 0 ? 0 : 1;
}
