// Overflow-checked arithmetic on sizes and offsets (VkDeviceSize, byte counts). Every size, offset and alignment
// computed from what the application passes goes through these, so a huge value becomes an error or an
// out-of-range result, never a small wrapped one (a 2^64-1 buffer once reported a memory requirement of 0).
#pragma once

#include <cstdint>

namespace crashtest {

// a + b, a * b: false when the result does not fit.
inline bool CheckedAdd(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_add_overflow(a, b, out); }
inline bool CheckedMul(uint64_t a, uint64_t b, uint64_t* out) { return !__builtin_mul_overflow(a, b, out); }

// `value` rounded up to a multiple of `alignment` (0 and 1: unchanged); false when that does not fit.
inline bool CheckedAlignUp(uint64_t value, uint64_t alignment, uint64_t* out) {
  if (alignment <= 1) {
    *out = value;
    return true;
  }
  uint64_t padded = 0;
  if (!CheckedAdd(value, alignment - 1, &padded)) return false;
  *out = padded / alignment * alignment;
  return true;
}

// Saturating forms: UINT64_MAX when the result does not fit, a size no memory holds, so every later range check
// fails instead of passing on a wrapped value.
inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  return CheckedAdd(a, b, &out) ? out : UINT64_MAX;
}
inline uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  return CheckedMul(a, b, &out) ? out : UINT64_MAX;
}
inline uint64_t SaturatingAlignUp(uint64_t value, uint64_t alignment) {
  uint64_t out = 0;
  return CheckedAlignUp(value, alignment, &out) ? out : UINT64_MAX;
}

}  // namespace crashtest
