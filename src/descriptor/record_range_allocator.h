// The ranges of a descriptor pool's record arena (DescriptorPool): each set takes one contiguous range of records.
//
// Allocate and free are O(1) plus O(log k) over the k distinct sizes of free ranges (one size when every set has
// the same layout), and a reset is O(k): a pool churned set by set every frame (allocate, free some, reset) costs
// the same per set at 64 sets as at 4096. The earlier first-fit walk over every live range was O(n) per set,
// quadratic over a pool's fill (issue 21: 19.5 µs per set at 4096 sets).
//
// How: boundary tags (a side array with one tag per record, meaningful at the first and last record of each range)
// find both neighbours of a freed range in O(1), so free ranges are always coalesced; free ranges sit in
// doubly-linked lists, one per exact size, whose heads are kept in a map by size; the never-used space at the end
// of the arena (the "top") is a bump region outside the lists. A request takes, in order: a free range of exactly
// its size, the top, then the smallest larger free range (split; the rest stays free).
//
// Fragmentation: "if all sets allocated from the pool since it was created or most recently reset use the same
// number of descriptors (of each type) and the requested allocation also uses that same number of descriptors (of
// each type), then fragmentation must not cause an allocation failure" (vkAllocateDescriptorSets). With every
// range n records long, every free range is a multiple of n (coalesced neighbours), so whenever n records are free
// some range holds them.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace crashtest {

class RecordRangeAllocator {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit RecordRangeAllocator(uint32_t capacity);

  // The first record of a free range of `count` records, now used; kNone when no free range is that long. A range
  // of 0 records (a layout with inline uniform blocks only) is always available and takes nothing.
  uint32_t Allocate(uint32_t count);
  // Gives back a range Allocate returned.
  void Free(uint32_t first, uint32_t count);
  // Everything free again.
  void Reset();

  uint32_t capacity() const { return static_cast<uint32_t>(tags_.size()); }
  // Records in free ranges and the top (for tests).
  uint32_t FreeRecords() const;

 private:
  // At the first record of every range: its size and whether it is free, and for a free range its list links. At
  // the last record of every range: where it starts (`start`). Other records' tags are stale and never read: below
  // the top the arena is always partitioned into ranges, so a range's neighbours start and end at tagged records.
  struct Tag {
    uint32_t size;
    uint32_t start;
    uint32_t prev;
    uint32_t next;
    bool free;
  };

  void MarkRange(uint32_t first, uint32_t count, bool free);
  void Link(uint32_t first, uint32_t count);
  void Unlink(uint32_t first, uint32_t count);

  std::vector<Tag> tags_;
  std::map<uint32_t, uint32_t> freeBySize_;  // size -> first range of that size's list; non-empty lists only
  uint32_t top_ = 0;                         // [top_, capacity) was never used since the last reset, or merged back
};

}  // namespace crashtest
