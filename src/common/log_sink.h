// Where log messages go besides stderr: sinks registered by VK_EXT_debug_utils messengers, so an application sees
// crashtest's messages (a bad configuration, misuse caught with its VUID) in its own debug callback.
#pragma once

#include "common/log.h"

namespace crashtest {

// Called with the message text without the "crashtest: level: " prefix. Sinks run on the thread that logged;
// a message logged while a sink runs on the same thread goes to stderr only (no re-entry).
using LogSinkFunction = void (*)(void* context, LogLevel level, const char* message);

void AddLogSink(void* context, LogSinkFunction function);
// Returns once no call into this sink is running any more, so the context may be freed afterwards.
void RemoveLogSink(void* context);

// Delivers a message to every sink (used by LogMessage).
void DeliverToLogSinks(LogLevel level, const char* message);

}  // namespace crashtest
