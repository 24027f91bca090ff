// ASTC's integer sequence encoding and the unquantisation of what it carries (astc.cpp decodes the blocks).
// Khronos Data Format Specification, "ASTC Compressed Texture Image Formats": "Integer Sequence Encoding",
// "Endpoint Unquantization", "Weight Unquantization".
#pragma once

#include <cstdint>

namespace crashtest::format::astc {

// A value range 0..(3^trits x 5^quints x 2^bits - 1): bits only, one trit and `bits` bits, or one quint and `bits`.
struct Range {
  uint8_t trits = 0, quints = 0, bits = 0;
};

// The 21 ranges ISE can encode, smallest first: 0..1, 0..2, 0..3, 0..4, 0..5, 0..7, ..., 0..191, 0..255. Weights
// use the first 12, colour endpoints the ones from 0..5 up.
inline constexpr int kRangeCount = 21;
Range RangeAt(int index);

// Bits taken by `count` values: "ceil(count x 8 x trits / 5) + ceil(count x 7 x quints / 3) + count x bits".
uint32_t SequenceBits(Range range, uint32_t count);

// A stream of bits: bit i of `words` (little-endian 64-bit halves of a block), reading 0 past `end` ("If there are
// insufficient bits in the stream to fill the final block, then unused (higher order) bits are assumed to be 0").
struct BitStream {
  uint64_t words[2];
  uint32_t end;
  uint32_t Bits(uint32_t first, uint32_t count) const;
};

// `count` values of `range` starting at bit `first` of the stream.
void DecodeSequence(const BitStream& stream, uint32_t first, Range range, uint32_t count, uint8_t* values);

// A colour endpoint value to 0..255, and a weight to 0..64.
uint8_t UnquantiseColour(Range range, uint8_t value);
uint8_t UnquantiseWeight(Range range, uint8_t value);

}  // namespace crashtest::format::astc
