// Startup: instance → enumerate → device → destroy, in this process and as a whole new process.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <string>

#include "bench_common.h"
#include "startup_sequence.h"

extern char** environ;

namespace crashtest::bench {
namespace {

// CRASHTEST_BENCH_PROBE, else startup_probe next to this executable (both live in the build tree's bench/).
std::string probe_path() {
  if (const char* path = std::getenv("CRASHTEST_BENCH_PROBE"); path && *path) return path;
  char self[PATH_MAX] = {};
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) return "startup_probe";
  std::string directory(self, static_cast<size_t>(length));
  return directory.substr(0, directory.rfind('/') + 1) + "startup_probe";
}

void BM_StartupInProcess(benchmark::State& state) {
  for (auto _ : state) {
    const std::string error = run_startup_sequence();
    if (!ok_or_skip(state, error)) break;
  }
}
BENCHMARK(BM_StartupInProcess)->Unit(benchmark::kMicrosecond);

void BM_StartupProcess(benchmark::State& state) {
  const std::string probe = probe_path();
  if (access(probe.c_str(), X_OK) != 0) {
    ok_or_skip(state, "error: " + probe + " is not an executable (set CRASHTEST_BENCH_PROBE)");
    return;
  }
  char* argv[] = {const_cast<char*>(probe.c_str()), nullptr};
  for (auto _ : state) {
    pid_t pid = 0;
    // The child inherits this environment, so it loads the ICD VK_ICD_FILENAMES names, like the suites do.
    const int spawn_error = posix_spawn(&pid, probe.c_str(), nullptr, nullptr, argv, environ);
    if (spawn_error != 0) {
      ok_or_skip(state, "error: posix_spawn(" + probe + ") failed with errno " + std::to_string(spawn_error));
      break;
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ok_or_skip(state, "error: " + probe + " failed (wait status " + std::to_string(status) + ")");
      break;
    }
  }
}
BENCHMARK(BM_StartupProcess)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace crashtest::bench
