#include "profile/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/file_reader.h"
#include "profile/fast_formats.h"
#include "profile/json_fast_reader.h"

namespace crashtest {
namespace {

// Builds the Json value from nlohmann's SAX events as Json::parse does, and on the way records the member order
// of some top-level objects (KeyOrder) and hands the capability blocks' "formats" objects to the fast path.
// Replaces a parser_callback_t, which costs a std::function call and a Json copy of every key.
class DomBuilder {
 public:
  // Something the parse accepted but the caller must hear about, at a JSON path.
  struct Problem {
    enum class Kind { DuplicateMember, NulInString };
    Kind kind;
    std::string path;
  };

  DomBuilder(Json& root, KeyOrder* order, FormatsFastPath* formats) : root_(root), order_(order), formats_(formats) {}

  bool null() { return diverted_ ? Divert(formats_->OtherScalar()) : Place(Json(nullptr)) != nullptr; }
  bool boolean(bool value) { return diverted_ ? Divert(formats_->OtherScalar()) : Place(Json(value)) != nullptr; }
  bool number_integer(Json::number_integer_t value) {
    return diverted_ ? Divert(formats_->OtherScalar()) : Place(Json(value)) != nullptr;
  }
  bool number_unsigned(Json::number_unsigned_t value) {
    return diverted_ ? Divert(formats_->Unsigned(value)) : Place(Json(value)) != nullptr;
  }
  bool number_float(Json::number_float_t value, const std::string& /*text*/) {
    return diverted_ ? Divert(formats_->OtherScalar()) : Place(Json(value)) != nullptr;
  }
  bool string(std::string& value) {
    if (diverted_) return Divert(formats_->String(value));  // a NUL makes it an unknown name: the fast path gives up
    if (value.find('\0') != std::string::npos) problems_.push_back({Problem::Kind::NulInString, NextValuePath()});
    return Place(Json(std::move(value))) != nullptr;
  }
  bool binary(Json::binary_t& value) { return !diverted_ && Place(Json::binary(std::move(value))) != nullptr; }

  bool start_object(std::size_t /*size*/) {
    if (!Deeper()) return false;
    if (diverted_) return Divert(formats_->StartObject());
    if (formats_ != nullptr && stack_.size() == 3 && stack_[2].what == Open::What::Block &&
        stack_[2].key == "formats") {
      Json* placeholder = Place(Json::object());
      if (placeholder == nullptr) return false;
      formats_->Begin(placeholder);
      diverted_ = true;
      return true;
    }
    // capabilities.NAME objects are where the fast path starts (Place moves the member name away).
    Open::What what = Open::What::Other;
    if (stack_.size() == 1 && stack_[0].key == "capabilities") what = Open::What::Capabilities;
    if (stack_.size() == 2 && stack_[1].what == Open::What::Capabilities) what = Open::What::Block;
    Json* object = Place(Json::object());
    if (object == nullptr) return false;
    stack_.push_back({object, {}, nullptr, what});
    return true;
  }
  bool key(std::string& key) {
    if (diverted_) return Divert(formats_->Key(key));
    if (key.find('\0') != std::string::npos) problems_.push_back({Problem::Kind::NulInString, OpenPath(key)});
    // The same depths a parser_callback_t sees: 1 for the top-level members, 2 for the members of their values.
    if (order_ != nullptr) {
      if (stack_.size() == 1) {
        topKey_ = key;
        recording_ = std::find(order_->topLevelKeys.begin(), order_->topLevelKeys.end(), topKey_) !=
                     order_->topLevelKeys.end();
      } else if (stack_.size() == 2 && recording_) {
        order_->members[topKey_].push_back(key);
      }
    }
    stack_.back().key = std::move(key);
    return true;
  }
  bool end_object() {
    --depth_;
    if (diverted_) return Divert(formats_->EndObject());
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*size*/) {
    if (!Deeper()) return false;
    if (diverted_) return Divert(formats_->StartArray());
    Json* array = Place(Json::array());
    if (array == nullptr) return false;
    stack_.push_back({array, {}, nullptr, Open::What::Other});
    return true;
  }
  bool end_array() {
    --depth_;
    if (diverted_) return Divert(formats_->EndArray());
    stack_.pop_back();
    return true;
  }
  // As nlohmann's own DOM parser: throw the exception the lexer or parser made (ParseJsonText reports it).
  template <typename Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& ex) {
    throw ex;
  }

  bool GaveUp() const { return gaveUp_; }
  // The parse stopped at an object or array nested deeper than kMaxJsonDepth.
  bool TooDeep() const { return tooDeep_; }
  const std::vector<Problem>& Problems() const { return problems_; }

 private:
  struct Open {
    enum class What { Capabilities, Block, Other };  // the capabilities object, a capability block object
    Json* container;
    std::string key;  // objects: the member whose value comes next
    const std::string* placedKey;  // objects: the name of the member placed last (a key of the map: stable)
    What what;
  };

  bool Deeper() {
    if (++depth_ <= kMaxJsonDepth) return true;
    tooDeep_ = true;
    return false;  // stops the parse
  }

  // The JSON path of the innermost open container ("" for the root), as the readers' messages write paths.
  std::string ContainerPath() const {
    std::string path;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Open& open = stack_[i];
      if (open.container->is_array())
        path = IndexPath(path, open.container->size() - 1);
      else
        path = JoinPath(path, open.placedKey != nullptr ? *open.placedKey : std::string());
    }
    return path;
  }
  // The path of member `key` of the innermost open object.
  std::string OpenPath(std::string_view key) const { return JoinPath(ContainerPath(), key); }
  // The path of the value about to be placed.
  std::string NextValuePath() const {
    if (stack_.empty()) return "";
    const Open& open = stack_.back();
    if (open.container->is_array()) return IndexPath(ContainerPath(), open.container->size());
    return OpenPath(open.key);
  }

  // Puts a value where the parser is: the root, the next array element or the member just named. A repeated
  // member replaces the earlier one, as in Json::parse; with the fast path, where ReadFormats' order of reading
  // would matter, it gives up instead.
  Json* Place(Json&& value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Open& open = stack_.back();
    if (open.container->is_array()) {
      auto& array = open.container->get_ref<Json::array_t&>();
      array.push_back(std::move(value));
      return &array.back();
    }
    auto& object = open.container->get_ref<Json::object_t&>();
    auto [it, inserted] = object.try_emplace(std::move(open.key), std::move(value));
    if (!inserted) {
      if (formats_ != nullptr) {
        gaveUp_ = true;
        return nullptr;
      }
      // try_emplace leaves the name in open.key when the member exists.
      problems_.push_back({Problem::Kind::DuplicateMember, OpenPath(open.key)});
      it->second = std::move(value);
    }
    open.placedKey = &it->first;
    return &it->second;
  }

  bool Divert(FormatsFastPath::Step step) {
    if (step == FormatsFastPath::Step::Done) diverted_ = false;
    if (step != FormatsFastPath::Step::GiveUp) return true;
    gaveUp_ = true;
    return false;  // stops the parse
  }

  Json& root_;
  KeyOrder* order_;
  FormatsFastPath* formats_;
  std::vector<Open> stack_;
  std::string topKey_;
  std::size_t depth_ = 0;  // open objects and arrays, the diverted ones included
  std::vector<Problem> problems_;
  bool recording_ = false;
  bool diverted_ = false;
  bool gaveUp_ = false;
  bool tooDeep_ = false;
};

}  // namespace

bool ReadTextFile(const std::string& path, std::string& out, const ReadContext& ctx) {
  std::string error;
  if (ReadRegularFile(path, kMaxJsonFileBytes, out, error)) return true;
  ctx.Error("", error);
  return false;
}

namespace {

// One "FILE:LINE:COLUMN: invalid JSON: DETAIL" message, the position being byte `offset` of the text.
void ReportInvalidJson(std::string_view text, std::size_t offset, const std::string& detail, const ReadContext& ctx) {
  std::size_t end = std::min(offset, text.size());
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  Diagnostic d;
  d.severity = Severity::Error;
  d.file = ctx.file;
  d.line = line;
  d.column = column;
  d.text = "invalid JSON: " + detail;
  ctx.diagnostics->Add(std::move(d));
}

// The byte offset of the bracket that opens level `depth` + 1 (the first too deep); strings are skipped.
std::size_t OffsetBeyondDepth(std::string_view text, std::size_t depth) {
  std::size_t level = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++level > depth) return i;
    } else if ((c == ']' || c == '}') && level > 0) {
      --level;
    }
  }
  return 0;
}

void ReportTooDeep(std::string_view text, const ReadContext& ctx) {
  ReportInvalidJson(text, OffsetBeyondDepth(text, kMaxJsonDepth),
                    "objects and arrays nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (the limit)",
                    ctx);
}

// The handlers' results of an attempt that did not finish are discarded before the next attempt.
void Discard(Json& root, KeyOrder* order, FormatsFastPath* formats) {
  root = Json();
  if (order != nullptr) order->members.clear();
  if (formats != nullptr) formats->Clear();
}

// Reports what the finished parse accepted but the reader must hear about.
void ReportProblems(const DomBuilder& builder, const ReadContext& ctx) {
  for (const DomBuilder::Problem& p : builder.Problems()) {
    switch (p.kind) {
      case DomBuilder::Problem::Kind::DuplicateMember:
        ctx.Doubtful(p.path, "repeated in its object (JSON leaves the meaning of a repeated name open; the last "
                             "value is used)");
        break;
      case DomBuilder::Problem::Kind::NulInString:
        ctx.Error(p.path, "a NUL character (\\u0000) in a string or name (names, texts and log lines end at it)");
        break;
    }
  }
}

}  // namespace

std::optional<Json> ParseJsonText(std::string_view text, const ReadContext& ctx, KeyOrder* order,
                                  FormatsFastPath* formats) {
  Json root;
  // The formats fast path first when asked for; when it gives up (Stopped), the same reader again without it.
  std::vector<FormatsFastPath*> paths = {formats};
  if (formats != nullptr) paths.push_back(nullptr);
  // json_fast_reader.h for valid JSON ...
  for (FormatsFastPath* path : paths) {
    Discard(root, order, formats);
    DomBuilder builder(root, order, path);
    const FastJsonResult result = ReadJsonFast(text, builder);
    if (builder.TooDeep()) {
      ReportTooDeep(text, ctx);
      return std::nullopt;
    }
    if (result == FastJsonResult::Parsed && !builder.GaveUp()) {
      ReportProblems(builder, ctx);
      return root;
    }
    if (result == FastJsonResult::NotHandled) break;
  }
  // ... and nlohmann's parser for the rest, for its messages: malformed JSON is reported at the same line and
  // column, in its words.
  try {
    for (FormatsFastPath* path : paths) {
      Discard(root, order, formats);
      DomBuilder builder(root, order, path);
      const bool complete = Json::sax_parse(text.begin(), text.end(), &builder);
      if (builder.TooDeep()) {
        ReportTooDeep(text, ctx);
        return std::nullopt;
      }
      if (complete && !builder.GaveUp()) {
        ReportProblems(builder, ctx);
        return root;
      }
    }
    ReportInvalidJson(text, 0, "not read", ctx);  // only the formats fast path stops a parse, and not without it
    return std::nullopt;
  } catch (const Json::parse_error& e) {
    // nlohmann reports the byte count read so far. what(): "[json.exception.parse_error.101] parse error at line
    // 1, column 2: syntax error ..."
    std::string detail = e.what();
    std::size_t colon = detail.find(": ");
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    ReportInvalidJson(text, e.byte == 0 ? 0 : e.byte - 1, detail, ctx);
    return std::nullopt;
  } catch (const Json::out_of_range& e) {
    // A number beyond a double's range: nlohmann throws out_of_range 406, "[json.exception.out_of_range.406] number
    // overflow parsing '1e400'", without a position: point at the first occurrence of that literal.
    std::string detail = e.what();
    std::size_t bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    std::size_t at = 0;
    std::size_t open = detail.find('\''), close = detail.rfind('\'');
    if (open != std::string::npos && close > open) {
      std::size_t found = text.find(std::string_view(detail).substr(open + 1, close - open - 1));
      if (found != std::string_view::npos) at = found;
    }
    ReportInvalidJson(text, at, detail + " (a number must fit a double)", ctx);
    return std::nullopt;
  }
}

}  // namespace crashtest
