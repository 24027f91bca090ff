// Helpers shared by the ETC2 and EAC decoders (etc2.cpp, eac.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace crashtest::format {

// "int64bit = 256 x (256 x (... (256 x q0 + q1) ...) + q6) + q7": ETC2 and EAC words are big-endian, unlike the
// little-endian BC blocks.
inline uint64_t ReadEtcWord(const std::byte* block) {
  uint64_t word = 0;
  for (int i = 0; i < 8; ++i) word = (word << 8) | static_cast<uint64_t>(block[i]);
  return word;
}

}  // namespace crashtest::format
