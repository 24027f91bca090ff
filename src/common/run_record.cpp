#include "common/run_record.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace crashtest {

void RecordRunEvent(std::string_view kind, std::string_view detail) {
  static const char* const path = std::getenv(kRunRecordEnvironmentVariable);
  if (path == nullptr || *path == '\0') return;
  std::string line;
  line.reserve(kind.size() + detail.size() + 2);
  line.append(kind).append(" ");
  // One event per line, whatever the detail (a fault id) contains.
  for (char c : detail) line.push_back(c == '\n' || c == '\r' ? ' ' : c);
  line.push_back('\n');
  // Opened per event: events are rare (a fault firing), and the file then needs no lifetime management.
  const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t written = write(fd, line.data(), line.size());
  close(fd);
}

}  // namespace crashtest
