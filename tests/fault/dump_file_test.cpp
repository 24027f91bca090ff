// Dump files (CRASHTEST_DUMP_DIR / options.dumpDirectory): unique, sortable names across processes, atomic writes
// into a folder created when missing, and a write failure that is logged and returns nothing else.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fault/dump/dump_file.h"

namespace crashtest {
namespace {

namespace fs = std::filesystem;

class DumpFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/crashtest-dump-files-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    root_ = name;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
    unsetenv("CRASHTEST_DUMP_DIR");
  }
  std::vector<fs::path> Files(const fs::path& dir) const {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(dir)) out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path root_;
};

TEST_F(DumpFiles, TheEnvironmentOverridesTheConfiguration) {
  unsetenv("CRASHTEST_DUMP_DIR");
  EXPECT_EQ(dump::DumpDirectory("/from/config"), "/from/config");
  EXPECT_EQ(dump::DumpDirectory(""), "");
  setenv("CRASHTEST_DUMP_DIR", "/from/env", 1);
  EXPECT_EQ(dump::DumpDirectory("/from/config"), "/from/env");
  setenv("CRASHTEST_DUMP_DIR", "", 1);  // empty: unset
  EXPECT_EQ(dump::DumpDirectory("/from/config"), "/from/config");
}

TEST_F(DumpFiles, WritesOneWholeFileIntoAFolderItCreates) {
  const fs::path dir = root_ / "nested" / "dumps";
  const std::vector<std::byte> bytes(1000, std::byte{0x42});
  const std::string path = dump::WriteDumpFile(dir.string(), 3, bytes);
  ASSERT_FALSE(path.empty());
  const std::vector<fs::path> files = Files(dir);
  ASSERT_EQ(files.size(), 1u);  // no temporary left behind
  EXPECT_EQ(files[0].string(), path);
  EXPECT_EQ(files[0].extension(), ".ctdump");
  EXPECT_NE(files[0].filename().string().find("-d3-"), std::string::npos);
  EXPECT_EQ(fs::file_size(files[0]), 1000u);
}

TEST_F(DumpFiles, NamesAreUniqueAndSortByTime) {
  std::set<std::string> names;
  std::string previous;
  for (int i = 0; i < 50; ++i) {
    const std::string path = dump::WriteDumpFile(root_.string(), 0, std::vector<std::byte>(8));
    ASSERT_FALSE(path.empty());
    EXPECT_TRUE(names.insert(path).second) << path;
    const std::string name = fs::path(path).filename().string();
    EXPECT_EQ(name.rfind("crashtest-", 0), 0u) << name;
    EXPECT_LE(previous.substr(0, 29), name.substr(0, 29)) << "the timestamp prefix sorts";
    previous = name;
  }
  EXPECT_EQ(Files(root_).size(), 50u);
}

TEST_F(DumpFiles, ProcessesWritingAtOnceNeverCollide) {
  constexpr int kChildren = 4;
  std::vector<pid_t> children;
  for (int c = 0; c < kChildren; ++c) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool ok = true;
      for (int i = 0; i < 10; ++i) ok &= !dump::WriteDumpFile(root_.string(), 0, std::vector<std::byte>(64)).empty();
      _exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(Files(root_).size(), static_cast<size_t>(kChildren * 10));
}

TEST_F(DumpFiles, AnUnwritableFolderIsLoggedAndHarmless) {
  // A regular file where the folder should be: the folder cannot be created.
  const fs::path file = root_ / "not-a-folder";
  std::ofstream(file) << "x";
  testing::internal::CaptureStderr();
  EXPECT_EQ(dump::WriteDumpFile((file / "dumps").string(), 0, std::vector<std::byte>(8)), "");
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("crash dump not written"), std::string::npos) << log;
  EXPECT_NE(log.find("not-a-folder"), std::string::npos) << log;
}

}  // namespace
}  // namespace crashtest
