// The work an application does before its first command: create an instance, enumerate physical devices, create a
// device on the first one, then tear both down. Shared by the in-process benchmark and bench/startup_probe so both
// figures measure exactly the same calls.
#pragma once

#include <string>

namespace crashtest::bench {

// Returns "" on success, else a message naming the failing call.
std::string run_startup_sequence();

}  // namespace crashtest::bench
