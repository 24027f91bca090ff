// Cost of the statistics next to the compile they follow, per corpus shader: the issue's budget is "statistics
// add at most 20 % to pipeline creation time". Pipeline creation compiles without validation (the module was
// validated at vkCreateShaderModule) with the lean recipe; this measures that compile, ComputeStatistics, and the
// full executable with both capture flags (statistics + SPIR-V disassembly + annotated IR).
//
// Usage: statistics_bench CORPUS_DIR [--repetitions N] [--device NAME]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline/compiler.h"
#include "profile/config.h"
#include "statistics/executable_builder.h"
#include "statistics/shader_statistics.h"

namespace {

using Clock = std::chrono::steady_clock;

double Milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

VkShaderStageFlagBits StageOf(const std::string& stage) {
  if (stage == "vert") return VK_SHADER_STAGE_VERTEX_BIT;
  if (stage == "tesc") return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  if (stage == "tese") return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  if (stage == "geom") return VK_SHADER_STAGE_GEOMETRY_BIT;
  if (stage == "frag") return VK_SHADER_STAGE_FRAGMENT_BIT;
  return VK_SHADER_STAGE_COMPUTE_BIT;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: statistics_bench CORPUS_DIR [--repetitions N] [--device NAME]\n");
    return 2;
  }
  std::string dir = argv[1];
  int repetitions = 5;
  std::string deviceName = "amd-rdna2";
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string option = argv[i];
    if (option == "--repetitions") repetitions = std::max(1, std::atoi(argv[i + 1]));
    else if (option == "--device") deviceName = argv[i + 1];
  }
  crashtest::DeviceDescription device;
  crashtest::Diagnostics diagnostics;
  if (!crashtest::LoadDevice("builtin:" + deviceName, "", "", false, device, diagnostics)) {
    std::fprintf(stderr, "cannot load builtin:%s\n", deviceName.c_str());
    return 1;
  }
  std::ifstream corpus(dir + "/corpus.txt");
  if (!corpus) {
    std::fprintf(stderr, "cannot open %s/corpus.txt\n", dir.c_str());
    return 1;
  }
  std::vector<double> statRatios, captureRatios;
  std::printf("%-36s %10s %10s %10s %8s %8s\n", "shader", "compile ms", "stats ms", "capture ms", "stats %",
              "capture %");
  for (std::string line; std::getline(corpus, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, stage;
    fields >> file >> stage;
    std::ifstream in(dir + "/" + file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(words.size() * 4),
              reinterpret_cast<char*>(words.data()));
    crashtest::pipeline::CompileOptions options;
    options.validate = false;
    options.stage = StageOf(stage);
    std::vector<double> compile, stats, capture;
    for (int r = 0; r < repetitions; ++r) {
      crashtest::pipeline::CompiledShader compiled;
      crashtest::pipeline::CompileError error;
      auto t0 = Clock::now();
      if (!crashtest::pipeline::Compile(words, options, &compiled, &error)) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(), error.message.c_str());
        return 1;
      }
      auto t1 = Clock::now();
      auto s = crashtest::statistics::ComputeStatistics(compiled, device.machine, options.stage);
      auto t2 = Clock::now();
      auto e = crashtest::statistics::DescribeExecutable(compiled, device.machine, options.stage, {true, true});
      auto t3 = Clock::now();
      if (s.instructions == 0 || e.representations.empty()) return 1;  // keeps the work observable
      compile.push_back(Milliseconds(t1 - t0));
      stats.push_back(Milliseconds(t2 - t1));
      capture.push_back(Milliseconds(t3 - t2));
    }
    double c = Median(compile), s = Median(stats), k = Median(capture);
    statRatios.push_back(100.0 * s / c);
    captureRatios.push_back(100.0 * k / c);
    std::printf("%-36s %10.3f %10.3f %10.3f %7.1f%% %7.1f%%\n", file.c_str(), c, s, k, 100.0 * s / c,
                100.0 * k / c);
  }
  std::printf("median over %zu shaders: statistics add %.1f%% to the compile, statistics + representations %.1f%%; "
              "worst %.1f%% / %.1f%%\n",
              statRatios.size(), Median(statRatios), Median(captureRatios),
              *std::max_element(statRatios.begin(), statRatios.end()),
              *std::max_element(captureRatios.begin(), captureRatios.end()));
  return 0;
}
