// Log lines quote what applications pass (object names, entry-point names, extension names, file contents): a
// line must stay valid UTF-8 whatever those bytes are, or the debug messengers and log readers that decode it fail.
#pragma once

#include <cstddef>

namespace crashtest {

// Copies `in[0..length)` to `out` (capacity `capacity`, always NUL-terminated when capacity > 0), replacing every
// byte that is not part of a well-formed UTF-8 sequence (stray continuation bytes, overlong forms, surrogates,
// code points above U+10FFFF, sequences cut short) by the four characters "\xNN". Stops before a character that
// would not fit. Returns the length written.
std::size_t CopyValidUtf8(const char* in, std::size_t length, char* out, std::size_t capacity);

}  // namespace crashtest
