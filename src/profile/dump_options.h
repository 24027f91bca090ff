// The configuration's "options" that govern crash dumps (docs/configuration.md, docs/faults.md "Vendor binary").
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "profile/read_context.h"

namespace crashtest {

// A cap must leave room for the header, the names and the fault records; 1 MiB holds a long submission.
inline constexpr uint64_t kMinDumpSizeLimit = 4096;
inline constexpr uint64_t kDefaultDumpSizeLimit = uint64_t{1} << 20;
inline constexpr uint64_t kMaxDumpSizeLimit = uint64_t{1} << 30;

struct DumpOptions {
  // Where each device loss also writes its vendor binary ("": nowhere unless CRASHTEST_DUMP_DIR is set, which
  // overrides it). A relative path is resolved against the configuration file's folder.
  std::string directory;
  uint64_t sizeLimit = kDefaultDumpSizeLimit;  // bytes; lists past it are cut, and the dump says what was cut
};

// Reads "dumpDirectory" and "dumpSizeLimit" of "options"; other members are left to their readers. False on an
// error.
bool ReadDumpOptions(const ReadContext& ctx, const nlohmann::json& options, const std::string& baseDirectory,
                     DumpOptions& out);

}  // namespace crashtest
