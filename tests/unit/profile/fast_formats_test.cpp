// The fast path for "formats" sections (src/profile/fast_formats.h) must be invisible: for every input, reading
// with it gives the same device and the same messages as reading every section from JSON values. It must also
// really be taken for the exports it exists for.
#include "profile/fast_formats.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "profile/builtin_profiles.h"
#include "profile/json_file.h"
#include "profile/profile_reader.h"
#include "test_support.h"

namespace crashtest {
namespace {

using test::AllMessages;
using test::DataPath;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct Outcome {
  bool ok = false;
  DeviceDescription device;
  std::string messages;
};

Outcome Read(std::string_view text, bool fast, bool strict = false) {
  Outcome r;
  Diagnostics diagnostics;
  ProfileReadOptions options;
  options.source = "inline.json";
  options.strict = strict;
  options.fastFormats = fast;
  r.ok = ReadProfileText(text, options, r.device, diagnostics);
  r.messages = AllMessages(diagnostics);
  return r;
}

std::string FormatsText(const DeviceDescription& d) {
  std::ostringstream s;
  for (const auto& [format, support] : d.formats)
    s << format << ": " << support.linearTilingFeatures << ' ' << support.optimalTilingFeatures << ' '
      << support.bufferFeatures << '\n';
  return s.str();
}

// Everything the fast path could influence, and enough of the rest to notice a different parse.
void ExpectSameRead(std::string_view text, bool strict = false) {
  const Outcome fast = Read(text, true, strict);
  const Outcome slow = Read(text, false, strict);
  EXPECT_EQ(fast.ok, slow.ok);
  EXPECT_EQ(fast.messages, slow.messages);
  EXPECT_EQ(FormatsText(fast.device), FormatsText(slow.device));
  ASSERT_EQ(fast.device.extensions.size(), slow.device.extensions.size());
  for (std::size_t i = 0; i < fast.device.extensions.size(); ++i)
    EXPECT_STREQ(fast.device.extensions[i].extensionName, slow.device.extensions[i].extensionName);
  EXPECT_EQ(std::memcmp(&fast.device.properties, &slow.device.properties, sizeof(VkPhysicalDeviceProperties)), 0);
  EXPECT_EQ(std::memcmp(&fast.device.features, &slow.device.features, sizeof(VkPhysicalDeviceFeatures)), 0);
  EXPECT_EQ(fast.device.extendedFeatures.size(), slow.device.extendedFeatures.size());
  EXPECT_EQ(fast.device.extendedProperties.size(), slow.device.extendedProperties.size());
  EXPECT_EQ(fast.device.queueFamilies.size(), slow.device.queueFamilies.size());
  EXPECT_EQ(fast.device.profileName, slow.device.profileName);
}

// How many formats the fast path read for capabilities.device.formats; -1 when it gave up.
int FastFormatCount(std::string_view text) {
  Diagnostics diagnostics;
  ReadContext ctx{"inline.json", false, &diagnostics};
  KeyOrder order;
  order.topLevelKeys = {"profiles", "capabilities"};
  FormatsFastPath formats;
  std::optional<Json> root = ParseJsonText(text, ctx, &order, &formats);
  if (!root) return -2;
  const Json& placeholder = root->at("capabilities").at("device").at("formats");
  const PreReadFormats* read = formats.Find(&placeholder);
  if (read == nullptr) return -1;
  EXPECT_TRUE(placeholder.is_object() && placeholder.empty());
  return static_cast<int>(read->size());
}

TEST(FormatsFastPath, IsTakenForTheLlvmpipeExportAndTheBuiltins) {
  const std::string llvmpipe = ReadFile(DataPath("profiles/llvmpipe-mesa-22.3.6.json"));
  ASSERT_FALSE(llvmpipe.empty());
  EXPECT_EQ(FastFormatCount(llvmpipe), 135);
  for (const BuiltinProfile& p : BuiltinProfiles()) EXPECT_GT(FastFormatCount(p.json), 0) << p.name;
}

TEST(FormatsFastPath, ReadsTheSameAsTheJsonReaderForEveryDataProfileAndBuiltin) {
  for (const char* name : {"llvmpipe-mesa-22.3.6.json", "minimal-discrete.json", "newer-struct.json",
                           "bad-limit-type.json"}) {
    SCOPED_TRACE(name);
    ExpectSameRead(ReadFile(DataPath(std::string("profiles/") + name)));
  }
  for (const BuiltinProfile& p : BuiltinProfiles()) {
    SCOPED_TRACE(p.name);
    ExpectSameRead(p.json);
  }
}

// A profile whose one block has the given "formats" object.
std::string WithFormats(const std::string& formats) {
  return R"({"capabilities": {"device": {"properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.3.0"}}, )"
         R"("formats": )" + formats + "}}}";
}

struct Case {
  const char* what;
  std::string text;
  int fastCount;  // formats the fast path reads; -1: it must give up (the ordinary reader has something to say)
};

TEST(FormatsFastPath, GivesUpWhereTheJsonReaderHasSomethingToSayAndReadsTheSame) {
  const std::string flags1 = R"({"linearTilingFeatures": ["VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT"], )"
                             R"("optimalTilingFeatures": [], "bufferFeatures": ["VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT"]})";
  const std::string flags3 = R"({"linearTilingFeatures": ["VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT"], )"
                             R"("optimalTilingFeatures": ["VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT", )"
                             R"("VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT"], "bufferFeatures": []})";
  const Case cases[] = {
      {"both structs", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": )" + flags1 +
                                   R"(, "VkFormatProperties3": )" + flags3 + "}}"), 1},
      {"only VkFormatProperties", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": )" + flags1 + "}}"), 1},
      {"flags as numbers", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"linearTilingFeatures": 1, )"
                                       R"("bufferFeatures": 64}}})"), 1},
      {"empty struct and empty format", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties3": {}}, )"
                                                    R"("VK_FORMAT_R8_SNORM": {}})"), 1},
      {"a struct that is not emulated", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkSubpassResolvePerformanceQueryEXT": )"
                                                    R"({"optimal": [1, {"x": "y"}]}, "VkFormatProperties": )" + flags1 + "}}"), 1},
      {"empty", WithFormats("{}"), 0},
      {"unknown format", WithFormats(R"({"VK_FORMAT_R8_UNORMAL": {"VkFormatProperties": )" + flags1 + "}}"), -1},
      {"unknown bit", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": )"
                                  R"(["VK_FORMAT_FEATURE_VERTEX_BUFFER"]}}})"), -1},
      {"bit of the wrong type", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": )"
                                            R"(["VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT"]}}})"), -1},
      {"32-bit flags out of range", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": )"
                                                R"({"bufferFeatures": 4294967296}}})"), -1},
      {"signed flags", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": -1}}})"), -1},
      {"unknown member", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeature": []}}})"), -1},
      {"sType member", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties3": {"sType": 1}}})"), -1},
      {"unknown struct", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties4": )" + flags1 + "}}"), -1},
      {"wrong struct", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkPhysicalDeviceFeatures": {}}})"), -1},
      {"VkFormatProperties2", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties2": {"formatProperties": )" +
                                          flags1 + "}}}"), -1},
      {"format not an object", WithFormats(R"({"VK_FORMAT_R8_UNORM": [1]})"), -1},
      {"struct not an object", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": "x"}})"), -1},
      {"bit not a string", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": [1]}}})"), -1},
      {"repeated format", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": 1}}, )"
                                      R"("VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": 2}}})"), -1},
      {"format and its alias", WithFormats(R"({"VK_FORMAT_G8B8G8R8_422_UNORM_KHR": {"VkFormatProperties": )"
                                           R"({"bufferFeatures": 1}}, "VK_FORMAT_G8B8G8R8_422_UNORM": )"
                                           R"({"VkFormatProperties": {"bufferFeatures": 2}}})"), -1},
      {"struct and its alias", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties3KHR": {"bufferFeatures": )"
                                           R"(["VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT"]}, "VkFormatProperties3": {}}})"), -1},
      {"repeated member", WithFormats(R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": 1, )"
                                      R"("bufferFeatures": 2}}})"), -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(FastFormatCount(c.text), c.fastCount);
    ExpectSameRead(c.text);
    ExpectSameRead(c.text, /*strict=*/true);
  }
}

TEST(FormatsFastPath, LeavesOtherShapesToTheJsonReader) {
  const std::string format = R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": 1}}})";
  const std::string otherFormat = R"({"VK_FORMAT_R8_UNORM": {"VkFormatProperties": {"bufferFeatures": 2}}, )"
                                  R"("VK_FORMAT_R8_SNORM": {"VkFormatProperties": {"bufferFeatures": 1}}})";
  const std::string props = R"("properties": {"VkPhysicalDeviceProperties": {"apiVersion": "1.3.0"}})";
  const std::string texts[] = {
      // A block of alternatives: the first is read, by the JSON reader.
      R"({"capabilities": {"device": [{)" + props + R"(, "formats": )" + format + R"(}, {"formats": {}}]}})",
      // Blocks merged in the order the profile lists them: the later block's format wins.
      R"({"capabilities": {"a": {)" + props + R"(, "formats": )" + format + R"(}, "b": {"formats": )" + otherFormat +
          R"(}}, "profiles": {"P": {"capabilities": ["b", "a"]}}})",
      R"({"capabilities": {"a": {)" + props + R"(, "formats": )" + format + R"(}, "b": {"formats": )" + otherFormat +
          R"(}}, "profiles": {"P": {"capabilities": ["a", "b"]}}})",
      // A repeated block or section: the last one counts.
      R"({"capabilities": {"device": {)" + props + R"(, "formats": )" + format + R"(, "formats": )" + otherFormat +
          "}}}",
      R"({"capabilities": {"device": {"formats": )" + format + R"(}, "device": {)" + props + "}}}",
      // Malformed JSON inside and after the formats: the same line and column.
      "{\"capabilities\": {\"device\": {\n \"formats\": {\"VK_FORMAT_R8_UNORM\": {\"VkFormatProperties\": {,}}}}}}",
      "{\"capabilities\": {\"device\": {\n \"formats\": {\"VK_FORMAT_R8_UNORM\": {}}}}} x",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    ExpectSameRead(text);
  }
  // The merge really happened in order (not only the same in both readers).
  const Outcome ba = Read(texts[1], true);
  const Outcome ab = Read(texts[2], true);
  ASSERT_TRUE(ba.ok) << ba.messages;
  ASSERT_TRUE(ab.ok) << ab.messages;
  EXPECT_EQ(ba.device.formats.at(VK_FORMAT_R8_UNORM).bufferFeatures, 1u);
  EXPECT_EQ(ab.device.formats.at(VK_FORMAT_R8_UNORM).bufferFeatures, 2u);
  EXPECT_EQ(Read(texts[5], true).messages.rfind("inline.json:2:", 0), 0u) << Read(texts[5], true).messages;
}

}  // namespace
}  // namespace crashtest
