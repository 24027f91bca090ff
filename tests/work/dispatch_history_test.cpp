// The queue's record of dispatch costs behind the inline decision (src/queue/dispatch_history.h): nothing is
// predicted for a pipeline never run, predictions scale with the workgroups, rise at once with a slower dispatch
// and decay slowly after a faster one.
#include <gtest/gtest.h>

#include "queue/dispatch_history.h"

namespace crashtest {
namespace {

using std::chrono::nanoseconds;

TEST(DispatchHistory, UnknownPipelinesHaveNoPrediction) {
  DispatchHistory history;
  EXPECT_FALSE(history.Predict(7, 1).has_value());
  history.Record(7, 4, nanoseconds(4000));
  EXPECT_FALSE(history.Predict(8, 1).has_value()) << "per pipeline";
}

TEST(DispatchHistory, PredictionsScaleWithTheWorkgroups) {
  DispatchHistory history;
  history.Record(1, 4, nanoseconds(4000));  // 1 us per workgroup
  EXPECT_EQ(history.Predict(1, 1), nanoseconds(1000));
  EXPECT_EQ(history.Predict(1, 100), nanoseconds(100000));
  EXPECT_EQ(history.Predict(1, 0), nanoseconds(1000)) << "an empty grid still costs a dispatch";
  history.Record(2, 0, nanoseconds(500));
  EXPECT_EQ(history.Predict(2, 1), nanoseconds(500));
  EXPECT_EQ(history.Predict(1, uint64_t{1} << 62), nanoseconds::max()) << "saturates";
}

TEST(DispatchHistory, RisesAtOnceAndDecaysSlowly) {
  DispatchHistory history;
  history.Record(1, 1, nanoseconds(1000));
  history.Record(1, 1, nanoseconds(9000));
  EXPECT_EQ(history.Predict(1, 1), nanoseconds(9000)) << "a slower dispatch counts at once";
  history.Record(1, 1, nanoseconds(1000));
  EXPECT_EQ(history.Predict(1, 1), nanoseconds(8000)) << "one fast run takes an eighth of the difference";
  for (int i = 0; i < 100; ++i) history.Record(1, 1, nanoseconds(1000));
  EXPECT_LT(history.Predict(1, 1)->count(), 1100);
}

}  // namespace
}  // namespace crashtest
