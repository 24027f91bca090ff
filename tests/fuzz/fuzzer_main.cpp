// One libFuzzer executable per entry point of fuzz_targets.h: CRASHTEST_FUZZ_ENTRY names it (meson.build).
// With CRASHTEST_FUZZ_OUTCOME set, each input's outcome is printed ("accepted" or "error: ..."), for
// tests/fuzz/adversarial.py, which runs the executables on single files.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool report = std::getenv("CRASHTEST_FUZZ_OUTCOME") != nullptr;
  const crashtest::fuzz::Outcome outcome = crashtest::fuzz::CRASHTEST_FUZZ_ENTRY({data, size});
  if (report) {
    if (outcome.accepted) std::fprintf(stderr, "outcome: accepted\n");
    else std::fprintf(stderr, "outcome: error: %s\n", outcome.error.c_str());
  }
  return 0;
}
