// Conventions every suite follows when a workload cannot run.
//
// A skip message starts with "unsupported:" when the driver lacks something (a NULL command, a missing extension,
// a shader it declines); anything else ("error: …") is a failure the smoke test reports. The message is what
// bench/compare shows, so it names the command or feature.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

#include "vk_context.h"

namespace crashtest::bench {

// Messages built at run time are interned so the pointer handed to SkipWithError outlives the benchmark run
// whatever the library version does with it.
const char* intern(const std::string& message);

// The cached context of this flavor, or nullptr after skipping the benchmark with the creation error.
inline const VkContext* context_or_skip(benchmark::State& state, DeviceFlavor flavor) {
  const ContextCache::Entry& entry = ContextCache::get(flavor);
  if (!entry.context) {
    state.SkipWithError(entry.error.c_str());
    return nullptr;
  }
  return entry.context.get();
}

// Skips with `message` when it is non-empty; returns whether the benchmark may go on.
inline bool ok_or_skip(benchmark::State& state, const std::string& message) {
  if (message.empty()) return true;
  state.SkipWithError(intern(message));
  return false;
}

}  // namespace crashtest::bench
