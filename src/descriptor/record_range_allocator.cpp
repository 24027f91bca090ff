#include "descriptor/record_range_allocator.h"

namespace crashtest {

RecordRangeAllocator::RecordRangeAllocator(uint32_t capacity) : tags_(capacity) {}

void RecordRangeAllocator::MarkRange(uint32_t first, uint32_t count, bool free) {
  tags_[first].size = count;
  tags_[first].free = free;
  tags_[first + count - 1].start = first;
}

void RecordRangeAllocator::Link(uint32_t first, uint32_t count) {
  MarkRange(first, count, true);
  auto [it, inserted] = freeBySize_.try_emplace(count, first);
  tags_[first].prev = kNone;
  tags_[first].next = inserted ? kNone : it->second;
  if (!inserted) {
    tags_[it->second].prev = first;
    it->second = first;
  }
}

void RecordRangeAllocator::Unlink(uint32_t first, uint32_t count) {
  const Tag& tag = tags_[first];
  if (tag.next != kNone) tags_[tag.next].prev = tag.prev;
  if (tag.prev != kNone) {
    tags_[tag.prev].next = tag.next;
  } else if (tag.next != kNone) {
    freeBySize_.find(count)->second = tag.next;
  } else {
    freeBySize_.erase(count);
  }
  tags_[first].free = false;
}

uint32_t RecordRangeAllocator::Allocate(uint32_t count) {
  if (count == 0) return 0;
  // Exact fit: with one layout per pool this is every allocation after the first frees.
  if (auto it = freeBySize_.find(count); it != freeBySize_.end()) {
    const uint32_t first = it->second;
    Unlink(first, count);
    MarkRange(first, count, false);
    return first;
  }
  if (capacity() - top_ >= count) {
    const uint32_t first = top_;
    top_ += count;
    MarkRange(first, count, false);
    return first;
  }
  // The smallest larger free range, split. It is coalesced, so its right neighbour is used and the rest needs no
  // merging.
  auto it = freeBySize_.upper_bound(count);
  if (it == freeBySize_.end()) return kNone;
  const uint32_t size = it->first, first = it->second;
  Unlink(first, size);
  MarkRange(first, count, false);
  Link(first + count, size - count);
  return first;
}

void RecordRangeAllocator::Free(uint32_t first, uint32_t count) {
  if (count == 0) return;
  uint32_t start = first, size = count;
  // The left neighbour ends at first - 1; free ranges are never adjacent, so at most one merge on each side.
  if (first > 0) {
    const uint32_t left = tags_[first - 1].start;
    if (tags_[left].free) {
      size += tags_[left].size;
      Unlink(left, tags_[left].size);
      start = left;
    }
  }
  const uint32_t end = first + count;
  if (end == top_) {
    top_ = start;  // back into the untouched end of the arena
    return;
  }
  if (tags_[end].free) {
    const uint32_t rightSize = tags_[end].size;
    Unlink(end, rightSize);
    size += rightSize;
  }
  Link(start, size);
}

void RecordRangeAllocator::Reset() {
  freeBySize_.clear();
  top_ = 0;
}

uint32_t RecordRangeAllocator::FreeRecords() const {
  uint32_t total = capacity() - top_;
  for (const auto& [size, head] : freeBySize_)
    for (uint32_t at = head; at != kNone; at = tags_[at].next) total += size;
  return total;
}

}  // namespace crashtest
