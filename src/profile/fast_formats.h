// A fast path for the bulk of a large profile: the "formats" section of a capability block (two thirds of a
// `vulkaninfo --json` export) read straight from the parser's events into FormatSupport values, without building
// JSON values for it. It only accepts what ProfileReader::ReadFormats would read without a single message; on
// anything else (an unknown name, a wrong type, a duplicate, a struct it does not read) it gives up, and the file
// is parsed again the ordinary way so that every message stays exactly what it was.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "device/device_description.h"
#include "profile/read_context.h"
#include "profile/struct_table.h"

namespace crashtest {

// The formats of one "formats" object, in file order; the formats are distinct.
using PreReadFormats = std::vector<std::pair<VkFormat, FormatSupport>>;

// The value of each bit name of one flags type (aliases included).
using BitNameIndex = std::unordered_map<std::string_view, int64_t>;

class FormatsFastPath {
 public:
  enum class Step { Continue, Done, GiveUp };

  FormatsFastPath();

  // What was read for the "formats" object whose place in the DOM is `placeholder` (an empty object); null when
  // that object was not read by the fast path.
  const PreReadFormats* Find(const Json* placeholder) const;
  void Clear() { results_.clear(); }

  // The parser's events inside one "formats" object, starting after its opening brace. Done after its closing
  // brace; GiveUp when the ordinary reader would have something to say.
  void Begin(const Json* placeholder);
  Step Key(const std::string& key);
  Step StartObject();
  Step EndObject();
  Step StartArray();
  Step EndArray();
  Step String(const std::string& value);
  Step Unsigned(uint64_t value);
  Step OtherScalar();  // null, boolean, signed or floating-point number

 private:
  enum class Level { Formats, Format, Struct, Flags };
  Step FinishFormat();
  Step Skipped(Step whenSkipping);

  // The bit names of a flags member of props1_ or props3_; null when there is no index for its type.
  const BitNameIndex* BitsOf(const MemberInfo& member);

  const EnumTypeInfo* formatType_;
  const StructInfo* props1_;
  const StructInfo* props3_;
  std::unordered_map<const Json*, PreReadFormats> results_;

  // Where the reader is.
  PreReadFormats* current_ = nullptr;
  Level level_ = Level::Formats;
  int skipDepth_ = 0;        // > 0 inside a recognised struct that is not emulated (its value is not read)
  bool skipNextValue_ = false;
  VkFormat format_{};
  VkFormatProperties p1_{};
  VkFormatProperties3 p3_{};
  bool have1_ = false;
  bool have3_ = false;
  const StructInfo* struct_ = nullptr;  // the struct being read (props1_ or props3_)
  std::byte* structBytes_ = nullptr;
  const MemberInfo* member_ = nullptr;  // the flags member being read
  const BitNameIndex* bits_ = nullptr;
  std::vector<std::pair<const MemberInfo*, const BitNameIndex*>> memberBits_;  // BitsOf's answers so far
  uint64_t flags_ = 0;
  uint64_t membersSeen_ = 0;  // bit per member index of struct_
};

}  // namespace crashtest
