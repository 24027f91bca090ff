#include "statistics/stable_hash.h"

namespace crashtest::statistics {

void StableHash::Add(std::span<const uint32_t> words) {
  uint64_t state = state_;
  size_t i = 0;
  for (; i + 1 < words.size(); i += 2) Mix(state, uint64_t{words[i]} | (uint64_t{words[i + 1]} << 32));
  if (i < words.size()) Mix(state, uint64_t{words[i]} | (uint64_t{1} << 63));  // an odd count differs from padding
  Mix(state, words.size());
  state_ = state;
}

uint64_t StableHash::Value() const {
  uint64_t h = state_;  // MurmurHash3's fmix64
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace crashtest::statistics
