#include "common/log.h"

#include "common/log_sink.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace crashtest {
namespace {

LogLevel ReadLevelFromEnvironment() {
  const char* value = std::getenv("CRASHTEST_LOG");
  if (value == nullptr || *value == '\0') return LogLevel::Warn;
  if (std::strcmp(value, "error") == 0) return LogLevel::Error;
  if (std::strcmp(value, "warn") == 0) return LogLevel::Warn;
  if (std::strcmp(value, "info") == 0) return LogLevel::Info;
  if (std::strcmp(value, "debug") == 0) return LogLevel::Debug;
  std::fprintf(stderr, "crashtest: warning: CRASHTEST_LOG='%s' is not one of error|warn|info|debug; using warn\n",
               value);
  return LogLevel::Warn;
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
  char line[2048];
  int prefix = std::snprintf(line, sizeof(line), "crashtest: %s: ", LevelName(level));
  va_list args;
  va_start(args, format);
  std::vsnprintf(line + prefix, sizeof(line) - static_cast<size_t>(prefix) - 1, format, args);
  va_end(args);
  size_t length = std::strlen(line);
  DeliverToLogSinks(level, line + prefix);
  line[length] = '\n';
  std::fwrite(line, 1, length + 1, stderr);
}

}  // namespace crashtest
