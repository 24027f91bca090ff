#include "profile/diagnostics.h"

#include <algorithm>

#include "common/log.h"

namespace crashtest {

std::string Diagnostic::Format() const {
  std::string s;
  if (severity == Severity::Warning) s = "warning: ";
  if (severity == Severity::Info) s = "note: ";
  s += file;
  if (line > 0) {
    s += ':' + std::to_string(line) + ':' + std::to_string(column);
  } else if (!path.empty()) {
    s += ": " + path;
  }
  s += ": " + text;
  return s;
}

void Diagnostics::Add(Severity severity, std::string file, std::string path, std::string text) {
  Diagnostic d;
  d.severity = severity;
  d.file = std::move(file);
  d.path = std::move(path);
  d.text = std::move(text);
  items_.push_back(std::move(d));
}

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

bool Diagnostics::HasErrors() const { return Count(Severity::Error) != 0; }

std::size_t Diagnostics::Count(Severity severity) const {
  return static_cast<std::size_t>(
      std::count_if(items_.begin(), items_.end(), [&](const Diagnostic& d) { return d.severity == severity; }));
}

void Diagnostics::Log() const {
  for (const Diagnostic& d : items_) {
    switch (d.severity) {
      case Severity::Error: CT_ERROR("%s", d.Format().c_str()); break;
      case Severity::Warning: CT_WARN("%s", d.Format().c_str()); break;
      case Severity::Info: CT_INFO("%s", d.Format().c_str()); break;
    }
  }
}

}  // namespace crashtest
