#include "profile/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "profile/fast_formats.h"
#include "profile/json_fast_reader.h"

namespace crashtest {
namespace {

// Builds the Json value from nlohmann's SAX events as Json::parse does, and on the way records the member order
// of some top-level objects (KeyOrder) and hands the capability blocks' "formats" objects to the fast path.
// Replaces a parser_callback_t, which costs a std::function call and a Json copy of every key.
class DomBuilder {
 public:
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
    return diverted_ ? Divert(formats_->String(value)) : Place(Json(std::move(value))) != nullptr;
  }
  bool binary(Json::binary_t& value) { return !diverted_ && Place(Json::binary(std::move(value))) != nullptr; }

  bool start_object(std::size_t /*size*/) {
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
    stack_.push_back({object, {}, what});
    return true;
  }
  bool key(std::string& key) {
    if (diverted_) return Divert(formats_->Key(key));
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
    if (diverted_) return Divert(formats_->EndObject());
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*size*/) {
    if (diverted_) return Divert(formats_->StartArray());
    Json* array = Place(Json::array());
    if (array == nullptr) return false;
    stack_.push_back({array, {}, Open::What::Other});
    return true;
  }
  bool end_array() {
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

 private:
  struct Open {
    enum class What { Capabilities, Block, Other };  // the capabilities object, a capability block object
    Json* container;
    std::string key;  // objects: the member whose value comes next
    What what;
  };

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
      it->second = std::move(value);
    }
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
  bool recording_ = false;
  bool diverted_ = false;
  bool gaveUp_ = false;
};

}  // namespace

bool ReadTextFile(const std::string& path, std::string& out, const ReadContext& ctx) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ctx.Error("", std::string("cannot open (") + std::strerror(errno) + ")");
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    ctx.Error("", std::string("cannot read (") + std::strerror(errno) + ")");
    return false;
  }
  out = std::move(buffer).str();
  return true;
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

// The handlers' results of an attempt that did not finish are discarded before the next attempt.
void Discard(Json& root, KeyOrder* order, FormatsFastPath* formats) {
  root = Json();
  if (order != nullptr) order->members.clear();
  if (formats != nullptr) formats->Clear();
}

// The same DOM, key order and pre-read formats as the nlohmann path below, through json_fast_reader.h; nullopt
// when that reader leaves the text to nlohmann (malformed JSON and rarities), with nothing recorded.
std::optional<Json> ParseFast(std::string_view text, KeyOrder* order, FormatsFastPath* formats) {
  Json root;
  if (formats != nullptr) {
    DomBuilder fast(root, order, formats);
    const FastJsonResult result = ReadJsonFast(text, fast);
    if (result == FastJsonResult::Parsed && !fast.GaveUp()) return root;
    Discard(root, order, formats);
    if (result == FastJsonResult::NotHandled) return std::nullopt;
    // The formats fast path gave up (Stopped): read every section into the DOM, as below.
  }
  DomBuilder builder(root, order, nullptr);
  if (ReadJsonFast(text, builder) == FastJsonResult::Parsed) return root;
  Discard(root, order, nullptr);
  return std::nullopt;
}

}  // namespace

std::optional<Json> ParseJsonText(std::string_view text, const ReadContext& ctx, KeyOrder* order,
                                  FormatsFastPath* formats) {
  if (std::optional<Json> root = ParseFast(text, order, formats)) return root;
  // nlohmann's parser, for its messages: malformed JSON is reported at the same line and column, in its words.
  try {
    if (order == nullptr && formats == nullptr) return Json::parse(text.begin(), text.end());
    Json root;
    if (formats != nullptr) {
      DomBuilder fast(root, order, formats);
      Json::sax_parse(text.begin(), text.end(), &fast);
      if (!fast.GaveUp()) return root;
      // Something the fast path does not read without a message: parse again the ordinary way.
      formats->Clear();
      if (order != nullptr) order->members.clear();
      root = Json();
    }
    DomBuilder builder(root, order, nullptr);
    Json::sax_parse(text.begin(), text.end(), &builder);
    return root;
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
