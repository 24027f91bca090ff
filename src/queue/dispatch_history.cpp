#include "queue/dispatch_history.h"

#include <algorithm>

namespace crashtest {

void DispatchHistory::Record(uint64_t pipelineId, uint64_t workgroups, std::chrono::nanoseconds elapsed) {
  const double sample = static_cast<double>(elapsed.count()) / static_cast<double>(std::max<uint64_t>(workgroups, 1));
  auto [it, inserted] = nanosecondsPerWorkgroup_.try_emplace(pipelineId, sample);
  // Up at once, down by an eighth of the difference per dispatch.
  if (!inserted) it->second = sample >= it->second ? sample : it->second + (sample - it->second) / 8;
}

std::optional<std::chrono::nanoseconds> DispatchHistory::Predict(uint64_t pipelineId, uint64_t workgroups) const {
  auto it = nanosecondsPerWorkgroup_.find(pipelineId);
  if (it == nanosecondsPerWorkgroup_.end()) return std::nullopt;
  const double total = it->second * static_cast<double>(std::max<uint64_t>(workgroups, 1));
  // Saturate: a huge grid of a known pipeline is simply "too long".
  if (total >= 1e18) return std::chrono::nanoseconds::max();
  return std::chrono::nanoseconds(static_cast<int64_t>(total));
}

}  // namespace crashtest
