// Reading a JSON file with messages that name it: a missing file, and malformed JSON with line and column.
#pragma once

#include <map>
#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "profile/read_context.h"

namespace crashtest {

// False (after reporting "cannot open ...") when the file cannot be read.
bool ReadTextFile(const std::string& path, std::string& out, const ReadContext& ctx);

// The member names of some top-level objects in the order the file writes them (Json objects are sorted).
struct KeyOrder {
  std::vector<std::string> topLevelKeys;  // which objects to record, e.g. {"profiles", "capabilities"}
  std::map<std::string, std::vector<std::string>> members;
};

class FormatsFastPath;

// nullopt (after reporting "invalid JSON: ..." at line:column) when the text is not JSON.
// Valid JSON is read by json_fast_reader.h; malformed JSON (and the rare valid text that reader leaves alone) by
// nlohmann's parser, whose message is reported. The result is the same Json::parse would give.
// With `formats`, the "formats" objects of the capability blocks (capabilities.NAME.formats) are read straight
// into it and appear in the result as empty objects (fast_formats.h); when it gives up, the text is parsed again
// without it (formats->Find then finds nothing) — either way the caller sees the same messages.
std::optional<Json> ParseJsonText(std::string_view text, const ReadContext& ctx, KeyOrder* order = nullptr,
                                  FormatsFastPath* formats = nullptr);

}  // namespace crashtest
