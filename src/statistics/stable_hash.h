// A 64-bit hash that is the same on every run, build and machine, for the "Shader hash" statistic: equal inputs
// always give equal hashes, so CI can key results (and fault plans their `shaderHash`) on it.
//
// Eight bytes at a time, little-endian words in order: each step xors them into the state, multiplies by an odd
// constant and folds the high half back into the low one, so every input bit reaches the low 32 bits the radv
// dialect's "Hash" reports; the value is finished with MurmurHash3's 64-bit finaliser. It replaced FNV-1a over
// bytes (ninth session of issue 20): one multiply per byte in a serial chain was a third of the statistics' time.
#pragma once

#include <cstdint>
#include <span>

namespace crashtest::statistics {

class StableHash {
 public:
  void Add(std::span<const uint32_t> words);
  void Add(uint64_t value) { Mix(state_, value); }
  uint64_t Value() const;

 private:
  static void Mix(uint64_t& state, uint64_t chunk) {
    state = (state ^ chunk) * kMultiplier;
    state ^= state >> 32;
  }
  static constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ull;  // 2^64 / golden ratio, odd
  uint64_t state_ = 0xcbf29ce484222325ull;
};

}  // namespace crashtest::statistics
