#include "common/log_sink.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace crashtest {
namespace {

struct Sink {
  void* context;
  LogSinkFunction function;
};

// Messages are rare next to the work they describe, so one process-wide list behind a reader/writer lock is enough.
std::shared_mutex& SinkMutex() {
  static std::shared_mutex mutex;
  return mutex;
}
std::vector<Sink>& Sinks() {
  static std::vector<Sink> sinks;
  return sinks;
}
thread_local bool deliveringOnThisThread = false;

}  // namespace

void AddLogSink(void* context, LogSinkFunction function) {
  std::unique_lock lock(SinkMutex());
  Sinks().push_back({context, function});
}

void RemoveLogSink(void* context) {
  std::unique_lock lock(SinkMutex());
  auto& sinks = Sinks();
  sinks.erase(std::remove_if(sinks.begin(), sinks.end(), [&](const Sink& s) { return s.context == context; }),
              sinks.end());
}

void DeliverToLogSinks(LogLevel level, const char* message) {
  if (deliveringOnThisThread) return;  // a callback that calls back into the driver must not deadlock
  std::shared_lock lock(SinkMutex());
  if (Sinks().empty()) return;
  deliveringOnThisThread = true;
  for (const Sink& sink : Sinks()) sink.function(sink.context, level, message);
  deliveringOnThisThread = false;
}

}  // namespace crashtest
