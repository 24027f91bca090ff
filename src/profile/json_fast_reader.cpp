#include "profile/json_fast_reader.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <system_error>

namespace crashtest::json_fast {
namespace {

// Bytes that end a run of string bytes copied as they are: the quote, the backslash, the control characters
// (RFC 8259 section 7: "All Unicode characters may be placed within the quotation marks, except for the
// characters that MUST be escaped: quotation mark, reverse solidus, and the control characters (U+0000 through
// U+001F)") and the first byte of a multi-byte UTF-8 sequence, which must be checked.
constexpr std::array<bool, 256> kEndsRun = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = true;
  for (int c = 0x80; c < 0x100; ++c) table[static_cast<std::size_t>(c)] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

// Eight bytes at a time (the common case: names of 20 to 60 plain ASCII characters): the bit 7 of each byte of
// the result is set for the bytes kEndsRun marks (exactly so for the lowest such byte; borrows only run upwards).
constexpr uint64_t kOnes = 0x0101010101010101u;
constexpr uint64_t kHighBits = 0x8080808080808080u;
uint64_t EndsRunMask(uint64_t bytes) {
  const uint64_t quote = bytes ^ (kOnes * '"');
  const uint64_t backslash = bytes ^ (kOnes * '\\');
  const uint64_t zeroQuote = (quote - kOnes) & ~quote;
  const uint64_t zeroBackslash = (backslash - kOnes) & ~backslash;
  const uint64_t control = bytes - kOnes * 0x20;  // bit 7 set for bytes below 0x20 (or from a borrow above one)
  return (zeroQuote | zeroBackslash | control | bytes) & kHighBits;
}

bool InRange(unsigned char c, unsigned char low, unsigned char high) { return c >= low && c <= high; }

// The length of the well-formed UTF-8 sequence at p (whose first byte is >= 0x80), 0 when it is not one. The
// ranges are those of the Unicode Standard's Table 3-7 (no overlong forms, no surrogates, nothing above
// U+10FFFF), the same that nlohmann's lexer accepts.
std::size_t Utf8SequenceLength(const char* p, const char* end) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(p[i]); };
  const std::size_t available = static_cast<std::size_t>(end - p);
  const unsigned char lead = at(0);
  std::size_t length = 0;
  unsigned char secondLow = 0x80;
  unsigned char secondHigh = 0xBF;
  if (InRange(lead, 0xC2, 0xDF)) {
    length = 2;
  } else if (lead == 0xE0) {
    length = 3;
    secondLow = 0xA0;
  } else if (InRange(lead, 0xE1, 0xEC) || lead == 0xEE || lead == 0xEF) {
    length = 3;
  } else if (lead == 0xED) {
    length = 3;
    secondHigh = 0x9F;
  } else if (lead == 0xF0) {
    length = 4;
    secondLow = 0x90;
  } else if (InRange(lead, 0xF1, 0xF3)) {
    length = 4;
  } else if (lead == 0xF4) {
    length = 4;
    secondHigh = 0x8F;
  } else {
    return 0;
  }
  if (available < length || !InRange(at(1), secondLow, secondHigh)) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (!InRange(at(i), 0x80, 0xBF)) return 0;
  return length;
}

void AppendUtf8(uint32_t codePoint, std::string& out) {
  if (codePoint < 0x80) {
    out.push_back(static_cast<char>(codePoint));
  } else if (codePoint < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else if (codePoint < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  }
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool Cursor::ReadHex4(uint32_t& out) {
  if (end_ - p_ < 4) return false;
  out = 0;
  for (int i = 0; i < 4; ++i, ++p_) {
    const char c = *p_;
    uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    out = out << 4 | digit;
  }
  return true;
}

// At the backslash. RFC 8259 section 7: the two-character escapes and \uXXXX, where a character outside the
// Basic Multilingual Plane "is represented as a 12-character sequence, encoding the UTF-16 surrogate pair".
bool Cursor::ReadEscape(std::string& out) {
  ++p_;
  if (p_ == end_) return false;
  const char c = *p_++;
  switch (c) {
    case '"': out.push_back('"'); return true;
    case '\\': out.push_back('\\'); return true;
    case '/': out.push_back('/'); return true;
    case 'b': out.push_back('\b'); return true;
    case 'f': out.push_back('\f'); return true;
    case 'n': out.push_back('\n'); return true;
    case 'r': out.push_back('\r'); return true;
    case 't': out.push_back('\t'); return true;
    case 'u': break;
    default: return false;
  }
  uint32_t codePoint = 0;
  if (!ReadHex4(codePoint)) return false;
  if (codePoint >= 0xDC00 && codePoint <= 0xDFFF) return false;  // a low surrogate first
  if (codePoint >= 0xD800 && codePoint <= 0xDBFF) {
    uint32_t low = 0;
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
    p_ += 2;
    if (!ReadHex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
    codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
  }
  AppendUtf8(codePoint, out);
  return true;
}

bool Cursor::ReadString(std::string& out) {
  out.clear();
  ++p_;  // the opening quote
  const char* run = p_;
  for (;;) {
    while (end_ - p_ >= 8) {
      uint64_t bytes;
      std::memcpy(&bytes, p_, sizeof bytes);
      const uint64_t mask = EndsRunMask(bytes);
      if (mask != 0) {
        // The first byte in memory is the lowest on a little-endian machine, the highest on a big-endian one.
        p_ += (std::endian::native == std::endian::little ? std::countr_zero(mask) : std::countl_zero(mask)) / 8;
        break;
      }
      p_ += 8;
    }
    while (p_ != end_ && !kEndsRun[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ == end_) return false;
    const unsigned char c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      out.append(run, p_);
      ++p_;
      return true;
    }
    if (c >= 0x80) {
      // Well-formed UTF-8 stays in the run and is copied as it is.
      const std::size_t length = Utf8SequenceLength(p_, end_);
      if (length == 0) return false;
      p_ += length;
      continue;
    }
    if (c != '\\') return false;  // a control character
    out.append(run, p_);
    if (!ReadEscape(out)) return false;
    run = p_;
  }
}

// RFC 8259 section 6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
bool Cursor::ReadNumber(Number& out) {
  const char* start = p_;
  const bool negative = Peek() == '-';
  if (negative) ++p_;
  if (Peek() == '0') {
    ++p_;
  } else if (IsDigit(Peek())) {
    while (IsDigit(Peek())) ++p_;
  } else {
    return false;
  }
  bool isFloat = false;
  if (Peek() == '.') {
    ++p_;
    if (!IsDigit(Peek())) return false;
    while (IsDigit(Peek())) ++p_;
    isFloat = true;
  }
  if (Peek() == 'e' || Peek() == 'E') {
    ++p_;
    if (Peek() == '+' || Peek() == '-') ++p_;
    if (!IsDigit(Peek())) return false;
    while (IsDigit(Peek())) ++p_;
    isFloat = true;
  }
  out.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
  // As nlohmann: integers first; one that does not fit (errno ERANGE from strtoull/strtoll) is read as a float.
  if (!isFloat && !negative) {
    const auto [end, error] = std::from_chars(start, p_, out.unsignedValue);
    if (error == std::errc() && end == p_) {
      out.kind = NumberKind::Unsigned;
      return true;
    }
  } else if (!isFloat) {
    const auto [end, error] = std::from_chars(start, p_, out.integerValue);
    if (error == std::errc() && end == p_) {
      out.kind = NumberKind::Integer;
      return true;
    }
  }
  // Out of range (infinite for nlohmann, an error; or below the subnormals, zero for nlohmann) is left to it.
  const auto [end, error] = std::from_chars(start, p_, out.floatValue, std::chars_format::general);
  if (error != std::errc() || end != p_) return false;
  out.kind = NumberKind::Float;
  return true;
}

}  // namespace crashtest::json_fast
