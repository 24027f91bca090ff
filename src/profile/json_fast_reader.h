// A fast event source for nlohmann's SAX interface: a strict RFC 8259 tokenizer over a contiguous text that
// drives any handler with nlohmann::json_sax's members (null, boolean, number_integer, number_unsigned,
// number_float, string, start_object, key, end_object, start_array, end_array), so the DOM builder, the key order
// recording and the formats fast path (json_file.cpp, fast_formats.h) consume it unchanged.
//
// Why: nlohmann's lexer reads a character at a time through an input adapter and copies every token into two
// buffers; on a 250 KB `vulkaninfo --json` export that is most of the cost of loading a profile. This reader copies
// an unescaped string in one go and converts numbers with std::from_chars.
//
// It only answers for valid JSON it reads completely. On anything else — malformed JSON, a UTF-8 byte order mark,
// a lone surrogate, a number outside double's range — it returns NotHandled and the caller parses the text again
// with nlohmann, so every message (line, column, wording) stays nlohmann's. For every text it does read, the events
// are exactly the ones nlohmann::json::sax_parse would deliver (json_fast_reader_test.cpp compares the DOMs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace crashtest {

enum class FastJsonResult {
  Parsed,      // the whole text is one JSON value; every event was delivered and accepted
  Stopped,     // a handler member returned false (nlohmann::json::sax_parse would return false there too)
  NotHandled,  // not read: parse the text with nlohmann (the handler may have seen some events; discard them)
};

namespace json_fast {

// The kind of a number token, classified as nlohmann's lexer does: with '.', 'e' or 'E' a float; else with '-'
// a signed integer; else unsigned. An integer that does not fit its type becomes a float.
enum class NumberKind { Unsigned, Integer, Float };

struct Number {
  NumberKind kind = NumberKind::Unsigned;
  uint64_t unsignedValue = 0;
  int64_t integerValue = 0;
  double floatValue = 0;
  std::string_view text;  // the token, for number_float's second argument
};

// A position in the text. Bytes past the end read as '\0', which starts no JSON token.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool AtEnd() const { return p_ == end_; }
  char Peek() const { return p_ == end_ ? '\0' : *p_; }
  void Advance() { ++p_; }
  // RFC 8259 section 2: ws = *( %x20 / %x09 / %x0A / %x0D )
  void SkipWhitespace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  // At `literal`'s first byte: true (after it) when the text continues with the whole literal.
  bool Consume(std::string_view literal) {
    if (static_cast<std::size_t>(end_ - p_) < literal.size() || std::string_view(p_, literal.size()) != literal)
      return false;
    p_ += literal.size();
    return true;
  }

  // At an opening quote: the decoded string into `out` (cleared first), and the cursor after the closing quote.
  // False for what this reader leaves to nlohmann: an unterminated string, a control character, invalid UTF-8, an
  // unknown escape, a lone surrogate.
  bool ReadString(std::string& out);
  // At '-' or a digit: the number, and the cursor after it. False for a malformed number and for a value outside
  // double's range (nlohmann makes the former a parse error, the latter "number overflow" or, below the smallest
  // subnormal, zero; it decides either way).
  bool ReadNumber(Number& out);

 private:
  bool ReadEscape(std::string& out);
  bool ReadHex4(uint32_t& out);

  const char* p_;
  const char* end_;
};

}  // namespace json_fast

// Reads `text`, one JSON value with optional surrounding whitespace, delivering its events to `sax`.
template <typename Sax>
FastJsonResult ReadJsonFast(std::string_view text, Sax& sax) {
  // nlohmann skips a UTF-8 byte order mark; a profile written by a tool has none, so leave the rare one to it.
  if (text.starts_with("\xEF\xBB\xBF")) return FastJsonResult::NotHandled;
  // nlohmann's own parser passes this to start_object/start_array: the number of elements is not known.
  constexpr std::size_t kUnknownSize = static_cast<std::size_t>(-1);
  json_fast::Cursor in(text);
  std::vector<bool> inObject;  // the open containers, innermost last: true for an object, false for an array
  std::string scratch;
  std::string numberText;
  json_fast::Number number;

  // After '{' or ',' in an object: the member name, its event and the ':'. Parsed: go on with the member's value.
  auto memberName = [&]() {
    in.SkipWhitespace();
    if (in.Peek() != '"' || !in.ReadString(scratch)) return FastJsonResult::NotHandled;
    if (!sax.key(scratch)) return FastJsonResult::Stopped;
    in.SkipWhitespace();
    if (in.Peek() != ':') return FastJsonResult::NotHandled;
    in.Advance();
    return FastJsonResult::Parsed;
  };

  for (;;) {
    // A value; containers open here and their first element or member is read on the next turn.
    in.SkipWhitespace();
    bool complete = true;  // false when a container was opened and not closed
    switch (in.Peek()) {
      case '{':
        in.Advance();
        if (!sax.start_object(kUnknownSize)) return FastJsonResult::Stopped;
        in.SkipWhitespace();
        if (in.Peek() == '}') {
          in.Advance();
          if (!sax.end_object()) return FastJsonResult::Stopped;
        } else {
          if (const FastJsonResult r = memberName(); r != FastJsonResult::Parsed) return r;
          inObject.push_back(true);
          complete = false;
        }
        break;
      case '[':
        in.Advance();
        if (!sax.start_array(kUnknownSize)) return FastJsonResult::Stopped;
        in.SkipWhitespace();
        if (in.Peek() == ']') {
          in.Advance();
          if (!sax.end_array()) return FastJsonResult::Stopped;
        } else {
          inObject.push_back(false);
          complete = false;
        }
        break;
      case '"':
        if (!in.ReadString(scratch)) return FastJsonResult::NotHandled;
        if (!sax.string(scratch)) return FastJsonResult::Stopped;
        break;
      case 't':
        if (!in.Consume("true")) return FastJsonResult::NotHandled;
        if (!sax.boolean(true)) return FastJsonResult::Stopped;
        break;
      case 'f':
        if (!in.Consume("false")) return FastJsonResult::NotHandled;
        if (!sax.boolean(false)) return FastJsonResult::Stopped;
        break;
      case 'n':
        if (!in.Consume("null")) return FastJsonResult::NotHandled;
        if (!sax.null()) return FastJsonResult::Stopped;
        break;
      case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
        if (!in.ReadNumber(number)) return FastJsonResult::NotHandled;
        bool accepted = false;
        switch (number.kind) {
          case json_fast::NumberKind::Unsigned: accepted = sax.number_unsigned(number.unsignedValue); break;
          case json_fast::NumberKind::Integer: accepted = sax.number_integer(number.integerValue); break;
          case json_fast::NumberKind::Float:
            numberText.assign(number.text);
            accepted = sax.number_float(number.floatValue, numberText);
            break;
        }
        if (!accepted) return FastJsonResult::Stopped;
        break;
      }
      default: return FastJsonResult::NotHandled;
    }
    if (!complete) continue;

    // After a complete value: close the containers that end here, then go on with the next element or member.
    for (;;) {
      in.SkipWhitespace();
      if (inObject.empty()) return in.AtEnd() ? FastJsonResult::Parsed : FastJsonResult::NotHandled;
      const char c = in.Peek();
      if (c == ',') {
        in.Advance();
        if (inObject.back()) {
          if (const FastJsonResult r = memberName(); r != FastJsonResult::Parsed) return r;
        }
        break;
      }
      if (c != (inObject.back() ? '}' : ']')) return FastJsonResult::NotHandled;
      in.Advance();
      const bool wasObject = inObject.back();
      inObject.pop_back();
      if (!(wasObject ? sax.end_object() : sax.end_array())) return FastJsonResult::Stopped;
    }
  }
}

}  // namespace crashtest
