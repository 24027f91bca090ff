// Every input the fuzzers ever crashed on (tests/fuzz/regressions/<target>/), fed to the same entry point in the
// plain build: it must come back, accepted or rejected with a message — never a crash, a hang (the test's
// timeout) or, under ASan/UBSan, a leak or undefined behaviour.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.h"

namespace crashtest::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> Inputs(const std::string& target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(CRASHTEST_FUZZ_DIR) / "regressions" / target;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> Bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void Replay(const std::string& target, Outcome (*run)(std::span<const uint8_t>)) {
  const std::vector<fs::path> files = Inputs(target);
  if (files.empty()) GTEST_SKIP() << "no regression inputs for " << target;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::vector<uint8_t> bytes = Bytes(file);
    const Outcome outcome = run(bytes);
    EXPECT_TRUE(outcome.accepted || !outcome.error.empty()) << "rejected without a message";
  }
}

TEST(FuzzRegressions, Spirv) { Replay("spirv", &RunSpirv); }
TEST(FuzzRegressions, Config) { Replay("config", &RunConfig); }
TEST(FuzzRegressions, Dump) { Replay("dump", &RunDump); }

}  // namespace
}  // namespace crashtest::fuzz
