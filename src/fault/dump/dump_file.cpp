#include "fault/dump/dump_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "common/log.h"

namespace crashtest::dump {

namespace {

std::atomic<uint64_t> gSequence{0};

bool WriteAll(int fd, std::span<const std::byte> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string DumpDirectory(const std::string& configured) {
  const char* env = std::getenv("CRASHTEST_DUMP_DIR");
  if (env != nullptr && env[0] != '\0') return env;
  return configured;
}

std::string DumpFileName(uint32_t deviceIndex) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &utc);
  char name[128];
  std::snprintf(name, sizeof name, "crashtest-%s.%03dZ-p%d-d%u-%llu.ctdump", stamp, static_cast<int>(millis),
                static_cast<int>(getpid()), deviceIndex,
                static_cast<unsigned long long>(gSequence.fetch_add(1, std::memory_order_relaxed) + 1));
  return name;
}

std::string WriteDumpFile(const std::string& directory, uint32_t deviceIndex, std::span<const std::byte> bytes) {
  try {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) {
      CT_ERROR("crash dump not written: cannot create the folder \"%s\" (CRASHTEST_DUMP_DIR / options.dumpDirectory): "
               "%s", directory.c_str(), ec.message().c_str());
      return "";
    }
    const std::string name = DumpFileName(deviceIndex);
    const std::string path = (std::filesystem::path(directory) / name).string();
    // The temporary name starts with a dot and ends differently, so a reader listing *.ctdump never sees a
    // partial dump; the rename makes the whole file appear at once.
    const std::string temporary = (std::filesystem::path(directory) / ("." + name + ".tmp")).string();
    const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      CT_ERROR("crash dump not written: cannot create \"%s\": %s", temporary.c_str(), std::strerror(errno));
      return "";
    }
    const bool written = WriteAll(fd, bytes);
    const int writeErrno = errno;
    const bool closed = close(fd) == 0;
    if (!written || !closed || rename(temporary.c_str(), path.c_str()) != 0) {
      CT_ERROR("crash dump not written to \"%s\": %s", path.c_str(),
               std::strerror(!written ? writeErrno : errno));
      unlink(temporary.c_str());
      return "";
    }
    CT_WARN("crash dump written to %s (%zu bytes; `crashtest decode %s` reads it)", path.c_str(), bytes.size(),
            path.c_str());
    return path;
  } catch (const std::exception& e) {
    CT_ERROR("crash dump not written to \"%s\": %s", directory.c_str(), e.what());
    return "";
  }
}

}  // namespace crashtest::dump
