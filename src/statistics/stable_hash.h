// A 64-bit hash that is the same on every run, build and machine (FNV-1a over little-endian bytes), for the
// "Shader hash" statistic: equal inputs always give equal hashes, so CI can key results on it.
#pragma once

#include <cstdint>
#include <span>

namespace crashtest::statistics {

class StableHash {
 public:
  void Add(std::span<const uint32_t> words);
  void Add(uint64_t value);
  uint64_t Value() const { return state_; }

 private:
  void AddByte(uint8_t byte) {
    state_ ^= byte;
    state_ *= kPrime;
  }
  static constexpr uint64_t kPrime = 0x100000001b3ull;  // FNV-1a's 64-bit prime
  uint64_t state_ = 0xcbf29ce484222325ull;
};

}  // namespace crashtest::statistics
