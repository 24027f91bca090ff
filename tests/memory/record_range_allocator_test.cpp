// The descriptor pool's record ranges (src/descriptor/record_range_allocator.h) as an internal class: exact fit,
// the untouched top, best fit with splitting, coalescing with both neighbours, the spec's same-size guarantee
// under random churn, and reset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "descriptor/record_range_allocator.h"

namespace crashtest {
namespace {

constexpr uint32_t kNone = RecordRangeAllocator::kNone;

TEST(RecordRangeAllocator, FillsFromTheStartAndFailsWhenNoRangeIsLongEnough) {
  RecordRangeAllocator ranges(10);
  EXPECT_EQ(ranges.Allocate(4), 0u);
  EXPECT_EQ(ranges.Allocate(4), 4u);
  EXPECT_EQ(ranges.Allocate(3), kNone) << "2 records left";
  EXPECT_EQ(ranges.Allocate(2), 8u);
  EXPECT_EQ(ranges.Allocate(0), 0u) << "an empty range takes nothing";
  EXPECT_EQ(ranges.FreeRecords(), 0u);
}

TEST(RecordRangeAllocator, ReusesAnExactHoleFirstAndSplitsALargerOne) {
  RecordRangeAllocator ranges(12);
  ASSERT_EQ(ranges.Allocate(3), 0u);
  ASSERT_EQ(ranges.Allocate(3), 3u);
  ASSERT_EQ(ranges.Allocate(3), 6u);
  ASSERT_EQ(ranges.Allocate(3), 9u);
  ranges.Free(3, 3);
  EXPECT_EQ(ranges.Allocate(3), 3u) << "the exact hole";
  ranges.Free(0, 3);
  ranges.Free(3, 3);  // coalesces with its left neighbour into [0, 6)
  EXPECT_EQ(ranges.FreeRecords(), 6u);
  EXPECT_EQ(ranges.Allocate(5), 0u) << "the merged hole holds 5";
  EXPECT_EQ(ranges.Allocate(1), 5u) << "what is left of it";
  EXPECT_EQ(ranges.Allocate(1), kNone);
}

TEST(RecordRangeAllocator, FreedNeighboursMergeOnBothSidesAndIntoTheTop) {
  RecordRangeAllocator ranges(8);
  for (uint32_t i = 0; i < 4; ++i) ASSERT_EQ(ranges.Allocate(2), 2 * i);
  ranges.Free(0, 2);
  ranges.Free(4, 2);
  EXPECT_EQ(ranges.Allocate(4), kNone) << "two holes of 2, not adjacent";
  ranges.Free(2, 2);  // joins [0,2) and [4,6) into [0,6)
  EXPECT_EQ(ranges.Allocate(6), 0u);
  ranges.Free(0, 6);
  ranges.Free(6, 2);  // the last range goes back to the top, taking the free range before it along
  EXPECT_EQ(ranges.FreeRecords(), 8u);
  EXPECT_EQ(ranges.Allocate(8), 0u) << "one range again";
}

TEST(RecordRangeAllocator, ResetFreesEverything) {
  RecordRangeAllocator ranges(16);
  for (uint32_t i = 0; i < 8; ++i) ASSERT_NE(ranges.Allocate(2), kNone);
  ranges.Free(2, 2);
  ranges.Free(10, 2);
  ranges.Reset();
  EXPECT_EQ(ranges.FreeRecords(), 16u);
  EXPECT_EQ(ranges.Allocate(16), 0u);
}

// "If all sets allocated from the pool since it was created or most recently reset use the same number of
// descriptors ... fragmentation must not cause an allocation failure" (vkAllocateDescriptorSets): random churn
// of same-sized ranges never fails while room is left, and ranges never overlap.
TEST(RecordRangeAllocator, SameSizedRangesNeverFragmentUnderRandomChurn) {
  for (uint32_t size : {1u, 3u, 8u}) {
    const uint32_t slots = 257;
    RecordRangeAllocator ranges(slots * size);
    std::vector<uint32_t> live;
    std::vector<int> owner(slots * size, 0);
    std::mt19937 random(size);
    for (int step = 0; step < 20000; ++step) {
      const bool allocate = live.empty() || (live.size() < slots && random() % 3 != 0);
      if (allocate) {
        const uint32_t first = ranges.Allocate(size);
        ASSERT_NE(first, kNone) << "size " << size << ", " << live.size() << " of " << slots << " live";
        for (uint32_t r = first; r < first + size; ++r) ASSERT_EQ(owner[r]++, 0) << "overlap at record " << r;
        live.push_back(first);
      } else {
        const size_t index = random() % live.size();
        const uint32_t first = live[index];
        live[index] = live.back();
        live.pop_back();
        for (uint32_t r = first; r < first + size; ++r) owner[r] = 0;
        ranges.Free(first, size);
      }
      if (step % 997 == 0) {
        ASSERT_EQ(ranges.FreeRecords(), (slots - live.size()) * size);
      }
      if (step % 5003 == 0) {
        ranges.Reset();
        live.clear();
        std::fill(owner.begin(), owner.end(), 0);
      }
    }
  }
}

// Mixed sizes: whatever is allocated never overlaps, the free count is exact, and once everything is freed the
// arena is one range again (every free coalesced).
TEST(RecordRangeAllocator, MixedSizesNeverOverlapAndCoalesceBackToOneRange) {
  const uint32_t capacity = 1000;
  RecordRangeAllocator ranges(capacity);
  std::vector<std::pair<uint32_t, uint32_t>> live;
  std::vector<int> owner(capacity, 0);
  std::mt19937 random(7);
  uint32_t used = 0;
  for (int step = 0; step < 20000; ++step) {
    if (live.empty() || random() % 2 == 0) {
      const uint32_t size = 1 + random() % 9;
      const uint32_t first = ranges.Allocate(size);
      if (first == kNone) continue;  // fragmentation is allowed with mixed sizes
      for (uint32_t r = first; r < first + size; ++r) ASSERT_EQ(owner[r]++, 0) << "overlap at record " << r;
      live.emplace_back(first, size);
      used += size;
    } else {
      const size_t index = random() % live.size();
      const auto [first, size] = live[index];
      live[index] = live.back();
      live.pop_back();
      for (uint32_t r = first; r < first + size; ++r) owner[r] = 0;
      ranges.Free(first, size);
      used -= size;
    }
    ASSERT_EQ(ranges.FreeRecords(), capacity - used);
  }
  for (const auto& [first, size] : live) ranges.Free(first, size);
  EXPECT_EQ(ranges.Allocate(capacity), 0u) << "every free range coalesced back into one";
}

}  // namespace
}  // namespace crashtest
