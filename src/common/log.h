// Logging to stderr, one line per event, prefixed "crashtest:". CRASHTEST_LOG=error|warn|info|debug (any case)
// chooses the level (default: warn); CRASHTEST_LOG_FILE=PATH appends the lines to PATH instead of stderr. Cheap
// when disabled: the level is read once.
#pragma once

namespace crashtest {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

LogLevel CurrentLogLevel();
inline bool LogEnabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(CurrentLogLevel()); }

void LogMessage(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace crashtest

#define CT_LOG(level, ...)                                                          \
  do {                                                                              \
    if (::crashtest::LogEnabled(::crashtest::LogLevel::level))                      \
      ::crashtest::LogMessage(::crashtest::LogLevel::level, __VA_ARGS__);           \
  } while (0)
#define CT_ERROR(...) CT_LOG(Error, __VA_ARGS__)
#define CT_WARN(...) CT_LOG(Warn, __VA_ARGS__)
#define CT_INFO(...) CT_LOG(Info, __VA_ARGS__)
#define CT_DEBUG(...) CT_LOG(Debug, __VA_ARGS__)
