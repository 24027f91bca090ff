// A whole process that starts Vulkan once: spawned by the startup suite so its figure includes exec, dynamic
// linking, the loader reading manifests and the driver's library load.
#include <cstdio>
#include <string>

#include "startup_sequence.h"

int main() {
  const std::string error = crashtest::bench::run_startup_sequence();
  if (!error.empty()) {
    std::fprintf(stderr, "startup_probe: %s\n", error.c_str());
    return 1;
  }
  return 0;
}
