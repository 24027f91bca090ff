#include "profile/closest_name.h"

#include <algorithm>
#include <vector>

namespace crashtest {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string_view ClosestName(std::string_view name,
                             const std::function<void(const std::function<void(std::string_view)>&)>& each) {
  // The distance costs the name's length times each candidate's, for every candidate: a 100 000-character flag
  // name in a profile took 20 s per occurrence to reject (found by tests/fuzz/adversarial.py; the input is
  // tests/fuzz/regressions/config/long-enum-name.json). Vulkan names are under 100 characters, so comparing the
  // first 256 bytes of a longer name still finds the same kind of suggestion, in bounded time.
  constexpr std::size_t kComparedBytes = 256;
  const std::string_view probe = name.substr(0, kComparedBytes);
  std::string_view best;
  std::size_t bestDistance = static_cast<std::size_t>(-1);
  each([&](std::string_view candidate) {
    // The length difference is a lower bound of the distance: a candidate that cannot be closer is skipped.
    const std::size_t lengthDifference =
        probe.size() > candidate.size() ? probe.size() - candidate.size() : candidate.size() - probe.size();
    if (lengthDifference >= bestDistance) return;
    std::size_t d = EditDistance(probe, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  });
  return best;
}

}  // namespace crashtest
