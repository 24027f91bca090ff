// In-process cost of what vkCreateInstance does with the configuration: reading a large real profile (the
// ~250 KB llvmpipe export) and intersecting it with the driver, and loading a built-in device (first read and the
// cached copy later instances get). Links crashtest's core library directly, unlike the loader-level suites.
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "profile/config.h"
#include "profile/driver_intersection.h"
#include "profile/json_fast_reader.h"
#include "profile/profile_reader.h"

namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void BM_ReadLargeProfile(benchmark::State& state) {
  const std::string text = ReadFile(CRASHTEST_BENCH_LLVMPIPE_PROFILE);
  if (text.empty()) {
    state.SkipWithError("unsupported: llvmpipe profile not found");
    return;
  }
  for (auto _ : state) {
    crashtest::DeviceDescription d;
    crashtest::Diagnostics diagnostics;
    bool ok = crashtest::ReadProfileText(text, {"llvmpipe.json", "", false}, d, diagnostics);
    if (ok) crashtest::IntersectWithDriver(d);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ReadLargeProfile)->Unit(benchmark::kMillisecond);

// nlohmann's parser alone over the same text, with a SAX handler that keeps nothing: what ParseJsonText paid
// before json_fast_reader.h (it still parses malformed JSON with nlohmann, for the messages).
struct DiscardingSax {
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(nlohmann::json::number_integer_t) { return true; }
  bool number_unsigned(nlohmann::json::number_unsigned_t) { return true; }
  bool number_float(nlohmann::json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(nlohmann::json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(std::string&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) { return false; }
};

void BM_ParseLargeProfileJsonOnly(benchmark::State& state) {
  const std::string text = ReadFile(CRASHTEST_BENCH_LLVMPIPE_PROFILE);
  if (text.empty()) {
    state.SkipWithError("unsupported: llvmpipe profile not found");
    return;
  }
  for (auto _ : state) {
    DiscardingSax sax;
    benchmark::DoNotOptimize(nlohmann::json::sax_parse(text.begin(), text.end(), &sax));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseLargeProfileJsonOnly)->Unit(benchmark::kMillisecond);

// The same events from crashtest's tokenizer (src/profile/json_fast_reader.h), which ParseJsonText uses for
// valid JSON: the floor under BM_ReadLargeProfile. Everything it adds on top of this is crashtest's own work.
void BM_ParseLargeProfileFastReaderOnly(benchmark::State& state) {
  const std::string text = ReadFile(CRASHTEST_BENCH_LLVMPIPE_PROFILE);
  if (text.empty()) {
    state.SkipWithError("unsupported: llvmpipe profile not found");
    return;
  }
  DiscardingSax probe;
  if (crashtest::ReadJsonFast(text, probe) != crashtest::FastJsonResult::Parsed) {
    state.SkipWithError("the fast reader left the llvmpipe profile to nlohmann");  // would measure nothing
    return;
  }
  for (auto _ : state) {
    DiscardingSax sax;
    benchmark::DoNotOptimize(crashtest::ReadJsonFast(text, sax));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseLargeProfileFastReaderOnly)->Unit(benchmark::kMillisecond);

void BM_ReadBuiltinDefaultUncached(benchmark::State& state) {
  for (auto _ : state) {
    crashtest::DeviceDescription d;
    crashtest::Diagnostics diagnostics;
    benchmark::DoNotOptimize(crashtest::ReadDevice("builtin:default", "", "", false, d, diagnostics));
  }
}
BENCHMARK(BM_ReadBuiltinDefaultUncached)->Unit(benchmark::kMillisecond);

void BM_LoadBuiltinDefaultCached(benchmark::State& state) {
  for (auto _ : state) {
    crashtest::DeviceDescription d;
    crashtest::Diagnostics diagnostics;
    benchmark::DoNotOptimize(crashtest::LoadDevice("builtin:default", "", "", false, d, diagnostics));
  }
}
BENCHMARK(BM_LoadBuiltinDefaultCached)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
