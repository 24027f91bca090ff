#include "run_manifest.h"

#include <filesystem>
#include <system_error>

namespace crashtest {
namespace {

namespace fs = std::filesystem;

fs::path Canonical(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::canonical(p, ec);
  return ec ? p : c;
}

bool IsFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::string FindDriverManifest(std::vector<std::string>& searched) {
  const fs::path self = Canonical("/proc/self/exe");
  // The build tree's manifest names the build tree's library by its absolute path: right only for the build
  // tree's own `crashtest` (an installed one must not pick up a stale build directory).
  if (self == Canonical(CRASHTEST_BUILD_TOOL)) {
    searched.push_back(CRASHTEST_BUILD_MANIFEST);
    if (IsFile(CRASHTEST_BUILD_MANIFEST)) return CRASHTEST_BUILD_MANIFEST;
  }
  // An installation moved as a whole (a container image, an unpacked archive): bindir/../datadir/vulkan/icd.d.
  const fs::path relocated = (self.parent_path() / CRASHTEST_BINDIR_TO_MANIFEST).lexically_normal();
  searched.push_back(relocated.string());
  if (IsFile(relocated)) return relocated.string();
  searched.push_back(CRASHTEST_INSTALLED_MANIFEST);
  if (IsFile(CRASHTEST_INSTALLED_MANIFEST)) return CRASHTEST_INSTALLED_MANIFEST;
  return {};
}

}  // namespace crashtest
