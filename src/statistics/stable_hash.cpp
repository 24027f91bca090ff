#include "statistics/stable_hash.h"

namespace crashtest::statistics {

void StableHash::Add(std::span<const uint32_t> words) {
  // The same bytes in the same order as AddByte per byte, with the word's four steps written out and the state in
  // a local: the statistics hash the whole optimised SPIR-V, and the per-byte loop was a third of their cost.
  uint64_t state = state_;
  for (uint32_t word : words) {
    state = (state ^ (word & 0xffu)) * kPrime;
    state = (state ^ ((word >> 8) & 0xffu)) * kPrime;
    state = (state ^ ((word >> 16) & 0xffu)) * kPrime;
    state = (state ^ (word >> 24)) * kPrime;
  }
  state_ = state;
}

void StableHash::Add(uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8) AddByte(static_cast<uint8_t>(value >> shift));
}

}  // namespace crashtest::statistics
