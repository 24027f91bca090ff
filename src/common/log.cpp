#include "common/log.h"

#include "common/log_sink.h"
#include "common/utf8.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace crashtest {
namespace {

bool EqualsIgnoringCase(const char* a, const char* b) {
  for (; *a != '\0' && *b != '\0'; ++a, ++b)
    if (std::tolower(static_cast<unsigned char>(*a)) != std::tolower(static_cast<unsigned char>(*b))) return false;
  return *a == *b;
}

LogLevel ReadLevelFromEnvironment() {
  const char* value = std::getenv("CRASHTEST_LOG");
  if (value == nullptr || *value == '\0') return LogLevel::Warn;
  // Any case: CI systems and people write DEBUG as often as debug.
  if (EqualsIgnoringCase(value, "error")) return LogLevel::Error;
  if (EqualsIgnoringCase(value, "warn") || EqualsIgnoringCase(value, "warning")) return LogLevel::Warn;
  if (EqualsIgnoringCase(value, "info")) return LogLevel::Info;
  if (EqualsIgnoringCase(value, "debug")) return LogLevel::Debug;
  std::fprintf(stderr, "crashtest: warning: CRASHTEST_LOG='%s' is not one of error|warn|info|debug; using warn\n",
               value);
  return LogLevel::Warn;
}

// CRASHTEST_LOG_FILE: log lines are appended to that file instead of stderr (a CI artefact that the test's own
// output does not interleave with). Opened once, with O_APPEND so that the processes of one test run can share
// the file: each line is one write(2), which O_APPEND keeps whole. stderr when unset or when it cannot be opened.
int OpenLogFile() {
  const char* path = std::getenv("CRASHTEST_LOG_FILE");
  if (path == nullptr || *path == '\0') return STDERR_FILENO;
  const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::fprintf(stderr, "crashtest: warning: CRASHTEST_LOG_FILE='%s' cannot be opened (%s); logging to stderr\n",
                 path, std::strerror(errno));
    return STDERR_FILENO;
  }
  return fd;
}

int LogDescriptor() {
  static const int fd = OpenLogFile();  // never closed: loggers may run until the process exits
  return fd;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return "error";
    case LogLevel::Warn: return "warning";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
  }
  return "";
}

}  // namespace

LogLevel CurrentLogLevel() {
  static const LogLevel level = ReadLevelFromEnvironment();
  return level;
}

void LogMessage(LogLevel level, const char* format, ...) {
  // Format into one buffer so that concurrent threads do not interleave within a line.
  char text[2048];
  va_list args;
  va_start(args, format);
  const int formatted = std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  const size_t textLength = formatted < 0 ? 0 : std::min(static_cast<size_t>(formatted), sizeof(text) - 1);
  // The message may quote the application's bytes (names, file contents): the line is kept valid UTF-8.
  char line[2048];
  int prefix = std::snprintf(line, sizeof(line), "crashtest: %s: ", LevelName(level));
  size_t length = static_cast<size_t>(prefix) +
                  CopyValidUtf8(text, textLength, line + prefix, sizeof(line) - static_cast<size_t>(prefix) - 1);
  DeliverToLogSinks(level, line + prefix);
  line[length] = '\n';
  // One write per line: whole lines even with several threads or processes on one file. A log line that cannot
  // be written has nowhere else to go.
  [[maybe_unused]] const ssize_t written = write(LogDescriptor(), line, length + 1);
}

}  // namespace crashtest
