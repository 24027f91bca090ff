#include "common/utf8.h"

#include <cstdint>

namespace crashtest {
namespace {

// Length of the well-formed sequence at `p` (RFC 3629 / Unicode table 3-7), 0 when it is not one.
std::size_t SequenceLength(const unsigned char* p, std::size_t available) {
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  std::size_t length;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // no overlong forms
    if (c == 0xED) high = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // no overlong forms
    if (c == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (available < length) return 0;
  if (p[1] < low || p[1] > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  return length;
}

}  // namespace

std::size_t CopyValidUtf8(const char* in, std::size_t length, char* out, std::size_t capacity) {
  if (capacity == 0) return 0;
  static constexpr char kHex[] = "0123456789abcdef";
  const auto* bytes = reinterpret_cast<const unsigned char*>(in);
  std::size_t written = 0;
  for (std::size_t i = 0; i < length;) {
    const std::size_t n = SequenceLength(bytes + i, length - i);
    if (n != 0) {
      if (written + n >= capacity) break;
      for (std::size_t k = 0; k < n; ++k) out[written++] = in[i + k];
      i += n;
      continue;
    }
    if (written + 4 >= capacity) break;
    out[written++] = '\\';
    out[written++] = 'x';
    out[written++] = kHex[bytes[i] >> 4];
    out[written++] = kHex[bytes[i] & 0xF];
    ++i;
  }
  out[written] = '\0';
  return written;
}

}  // namespace crashtest
