// State shared by the readers of one JSON file: where messages go and how strict to be.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "profile/diagnostics.h"

namespace crashtest {

// std::map-backed: parsing a large export is twice as fast as with ordered_json. Where the file's order matters
// (the "profiles" and "capabilities" sections) the parser records it separately (json_file.h).
using Json = nlohmann::json;

struct ReadContext {
  std::string file;  // for messages
  bool strict = false;  // warnings about names the installed vk.xml does not know become errors
  Diagnostics* diagnostics = nullptr;

  void Error(const std::string& path, std::string text) const {
    diagnostics->Add(Severity::Error, file, path, std::move(text));
  }
  // Something a newer Vulkan may legitimately contain: skipped, unless strict.
  void Unknown(const std::string& path, std::string text) const {
    diagnostics->Add(strict ? Severity::Error : Severity::Warning, file, path, std::move(text));
  }
  // Something legal but probably not what the author meant (a repeated member name, a limit no device may
  // report): a warning, an error when strict (`crashtest check --strict`).
  void Doubtful(const std::string& path, std::string text) const {
    diagnostics->Add(strict ? Severity::Error : Severity::Warning, file, path, std::move(text));
  }
  void Warn(const std::string& path, std::string text) const {
    diagnostics->Add(Severity::Warning, file, path, std::move(text));
  }
  // Something read leniently that a reader may want to know about (an enum name without its VK_ prefix, as
  // vulkaninfo writes some): logged at info level, never an error, not even when strict.
  void Note(const std::string& path, std::string text) const {
    diagnostics->Add(Severity::Info, file, path, std::move(text));
  }
};

inline std::string JoinPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + '.' + std::string(key);
}
inline std::string IndexPath(const std::string& path, std::size_t index) {
  return path + '[' + std::to_string(index) + ']';
}

// A short description of a JSON value for "got ..." in messages.
std::string DescribeJson(const Json& value);

}  // namespace crashtest
