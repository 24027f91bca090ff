// Tables shared by BC6H and BC7 (Khronos Data Format Specification, "BPTC Compressed Texture Image Formats"):
// the partition shapes, the anchor ("fix-up") texels whose index has one bit fewer, and the interpolation weights.
#pragma once

#include <cstdint>

namespace crashtest::format::bptc {

// kPartitions2[p][i] / kPartitions3[p][i]: the subset of texel i (row-major) in partition p. BC6H uses the first
// 32 two-subset shapes.
extern const char kPartitions2[64][17];
extern const char kPartitions3[64][17];
// The anchor texel of subset 1 (two subsets), of subsets 1 and 2 (three subsets); subset 0's is texel 0.
extern const uint8_t kAnchor2[64];
extern const uint8_t kAnchor3Second[64];
extern const uint8_t kAnchor3Third[64];
// Interpolation weights out of 64 for 2-, 3- and 4-bit indices.
extern const uint8_t kWeights2[4];
extern const uint8_t kWeights3[8];
extern const uint8_t kWeights4[16];

// Little-endian bit reader over a 128-bit block.
class BlockBits {
 public:
  explicit BlockBits(const void* block);
  // The next `count` (<= 32) bits, least significant first.
  uint32_t Read(uint32_t count);
  uint32_t position() const { return position_; }
  void Seek(uint32_t position) { position_ = position; }

 private:
  uint64_t lo_ = 0, hi_ = 0;
  uint32_t position_ = 0;
};

}  // namespace crashtest::format::bptc
