// The record `crashtest run` reads for its summary line. `crashtest run` names a file in CRASHTEST_RUN_RECORD;
// every process of the run that loads the driver appends one line per event to it ("fault-fired ID"), so the
// summary counts what happened in every process the command started (ctest runs many). Nothing is written when
// the variable is unset, which is every use outside `crashtest run`.
#pragma once

#include <string_view>

namespace crashtest {

inline constexpr const char* kRunRecordEnvironmentVariable = "CRASHTEST_RUN_RECORD";

// Appends "KIND DETAIL\n" in one write(2) (O_APPEND keeps lines of concurrent processes whole). Errors are
// ignored: the record only feeds a summary.
void RecordRunEvent(std::string_view kind, std::string_view detail);

}  // namespace crashtest
