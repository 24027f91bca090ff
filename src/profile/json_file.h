// Reading a JSON file with messages that name it: a missing file, and malformed JSON with line and column.
// Bounded: only regular files of at most kMaxJsonFileBytes, nested at most kMaxJsonDepth levels deep (the readers
// and nlohmann's copies recurse per level, and vkCreateInstance may run on a thread with a small stack).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <vector>
#include <string>
#include <string_view>

#include "profile/read_context.h"

namespace crashtest {

// The largest configuration or profile read (a `vulkaninfo --json` export is about 250 KB).
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{64} << 20;
// The deepest nesting of objects and arrays accepted (real profiles nest 8 levels).
inline constexpr std::size_t kMaxJsonDepth = 64;

// False (after reporting "cannot open ...", "not a regular file (a FIFO)" or "larger than 64 MiB") when the file
// cannot be read.
bool ReadTextFile(const std::string& path, std::string& out, const ReadContext& ctx);

// The member names of some top-level objects in the order the file writes them (Json objects are sorted).
struct KeyOrder {
  std::vector<std::string> topLevelKeys;  // which objects to record, e.g. {"profiles", "capabilities"}
  std::map<std::string, std::vector<std::string>> members;
};

class FormatsFastPath;

// nullopt (after reporting "invalid JSON: ..." at line:column) when the text is not JSON or nests deeper than
// kMaxJsonDepth. Reports, and keeps the result: a member name repeated in one object (a warning, an error when
// ctx.strict: JSON leaves the meaning open; the last one is used) and a NUL character in a string or name (an
// error: C strings, log lines and Vulkan names end at it).
// Valid JSON is read by json_fast_reader.h; malformed JSON (and the rare valid text that reader leaves alone) by
// nlohmann's parser, whose message is reported. The result is the same Json::parse would give.
// With `formats`, the "formats" objects of the capability blocks (capabilities.NAME.formats) are read straight
// into it and appear in the result as empty objects (fast_formats.h); when it gives up, the text is parsed again
// without it (formats->Find then finds nothing) — either way the caller sees the same messages.
std::optional<Json> ParseJsonText(std::string_view text, const ReadContext& ctx, KeyOrder* order = nullptr,
                                  FormatsFastPath* formats = nullptr);

}  // namespace crashtest
