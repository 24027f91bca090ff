// OpReadClockKHR (VK_KHR_shader_clock): a 64-bit counter that only moves forward. Both scopes read the host's
// monotonic clock in nanoseconds, which is "a monotonically incrementing counter" for the subgroup and for the
// device alike; shaders use it for relative timings, which it serves.
#include <chrono>

#include "execution/ops/ops.h"

namespace crashtest::execution::ops {

void ReadClock(const Op& op, SubgroupState& s) {
  const uint64_t now = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                 std::chrono::steady_clock::now().time_since_epoch())
                                                 .count());
  uint32_t* d = s.Slot(op.dst);
  const uint32_t w = s.width;
  for (uint32_t l = 0; l < w; ++l) {
    d[l] = Blend(s.laneMask[l], static_cast<uint32_t>(now), d[l]);
    d[w + l] = Blend(s.laneMask[l], static_cast<uint32_t>(now >> 32), d[w + l]);
  }
}

}  // namespace crashtest::execution::ops
