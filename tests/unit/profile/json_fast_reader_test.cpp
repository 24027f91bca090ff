// The fast JSON event source (src/profile/json_fast_reader.h) must be invisible: for every text it reads, the
// handler sees exactly the events nlohmann::json::sax_parse delivers (types, values, number texts, order), and
// every text it does not read completely is left to nlohmann, whose parse then decides.
#include "profile/json_fast_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>

#include "profile/builtin_profiles.h"
#include "profile/json_file.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::DataPath;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Every SAX event as a line of text that keeps what a DOM would keep: the value's type, its exact value (floats
// in hexadecimal, so -0.0 and the last bit count) and the number's text.
struct EventRecorder {
  std::vector<std::string> events;
  std::size_t stopAt = std::numeric_limits<std::size_t>::max();  // this event (counting from 1) returns false
  bool nlohmannError = false;

  bool Add(std::string event) {
    events.push_back(std::move(event));
    return events.size() != stopAt;
  }
  bool null() { return Add("null"); }
  bool boolean(bool value) { return Add(value ? "true" : "false"); }
  bool number_integer(Json::number_integer_t value) { return Add("integer " + std::to_string(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return Add("unsigned " + std::to_string(value)); }
  bool number_float(Json::number_float_t value, const std::string& text) {
    char hex[64];
    std::snprintf(hex, sizeof hex, "%a", value);
    return Add(std::string("float ") + hex + " " + text);
  }
  bool string(std::string& value) { return Add("string " + value); }
  bool binary(Json::binary_t& /*value*/) { return Add("binary"); }
  bool start_object(std::size_t size) { return Add("{ " + std::to_string(size)); }
  bool key(std::string& key) { return Add("key " + key); }
  bool end_object() { return Add("}"); }
  bool start_array(std::size_t size) { return Add("[ " + std::to_string(size)); }
  bool end_array() { return Add("]"); }
  template <typename Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& /*ex*/) {
    nlohmannError = true;
    return false;
  }
};

struct NlohmannRun {
  bool accepted = false;  // sax_parse returned true
  EventRecorder recorder;
};

NlohmannRun RunNlohmann(std::string_view text, std::size_t stopAt = std::numeric_limits<std::size_t>::max()) {
  NlohmannRun run;
  run.recorder.stopAt = stopAt;
  run.accepted = Json::sax_parse(text.begin(), text.end(), &run.recorder);
  return run;
}

// The fast reader reads `text` and delivers exactly nlohmann's events.
void ExpectSameEvents(std::string_view text) {
  const NlohmannRun reference = RunNlohmann(text);
  ASSERT_TRUE(reference.accepted) << "nlohmann rejects the test input";
  EventRecorder fast;
  EXPECT_EQ(ReadJsonFast(text, fast), FastJsonResult::Parsed);
  EXPECT_EQ(fast.events, reference.recorder.events);
}

// What ParseJsonText makes of `text` equals Json::parse's DOM (including number types, which == ignores).
void ExpectSameDom(std::string_view text) {
  Diagnostics diagnostics;
  ReadContext ctx{"inline.json", false, &diagnostics};
  const std::optional<Json> parsed = ParseJsonText(text, ctx);
  ASSERT_TRUE(parsed.has_value());
  const Json reference = Json::parse(text.begin(), text.end());
  EXPECT_EQ(*parsed, reference);
  EventRecorder fromParsed;
  EventRecorder fromReference;
  const std::string dumped = parsed->dump();
  const std::string dumpedReference = reference.dump();
  EXPECT_EQ(dumped, dumpedReference);
  Json::sax_parse(dumped, &fromParsed);
  Json::sax_parse(dumpedReference, &fromReference);
  EXPECT_EQ(fromParsed.events, fromReference.events);
}

std::vector<std::string> DataFiles() {
  std::vector<std::string> paths;
  for (const char* dir : {"profiles", "configs"})
    for (const auto& entry : std::filesystem::directory_iterator(DataPath(dir)))
      if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(JsonFastReader, DeliversNlohmannsEventsForEveryDataFileAndBuiltin) {
  std::size_t read = 0;
  for (const std::string& path : DataFiles()) {
    SCOPED_TRACE(path);
    const std::string text = ReadFile(path);
    if (!RunNlohmann(text).accepted) {
      // The malformed configuration of the bad-input table: left to nlohmann for its message.
      EventRecorder fast;
      EXPECT_EQ(ReadJsonFast(text, fast), FastJsonResult::NotHandled);
      continue;
    }
    ExpectSameEvents(text);
    ExpectSameDom(text);
    ++read;
  }
  EXPECT_GE(read, 4u);
  ASSERT_FALSE(BuiltinProfiles().empty());
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(p.name);
    ExpectSameEvents(p.json);
    ExpectSameDom(p.json);
  }
}

TEST(JsonFastReader, DeliversNlohmannsEventsForTrickyValidInputs) {
  const std::string deepArrays = std::string(5000, '[') + std::string(5000, ']');
  std::string deepObjects;
  for (int i = 0; i < 3000; ++i) deepObjects += "{\"k\":";
  deepObjects += "[]" + std::string(3000, '}');
  const std::string longString = "\"" + std::string(100000, 'x') + "\\n" + std::string(50, 'y') + "\"";
  const char* const cases[] = {
      // Scalars at the top, whitespace around and inside.
      "0", "true", "false", "null", "\"\"", " \t\r\n 1 \t\r\n ", " { \"a\" : [ 1 , 2 , { } , [ ] ] , \"b\" : null } ",
      // Escapes, and UTF-8 written as it is or as \u escapes (with surrogate pairs).
      R"("\"\\\/\b\f\n\r\t")", R"("\u0041\u00e9\u20AC\uFFFF\u0000x")", R"("\uD83D\uDE00 \udbff\udfff")",
      "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xED\x9F\xBF \xEE\x80\x80\"",
      R"({"\u006b\u0065\u0079": "v", "k\"ey": 1})",
      // Numbers: the integer/unsigned/float split, the limits of each and what lies beyond them.
      "[0, -0, 1, -1, 0.0, -0.0, 1.5, -1.5e-3, 1E5, 1e+5, 1E-5, 2e0, 0e0, 10, 123456789]",
      "[18446744073709551615, 18446744073709551616, 99999999999999999999999999]",
      "[9223372036854775807, 9223372036854775808, -9223372036854775808, -9223372036854775809]",
      "[0.1, 0.2, 0.30000000000000004, 3.141592653589793, 1.7976931348623157e308, 2.2250738585072014e-308]",
      "[4.9406564584124654e-324, 2.4703282292062328e-324, 1e-300, 123456789012345678901234567890.5e-10]",
      "[1.00000000000000011102230246251565404236316680908203125, 9007199254740993, 9007199254740993.0]",
      // Empty containers and repeated keys (the last one counts in nlohmann's DOM).
      "{}", "[]", "[[]]", "[{}]", R"({"a": {}, "b": []})", R"({"a": 1, "a": 2, "b": {"c": 1}, "b": [3]})",
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    ExpectSameEvents(text);
    ExpectSameDom(text);
  }
  // The fast reader keeps no stack of its own beyond a bit per level; ParseJsonText stops at kMaxJsonDepth
  // (input_bounds_test.cpp), so its DOM is compared at that depth.
  for (const std::string& text : {deepArrays, deepObjects, longString}) {
    SCOPED_TRACE(text.substr(0, 40));
    ExpectSameEvents(text);
  }
  std::string deepestAccepted;
  for (std::size_t i = 0; i + 1 < kMaxJsonDepth; ++i) deepestAccepted += "{\"k\":";
  deepestAccepted += "[]" + std::string(kMaxJsonDepth - 1, '}');
  for (const std::string& text : {std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']'),
                                  deepestAccepted, longString}) {
    SCOPED_TRACE(text.substr(0, 40));
    ExpectSameEvents(text);
    ExpectSameDom(text);
  }
}

// Strings are scanned eight bytes at a time: what ends a run of plain bytes must be found at every offset.
TEST(JsonFastReader, FindsEscapesUtf8AndControlCharactersAtEveryOffset) {
  for (std::size_t offset = 0; offset < 20; ++offset) {
    SCOPED_TRACE(offset);
    const std::string before(offset, 'a');
    const std::string after(offset % 9, 'b');
    for (const char* special : {"\\n", "\\\"", "\\u00e9", "\xC3\xA9", "\xF0\x9F\x98\x80", " ", "~", "\x7F"}) {
      const std::string text = "[\"" + before + special + after + "\", \"" + before + "\"]";
      SCOPED_TRACE(text);
      ExpectSameEvents(text);
    }
    for (const char* bad : {"\x01", "\x1F", "\t", "\x80", "\xC3", "\xFF"}) {
      const std::string text = "\"" + before + bad + after + "\"";
      SCOPED_TRACE(text);
      ASSERT_FALSE(RunNlohmann(text).accepted);
      EventRecorder fast;
      EXPECT_EQ(ReadJsonFast(text, fast), FastJsonResult::NotHandled);
    }
    // The closing quote missing, the text ending at any offset.
    EventRecorder fast;
    EXPECT_EQ(ReadJsonFast("\"" + before, fast), FastJsonResult::NotHandled);
  }
}

// Whatever the fast reader does not read completely is left to nlohmann: malformed JSON (so the message stays
// nlohmann's) and a few valid rarities (then nlohmann's DOM is the result).
TEST(JsonFastReader, LeavesMalformedJsonAndRaritiesToNlohmann) {
  struct Case {
    std::string text;
    bool nlohmannAccepts;
  };
  const Case cases[] = {
      {"", false}, {" ", false}, {"{", false}, {"[", false}, {"[1,]", false}, {R"({"a":1,})", false},
      {"{,}", false}, {"[,1]", false}, {"01", false}, {"-01", false}, {"1.", false}, {".5", false}, {"+1", false},
      {"-", false}, {"1e", false}, {"1e+", false}, {"1.e5", false}, {"tru", false}, {"nul", false},
      {"True", false}, {"[1 2]", false}, {R"({"a" 1})", false}, {R"({"a":})", false}, {"{1:2}", false},
      {R"({"a":1 "b":2})", false}, {"\"abc", false}, {"\"a\x01\"", false}, {"\"a\tb\"", false},
      {R"("\x")", false}, {R"("\u12")", false}, {R"("\u12G4")", false}, {R"("\uD800")", false},
      {R"("\uDC00")", false}, {R"("\uD800\u0041")", false}, {R"("\uD800x")", false},
      {"\"\xC0\xAF\"", false}, {"\"\xC1\xBF\"", false}, {"\"\xE0\x80\x80\"", false}, {"\"\xED\xA0\x80\"", false},
      {"\"\xF0\x80\x80\x80\"", false}, {"\"\xF4\x90\x80\x80\"", false}, {"\"\xF5\x80\x80\x80\"", false},
      {"\"\xE2\x82\"", false}, {"\"\x80\"", false}, {"\"\xFF\"", false}, {"1 2", false}, {"{} x", false},
      {"[1]]", false}, {"NaN", false}, {"Infinity", false}, {"-Infinity", false}, {"1e400", false},
      {"-1e400", false}, {"[" + std::string(400, '9') + "]", false}, {"// comment\n1", false},
      {std::string("[1,\0]", 5), false}, {std::string("1\0", 2), true}, {"\xEF\xBB\xBF", false},
      // Valid for nlohmann, but rare enough to leave to it.
      {"\xEF\xBB\xBF{\"bom\": true}", true}, {"[1e-400]", true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const NlohmannRun reference = RunNlohmann(c.text);
    ASSERT_EQ(reference.accepted, c.nlohmannAccepts);
    EventRecorder fast;
    EXPECT_EQ(ReadJsonFast(c.text, fast), FastJsonResult::NotHandled);

    // Through ParseJsonText: nlohmann's DOM, or nlohmann's message. 1e400 is nlohmann's "number overflow"
    // (an out_of_range exception, not a parse error): a separate case below.
    if (c.nlohmannAccepts) {
      ExpectSameDom(c.text);
    } else if (c.text.find("e400") == std::string::npos && c.text.find("999") == std::string::npos) {
      Diagnostics diagnostics;
      ReadContext ctx{"inline.json", false, &diagnostics};
      EXPECT_FALSE(ParseJsonText(c.text, ctx).has_value());
      ASSERT_EQ(diagnostics.Items().size(), 1u);
      EXPECT_NE(diagnostics.Items()[0].text.find("invalid JSON: "), std::string::npos);
    }
  }
}

// Random damage to real JSON (deterministic): whenever the fast reader says it read a text, nlohmann accepts the
// same text with the same events; everything else is left to nlohmann.
TEST(JsonFastReader, AgreesWithNlohmannOnDamagedProfiles) {
  const std::string seeds[] = {
      ReadFile(DataPath("profiles/minimal-discrete.json")),
      ReadFile(DataPath("configs/fault-plan.json")),
      R"({"s": "a\"b\\c\u00e9\uD83D\uDE00 cafÃ©", "n": [0, -0, 1.5e3, -12, 18446744073709551615, 1E-2], )"
      R"("t": [true, false, null, {}, []]})",
  };
  // Bytes that matter to a JSON tokenizer, to put anywhere.
  const std::string pieces[] = {"{", "}", "[", "]", ",", ":", "\"", "\\", "0", "9", "-", "+", ".", "e", "E", "u",
                                "D8", "DC", "\\u", " ", "\n", "\t", std::string(1, '\0'), "\x01", "\x7F", "\xC3",
                                "\xA9", "\xED\xA0\x80", "\xF0\x9F\x98\x80", "true", "nul", "1e400", "\xEF\xBB\xBF"};
  std::mt19937 random(20261130);
  std::size_t read = 0;
  std::size_t left = 0;
  for (const std::string& seed : seeds) {
    ASSERT_FALSE(seed.empty());
    for (int round = 0; round < 1500; ++round) {
      std::string text = seed;
      const int edits = 1 + static_cast<int>(random() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = random() % (text.size() + 1);
        switch (random() % 3) {
          case 0: text.insert(at, pieces[random() % std::size(pieces)]); break;
          case 1: text.erase(at, 1 + random() % 4); break;
          default:
            if (at < text.size()) text[at] = pieces[random() % std::size(pieces)][0];
            break;
        }
      }
      EventRecorder fast;
      const FastJsonResult result = ReadJsonFast(text, fast);
      ASSERT_NE(result, FastJsonResult::Stopped) << text;
      if (result == FastJsonResult::NotHandled) {
        ++left;
        continue;
      }
      ++read;
      const NlohmannRun reference = RunNlohmann(text);
      ASSERT_TRUE(reference.accepted) << text;
      ASSERT_EQ(fast.events, reference.recorder.events) << text;
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(read, 100u);
  EXPECT_GT(left, 100u);
}

// A handler that returns false stops the reader at the same event as it stops nlohmann.
TEST(JsonFastReader, StopsWhereTheHandlerSaysAsNlohmannDoes) {
  const std::string text = ReadFile(DataPath("profiles/minimal-discrete.json"));
  const std::size_t total = RunNlohmann(text).recorder.events.size();
  ASSERT_GT(total, 10u);
  for (std::size_t stopAt : {std::size_t{1}, std::size_t{2}, std::size_t{3}, total / 3, total / 2, total - 1, total}) {
    SCOPED_TRACE(stopAt);
    const NlohmannRun reference = RunNlohmann(text, stopAt);
    EXPECT_FALSE(reference.accepted);
    EXPECT_FALSE(reference.recorder.nlohmannError);
    EventRecorder fast;
    fast.stopAt = stopAt;
    EXPECT_EQ(ReadJsonFast(text, fast), FastJsonResult::Stopped);
    EXPECT_EQ(fast.events, reference.recorder.events);
  }
}

// ParseJsonText's messages for malformed JSON are nlohmann's, at the same line and column, even when the error
// comes after a long valid part the fast reader had already delivered.
TEST(JsonFastReader, MalformedJsonKeepsNlohmannsLineAndColumn) {
  Diagnostics diagnostics;
  ReadContext ctx{"inline.json", false, &diagnostics};
  KeyOrder order;
  order.topLevelKeys = {"capabilities"};
  EXPECT_FALSE(ParseJsonText("{\"capabilities\": {\"a\": {},\n  \"b\": [1, 2,]}}", ctx, &order).has_value());
  ASSERT_EQ(diagnostics.Items().size(), 1u);
  EXPECT_EQ(diagnostics.Items()[0].Format(),
            "inline.json:2:14: invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', "
            "or a literal");
}

TEST(JsonFastReader, RecordsTheKeyOrderOfTheNamedObjects) {
  Diagnostics diagnostics;
  ReadContext ctx{"inline.json", false, &diagnostics};
  KeyOrder order;
  order.topLevelKeys = {"profiles"};
  const std::optional<Json> root =
      ParseJsonText(R"({"profiles": {"z": {"y": 1}, "a": 2, "m": [3]}, "other": {"q": 1, "b": 2}})", ctx, &order);
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(order.members.size(), 1u);
  EXPECT_EQ(order.members["profiles"], (std::vector<std::string>{"z", "a", "m"}));
}

}  // namespace
}  // namespace crashtest
