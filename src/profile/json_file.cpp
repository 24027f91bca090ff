#include "profile/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace crashtest {

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

std::optional<Json> ParseJsonText(std::string_view text, const ReadContext& ctx, KeyOrder* order) {
  try {
    if (order == nullptr) return Json::parse(text.begin(), text.end());
    std::string topKey;
    Json::parser_callback_t record = [&](int depth, Json::parse_event_t event, Json& parsed) {
      if (event != Json::parse_event_t::key) return true;
      if (depth == 1) {
        topKey = parsed.get<std::string>();
      } else if (depth == 2 && std::find(order->topLevelKeys.begin(), order->topLevelKeys.end(), topKey) !=
                                   order->topLevelKeys.end()) {
        order->members[topKey].push_back(parsed.get<std::string>());
      }
      return true;
    };
    return Json::parse(text.begin(), text.end(), record);
  } catch (const Json::parse_error& e) {
    // nlohmann reports the byte count read so far; convert it into a line and column of the text.
    std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
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
    // what(): "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    std::string detail = e.what();
    std::size_t colon = detail.find(": ");
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    Diagnostic d;
    d.severity = Severity::Error;
    d.file = ctx.file;
    d.line = line;
    d.column = column;
    d.text = "invalid JSON: " + detail;
    ctx.diagnostics->Add(std::move(d));
    return std::nullopt;
  }
}

}  // namespace crashtest
