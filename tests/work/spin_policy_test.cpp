// How long a thread about to block may spin (src/common/spin_policy.h): the wake-up cost estimate follows what
// sleepers measure, ignores absurd samples beyond its clamp, and the budget is either nothing (no idle core) or
// the estimate within [kMinSpin, kMaxSpin]. Whether this machine has an idle core right now is not asserted: it
// depends on what else runs.
#include <gtest/gtest.h>

#include "common/spin_policy.h"

namespace crashtest {
namespace {

using std::chrono::microseconds;
using std::chrono::nanoseconds;

TEST(SpinPolicy, WakeupEstimateFollowsTheSamples) {
  for (int i = 0; i < 200; ++i) RecordWakeup(microseconds(20));
  EXPECT_NEAR(static_cast<double>(ExpectedWakeupCost().count()), 20000.0, 500.0);
  for (int i = 0; i < 200; ++i) RecordWakeup(microseconds(3));
  EXPECT_NEAR(static_cast<double>(ExpectedWakeupCost().count()), 3000.0, 500.0);
}

TEST(SpinPolicy, OneLateWakeupMovesTheEstimateByAnEighthOfAtMostTenTimesTheCap) {
  for (int i = 0; i < 200; ++i) RecordWakeup(microseconds(10));
  const nanoseconds before = ExpectedWakeupCost();
  RecordWakeup(std::chrono::seconds(5));  // a sleeper descheduled for seconds: clamped to 10 x kMaxSpin
  const nanoseconds after = ExpectedWakeupCost();
  EXPECT_LE((after - before).count(), (10 * nanoseconds(kMaxSpin) - before).count() / 8 + 1);
  EXPECT_GT(after, before);
}

TEST(SpinPolicy, BudgetIsNothingOrTheClampedEstimate) {
  // Whether there is an idle core may change between two calls (it is sampled every millisecond): either answer
  // is accepted, anything else is not.
  for (int i = 0; i < 200; ++i) RecordWakeup(microseconds(400));
  nanoseconds budget = SpinBudget();
  EXPECT_TRUE(budget.count() == 0 || budget == nanoseconds(kMaxSpin)) << budget.count() << " ns: never above kMaxSpin";
  for (int i = 0; i < 200; ++i) RecordWakeup(nanoseconds(100));
  budget = SpinBudget();
  EXPECT_TRUE(budget.count() == 0 || budget == nanoseconds(kMinSpin)) << budget.count() << " ns: at least kMinSpin";
}

}  // namespace
}  // namespace crashtest
