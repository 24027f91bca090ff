#include "common/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace crashtest {
namespace {

const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string NotRegular(mode_t mode) {
  const std::string type = FileTypeName(mode);
  return type == "not a regular file" ? type : "not a regular file (" + type + ")";
}

}  // namespace

std::string DescribeByteCount(std::size_t bytes) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  if (bytes >= kGiB && bytes % kGiB == 0) return std::to_string(bytes / kGiB) + " GiB";
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

bool ReadRegularFile(const std::string& path, std::size_t maxBytes, std::string& out, std::string& error) {
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) {
    error = std::string("cannot open (") + std::strerror(errno) + ")";
    return false;
  }
  // open(2) of a FIFO without a writer blocks: refuse it (and every other non-regular file) before opening.
  if (!S_ISREG(before.st_mode)) {
    error = NotRegular(before.st_mode);
    return false;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = std::string("cannot open (") + std::strerror(errno) + ")";
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) {
    error = std::string("cannot read (") + std::strerror(errno) + ")";
    return false;
  }
  if (!S_ISREG(opened.st_mode)) {  // replaced between stat and open
    error = NotRegular(opened.st_mode);
    return false;
  }
  const auto tooLarge = [&](std::size_t size) {
    error = "larger than " + DescribeByteCount(maxBytes) + " (" + std::to_string(size) + " bytes), the most read";
    return false;
  };
  if (opened.st_size < 0 || static_cast<unsigned long long>(opened.st_size) > maxBytes)
    return tooLarge(static_cast<std::size_t>(opened.st_size));
  std::string text;
  text.resize(static_cast<std::size_t>(opened.st_size));
  std::size_t done = 0;
  // Read to the end rather than trusting st_size: the file may grow while it is read, up to the bound.
  for (;;) {
    if (done == text.size()) {
      if (text.size() > maxBytes) return tooLarge(text.size());
      text.resize(text.size() + 4096);
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot read (") + std::strerror(errno) + ")";
      return false;
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done > maxBytes) return tooLarge(done);
  text.resize(done);
  out = std::move(text);
  return true;
}

}  // namespace crashtest
