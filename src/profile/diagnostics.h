// Messages about a configuration or profile: each names the file, the JSON path (or line and column for
// malformed JSON) and what was expected. Collected rather than logged so that `crashtest check` can print them
// and the driver can log them and fail vkCreateInstance.
#pragma once

#include <string>
#include <vector>

namespace crashtest {

enum class Severity { Error, Warning, Info };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;  // path of the file or "builtin:NAME"
  std::string path;  // JSON path, e.g. "capabilities.device.properties.VkPhysicalDeviceProperties.deviceName"
  int line = 0;      // for malformed JSON, 1-based; 0 when not known
  int column = 0;
  std::string text;  // what is wrong / what was expected

  // "file: path: text", "file:line:column: text" or "file: text"; warnings are prefixed "warning: ",
  // notes (Info) "note: ".
  std::string Format() const;
};

class Diagnostics {
 public:
  void Add(Severity severity, std::string file, std::string path, std::string text);
  void Add(Diagnostic d) { items_.push_back(std::move(d)); }
  void Append(const Diagnostics& other);

  bool HasErrors() const;
  const std::vector<Diagnostic>& Items() const { return items_; }
  std::size_t Count(Severity severity) const;
  // Logs every message through src/common/log.h at its severity.
  void Log() const;

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace crashtest
