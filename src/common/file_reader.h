// Reading a whole file the application or user names (a configuration, a profile, a SPIR-V module): only regular
// files, and only up to a bound, so that a FIFO, a device such as /dev/zero or a directory is refused with a
// clear message instead of blocking forever, exhausting memory or being read as empty text.
#pragma once

#include <cstddef>
#include <string>

namespace crashtest {

// False with `error` ("not a regular file (a FIFO)", "larger than 64 MiB (...)", "cannot open (No such file or
// directory)") when the file cannot be read whole. Never blocks on a FIFO: the type is checked before opening and
// the file is opened non-blocking.
bool ReadRegularFile(const std::string& path, std::size_t maxBytes, std::string& out, std::string& error);

// "64 MiB", "1 GiB", "4096 bytes": a byte count for messages.
std::string DescribeByteCount(std::size_t bytes);

}  // namespace crashtest
