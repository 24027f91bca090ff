// What the readers accept but must not stay silent about (issue 18): repeated member names, NUL characters,
// nesting deep enough to exhaust a small stack, files that are not regular files or are too large, machine-model
// values that make the statistics meaningless. Each gives one message naming the file and the JSON path.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "profile/config.h"
#include "profile/json_file.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;

// A temporary folder removed with everything in it.
class TempDir {
 public:
  TempDir() {
    char name[] = "/tmp/crashtest-bounds-XXXXXX";
    path_ = mkdtemp(name) != nullptr ? name : "";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The messages of loading `text` as a configuration file.
struct Loaded {
  bool ok = false;
  Diagnostics diagnostics;
};
Loaded LoadConfigText(const std::string& text, bool strict = false) {
  TempDir dir;
  Loaded out;
  ConfigurationResult result;
  out.ok = LoadConfigurationFile(dir.Write("config.json", text), strict, result);
  out.diagnostics = result.diagnostics;
  return out;
}

// The one message of `severity` (failing the test when there is not exactly one), without the folder.
std::string OnlyMessage(const Diagnostics& diagnostics, Severity severity) {
  EXPECT_EQ(diagnostics.Count(severity), 1u) << AllMessages(diagnostics);
  for (const Diagnostic& d : diagnostics.Items()) {
    if (d.severity != severity) continue;
    Diagnostic copy = d;
    copy.file = std::filesystem::path(copy.file).filename().string();
    return copy.Format();
  }
  return "";
}

TEST(InputBounds, RepeatedMemberIsAWarningAndAnErrorWhenStrict) {
  const std::string text = R"({"options": {"shaderTimeoutMs": 100, "shaderTimeoutMs": 200}})";
  const std::string message =
      "config.json: options.shaderTimeoutMs: repeated in its object (JSON leaves the meaning of a repeated name "
      "open; the last value is used)";
  Loaded lenient = LoadConfigText(text);
  EXPECT_TRUE(lenient.ok) << AllMessages(lenient.diagnostics);
  EXPECT_EQ(OnlyMessage(lenient.diagnostics, Severity::Warning), "warning: " + message);
  Loaded strict = LoadConfigText(text, /*strict=*/true);
  EXPECT_FALSE(strict.ok);
  EXPECT_EQ(OnlyMessage(strict.diagnostics, Severity::Error), message);
}

TEST(InputBounds, StuckWaitOptionsAreReadAndChecked) {
  EXPECT_EQ(OnlyMessage(LoadConfigText(R"({"options": {"stuckWaits": "hang"}})").diagnostics, Severity::Error),
            "config.json: options.stuckWaits: expected \"log\" or \"lose\", got \"hang\"");
  EXPECT_EQ(OnlyMessage(LoadConfigText(R"({"options": {"stuckWaitMs": 86400001}})").diagnostics, Severity::Error),
            "config.json: options.stuckWaitMs: expected an integer from 0 to 86400000, got 86400001");
  TempDir dir;
  ConfigurationResult result;
  ASSERT_TRUE(LoadConfigurationFile(dir.Write("config.json", R"({"options": {"stuckWaitMs": 0, "stuckWaits": "lose"}})"),
                                    false, result))
      << AllMessages(result.diagnostics);
  EXPECT_EQ(result.execution.stuckWaitMs, 0u);
  EXPECT_EQ(result.execution.stuckWaits, StuckWaitMode::Lose);
}

TEST(InputBounds, RepeatedMembersAreFoundAtEveryLevelOfAProfile) {
  const std::string frame =
      R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.1.0", )"
      R"("deviceName": "a", "deviceName": "b"}}, "formats": {"VK_FORMAT_R8_UNORM": {"VkFormatProperties": )"
      R"({"bufferFeatures": []}}, "VK_FORMAT_R8_UNORM": {"VkFormatProperties": {}}}}}, "capabilities": {"device": {}}})";
  for (bool fastFormats : {true, false}) {
    SCOPED_TRACE(fastFormats ? "formats fast path" : "ordinary reader");
    DeviceDescription d;
    Diagnostics diagnostics;
    ProfileReadOptions options{"inline.json", "", false, fastFormats};
    ReadProfileText(frame, options, d, diagnostics);
    const std::string all = AllMessages(diagnostics);
    EXPECT_NE(all.find("warning: inline.json: capabilities: repeated in its object"), std::string::npos) << all;
    options.strict = true;
    Diagnostics strict;
    EXPECT_FALSE(ReadProfileText(frame, options, d, strict));
  }
  // Inside one capability block (the last "capabilities" above replaced the first).
  const std::string inner =
      R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.1.0", )"
      R"("deviceName": "a", "deviceName": "b"}}, "formats": {"VK_FORMAT_R8_UNORM": {"VkFormatProperties": )"
      R"({"bufferFeatures": []}}, "VK_FORMAT_R8_UNORM": {"VkFormatProperties": {}}}}}})";
  DeviceDescription d;
  Diagnostics diagnostics;
  EXPECT_TRUE(ReadProfileText(inner, {"inline.json", "", false}, d, diagnostics)) << AllMessages(diagnostics);
  const std::string all = AllMessages(diagnostics);
  EXPECT_NE(all.find("warning: inline.json: capabilities.device.properties.VkPhysicalDeviceProperties.deviceName: "
                     "repeated in its object"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("warning: inline.json: capabilities.device.formats.VK_FORMAT_R8_UNORM: repeated in its object"),
            std::string::npos)
      << all;
}

TEST(InputBounds, NulInsideAStringOrANameIsAnError) {
  Loaded value = LoadConfigText(R"({"faults": [{"id": "a\u0000b", "when": {"submit": 1}, "effect": "masked"}]})");
  EXPECT_FALSE(value.ok);
  EXPECT_EQ(OnlyMessage(value.diagnostics, Severity::Error),
            "config.json: faults[0].id: a NUL character (\\u0000) in a string or name (names, texts and log lines "
            "end at it)");
  Loaded name = LoadConfigText(R"({"options": {"x\u0000": 1}})");
  EXPECT_FALSE(name.ok);
  const std::string all = AllMessages(name.diagnostics);
  EXPECT_NE(all.find(std::string("options.x") + '\0' + ": a NUL character"), std::string::npos) << all;
}

std::string Nested(std::size_t levels, const std::string& inner = "1") {
  std::string text;
  for (std::size_t i = 0; i < levels; ++i) text += R"({"k":)";
  return text + inner + std::string(levels, '}');
}

TEST(InputBounds, NestingIsBoundedWithLineAndColumn) {
  // The configuration object is level 1, so 63 more levels reach the limit exactly.
  Loaded atLimit = LoadConfigText(R"({"options": )" + Nested(kMaxJsonDepth - 1) + "}");
  EXPECT_EQ(AllMessages(atLimit.diagnostics).find("nested deeper"), std::string::npos)
      << AllMessages(atLimit.diagnostics);
  Loaded beyond = LoadConfigText(R"({"options": )" + Nested(kMaxJsonDepth) + "}");
  EXPECT_FALSE(beyond.ok);
  // The 65th opening brace: `{"options": ` is 12 characters, then 5 per level.
  const std::size_t column = 13 + 5 * (kMaxJsonDepth - 1);
  EXPECT_EQ(OnlyMessage(beyond.diagnostics, Severity::Error),
            "config.json:1:" + std::to_string(column) + ": invalid JSON: objects and arrays nested deeper than " +
                std::to_string(kMaxJsonDepth) + " levels (the limit)");
}

// vkCreateInstance may run on any thread: 100,000 levels under "options", "faults" and a fault's "report" are
// refused on a thread with a 256 KiB stack, malformed or not.
TEST(InputBounds, DeepNestingIsRefusedOnASmallStack) {
  TempDir dir;
  const std::string arrays = std::string(100000, '[') + std::string(100000, ']');
  const std::string files[] = {
      dir.Write("options.json", R"({"options": )" + arrays + "}"),
      dir.Write("faults.json", R"({"faults": )" + arrays + "}"),
      dir.Write("report.json", R"({"faults": [{"id": "x", "when": {"submit": 1}, "effect": "masked", "report": )" +
                                   Nested(100000) + "}]}"),
      dir.Write("unclosed.json", R"({"options": )" + std::string(100000, '[')),
  };
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    struct Work {
      const std::string* file;
      bool ok = true;
      std::string messages;
    } work{&file, true, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    ASSERT_EQ(pthread_create(
                  &thread, &attr,
                  [](void* arg) -> void* {
                    auto* w = static_cast<Work*>(arg);
                    ConfigurationResult result;
                    w->ok = LoadConfigurationFile(*w->file, false, result);
                    w->messages = AllMessages(result.diagnostics);
                    return nullptr;
                  },
                  &work),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    EXPECT_FALSE(work.ok);
    EXPECT_NE(work.messages.find("nested deeper than 64 levels"), std::string::npos) << work.messages;
  }
}

TEST(InputBounds, OnlyRegularFilesAreRead) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::pair<std::string, std::string> kCases[] = {
      {dir.path(), "not a regular file (a directory)"},
      {fifo, "not a regular file (a FIFO)"},  // opening it for reading would block until a writer came
      {"/dev/zero", "not a regular file (a character device)"},  // reading it would never end
  };
  for (const auto& [path, text] : kCases) {
    SCOPED_TRACE(path);
    ConfigurationResult config;
    EXPECT_FALSE(LoadConfigurationFile(path, false, config));
    ASSERT_EQ(config.diagnostics.Items().size(), 1u) << AllMessages(config.diagnostics);
    EXPECT_EQ(config.diagnostics.Items()[0].Format(), path + ": " + text);
    // A profile named by a configuration is read the same way.
    Loaded viaConfig = LoadConfigText(R"({"devices": [")" + path + R"("]})");
    EXPECT_FALSE(viaConfig.ok);
    EXPECT_NE(AllMessages(viaConfig.diagnostics).find(path + ": " + text), std::string::npos)
        << AllMessages(viaConfig.diagnostics);
  }
}

TEST(InputBounds, FilesAreReadUpToALimit) {
  TempDir dir;
  const std::string big = dir.path() + "/big.json";
  {
    std::ofstream(big) << "{}";
  }
  // Sparse: no disk space is used, and the reader stops at the size without reading.
  ASSERT_EQ(truncate(big.c_str(), static_cast<off_t>(kMaxJsonFileBytes) + 1), 0);
  ConfigurationResult config;
  EXPECT_FALSE(LoadConfigurationFile(big, false, config));
  ASSERT_EQ(config.diagnostics.Items().size(), 1u) << AllMessages(config.diagnostics);
  EXPECT_EQ(config.diagnostics.Items()[0].Format(),
            big + ": larger than 64 MiB (" + std::to_string(kMaxJsonFileBytes + 1) + " bytes), the most read");
}

TEST(InputBounds, ZeroLatencyIsAWarningAndAnErrorWhenStrict) {
  const std::string profile =
      R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.0.0"}}}}, )"
      R"("crashtest": {"machine": {"latency": {"branch": 0}}}})";
  const std::string message =
      "inline.json: crashtest.machine.latency.branch: 0 cycles: instructions of this kind cost nothing in the cycle "
      "estimate (expected at least 1)";
  DeviceDescription d;
  Diagnostics lenient;
  EXPECT_TRUE(ReadProfileText(profile, {"inline.json", "", false}, d, lenient)) << AllMessages(lenient);
  EXPECT_EQ(OnlyMessage(lenient, Severity::Warning), "warning: " + message);
  Diagnostics strict;
  EXPECT_FALSE(ReadProfileText(profile, {"inline.json", "", true}, d, strict));
  EXPECT_EQ(OnlyMessage(strict, Severity::Error), message);
}

}  // namespace
}  // namespace crashtest
