#include "statistics/stable_hash.h"

namespace crashtest::statistics {

void StableHash::Add(std::span<const uint32_t> words) {
  for (uint32_t word : words)
    for (int shift = 0; shift < 32; shift += 8) AddByte(static_cast<uint8_t>(word >> shift));
}

void StableHash::Add(uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8) AddByte(static_cast<uint8_t>(value >> shift));
}

}  // namespace crashtest::statistics
