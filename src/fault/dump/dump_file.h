// Dump files: when CRASHTEST_DUMP_DIR (or the configuration's options.dumpDirectory) names a folder, each device
// loss also writes its vendor binary there, as the crash handlers of real drivers do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace crashtest::dump {

// The folder dumps go to: CRASHTEST_DUMP_DIR when set and non-empty (the environment overrides the file, as for
// CRASHTEST_LOG), else `configured` (options.dumpDirectory); "" for none.
std::string DumpDirectory(const std::string& configured);

// "crashtest-20261202T023456.123Z-p4242-d0-1.ctdump": UTC time to the millisecond, process id, device index and
// a per-process sequence number, so names are unique across processes and sort by time.
std::string DumpFileName(uint32_t deviceIndex);

// Writes `bytes` to `directory`/DumpFileName(...) atomically (a temporary file in the same folder, then a rename),
// creating the folder when missing. Logs the path at warning level, or why it failed; never throws. Returns the
// path, or "" on failure.
std::string WriteDumpFile(const std::string& directory, uint32_t deviceIndex, std::span<const std::byte> bytes);

}  // namespace crashtest::dump
