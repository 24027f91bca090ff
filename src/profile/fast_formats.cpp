#include "profile/fast_formats.h"

#include <algorithm>
#include <cstring>

namespace crashtest {
namespace {

// A hash index of each flags type the format structs read, built once per process: a profile names thousands of
// bits of the same two types (VkFormatFeatureFlagBits and VkFormatFeatureFlagBits2), and building the indexes
// for every profile read cost as much as using them.
const std::vector<std::pair<const EnumTypeInfo*, BitNameIndex>>& FormatFlagBitIndexes() {
  static const std::vector<std::pair<const EnumTypeInfo*, BitNameIndex>> indexes = [] {
    std::vector<std::pair<const EnumTypeInfo*, BitNameIndex>> result;
    for (const char* structName : {"VkFormatProperties", "VkFormatProperties3"}) {
      const StructInfo* info = FindStruct(structName);
      if (info == nullptr) continue;
      for (const MemberInfo& m : info->members) {
        const EnumTypeInfo* type = m.enumType.empty() ? nullptr : FindEnumType(m.enumType);
        if (type == nullptr || std::any_of(result.begin(), result.end(),
                                           [&](const auto& indexed) { return indexed.first == type; }))
          continue;
        BitNameIndex index;
        index.reserve(type->byName.size());
        for (const EnumEntry& e : type->byName) index.emplace(e.name, e.value);  // byName includes the aliases
        result.emplace_back(type, std::move(index));
      }
    }
    return result;
  }();
  return indexes;
}

}  // namespace

FormatsFastPath::FormatsFastPath()
    : formatType_(FindEnumType("VkFormat")),
      props1_(FindStruct("VkFormatProperties")),
      props3_(FindStruct("VkFormatProperties3")) {}

const PreReadFormats* FormatsFastPath::Find(const Json* placeholder) const {
  auto it = results_.find(placeholder);
  return it == results_.end() ? nullptr : &it->second;
}

void FormatsFastPath::Begin(const Json* placeholder) {
  current_ = &results_[placeholder];
  current_->clear();
  level_ = Level::Formats;
  skipDepth_ = 0;
  skipNextValue_ = false;
}

// A recognised format struct crashtest does not emulate (e.g. VkSubpassResolvePerformanceQueryEXT): ReadFormats
// ignores its value whatever it is, so the fast path does too.
FormatsFastPath::Step FormatsFastPath::Skipped(Step whenSkipping) {
  skipNextValue_ = false;
  return whenSkipping;
}

const BitNameIndex* FormatsFastPath::BitsOf(const MemberInfo& member) {
  for (const auto& [known, bits] : memberBits_)
    if (known == &member) return bits;
  const EnumTypeInfo* type = member.enumType.empty() ? nullptr : FindEnumType(member.enumType);
  const BitNameIndex* bits = nullptr;
  for (const auto& [indexed, index] : FormatFlagBitIndexes())
    if (indexed == type) bits = &index;
  memberBits_.emplace_back(&member, bits);
  return bits;
}

FormatsFastPath::Step FormatsFastPath::Key(const std::string& key) {
  if (skipDepth_ > 0) return Step::Continue;
  switch (level_) {
    case Level::Formats: {
      if (formatType_ == nullptr) return Step::GiveUp;
      std::optional<int64_t> format = FindEnumValue(*formatType_, key);
      if (!format) return Step::GiveUp;  // "unknown VkFormat"
      format_ = static_cast<VkFormat>(*format);
      return Step::Continue;
    }
    case Level::Format: {
      const StructInfo* info = FindStruct(key);
      if (info == nullptr) return Step::GiveUp;  // "unknown struct"
      if (info == props1_ || info == props3_) {
        if ((info == props1_ && have1_) || (info == props3_ && have3_)) return Step::GiveUp;  // alias twice
        struct_ = info;
        structBytes_ = info == props1_ ? reinterpret_cast<std::byte*>(&p1_) : reinterpret_cast<std::byte*>(&p3_);
        return Step::Continue;
      }
      // VkFormatProperties2 (rare in exports) and wrong structs take the ordinary path.
      if (info->role != StructRole::FormatProperties || info->name == "VkFormatProperties2") return Step::GiveUp;
      struct_ = nullptr;
      skipNextValue_ = true;
      return Step::Continue;
    }
    case Level::Struct: {
      const MemberInfo* m = struct_->FindMember(key);
      if (m == nullptr || (m->kind != MemberKind::Flags32 && m->kind != MemberKind::Flags64) || m->arrayLength != 0)
        return Step::GiveUp;
      const std::size_t index = static_cast<std::size_t>(m - struct_->members.data());
      if (index >= 64 || (membersSeen_ & (uint64_t{1} << index)) != 0) return Step::GiveUp;
      membersSeen_ |= uint64_t{1} << index;
      member_ = m;
      return Step::Continue;
    }
    case Level::Flags: return Step::GiveUp;
  }
  return Step::GiveUp;
}

FormatsFastPath::Step FormatsFastPath::StartObject() {
  if (skipDepth_ > 0 || skipNextValue_) {
    ++skipDepth_;
    skipNextValue_ = false;
    return Step::Continue;
  }
  switch (level_) {
    case Level::Formats:
      level_ = Level::Format;
      p1_ = {};
      p3_ = {};
      have1_ = false;
      have3_ = false;
      return Step::Continue;
    case Level::Format:
      level_ = Level::Struct;
      membersSeen_ = 0;
      return Step::Continue;
    default: return Step::GiveUp;
  }
}

FormatsFastPath::Step FormatsFastPath::EndObject() {
  if (skipDepth_ > 0) {
    --skipDepth_;
    return Step::Continue;
  }
  switch (level_) {
    case Level::Formats: {
      // Two names of one format (an alias): ReadFormats' order would decide, so let it.
      std::vector<VkFormat> formats;
      formats.reserve(current_->size());
      for (const auto& [format, support] : *current_) formats.push_back(format);
      std::sort(formats.begin(), formats.end());
      if (std::adjacent_find(formats.begin(), formats.end()) != formats.end()) return Step::GiveUp;
      return Step::Done;
    }
    case Level::Format: return FinishFormat();
    case Level::Struct:
      // ReadStructJson succeeded: the struct counts even when it names no member.
      (struct_ == props1_ ? have1_ : have3_) = true;
      level_ = Level::Format;
      return Step::Continue;
    case Level::Flags: return Step::GiveUp;
  }
  return Step::GiveUp;
}

FormatsFastPath::Step FormatsFastPath::FinishFormat() {
  level_ = Level::Formats;
  // As ReadFormats: VkFormatProperties3 carries the full 64-bit flags, VkFormatProperties their low half.
  if (have3_) {
    current_->emplace_back(format_, FormatSupport{p3_.linearTilingFeatures, p3_.optimalTilingFeatures,
                                                  p3_.bufferFeatures});
  } else if (have1_) {
    current_->emplace_back(format_, FormatSupport{p1_.linearTilingFeatures, p1_.optimalTilingFeatures,
                                                  p1_.bufferFeatures});
  }
  return Step::Continue;
}

FormatsFastPath::Step FormatsFastPath::StartArray() {
  if (skipDepth_ > 0 || skipNextValue_) {
    ++skipDepth_;
    skipNextValue_ = false;
    return Step::Continue;
  }
  if (level_ != Level::Struct) return Step::GiveUp;
  bits_ = BitsOf(*member_);
  if (bits_ == nullptr) return Step::GiveUp;
  flags_ = 0;
  level_ = Level::Flags;
  return Step::Continue;
}

FormatsFastPath::Step FormatsFastPath::EndArray() {
  if (skipDepth_ > 0) {
    --skipDepth_;
    return Step::Continue;
  }
  if (level_ != Level::Flags) return Step::GiveUp;
  std::byte* dst = structBytes_ + member_->offset;
  if (member_->kind == MemberKind::Flags64) {
    std::memcpy(dst, &flags_, sizeof(uint64_t));
  } else {
    const uint32_t low = static_cast<uint32_t>(flags_);
    std::memcpy(dst, &low, sizeof(uint32_t));
  }
  level_ = Level::Struct;
  return Step::Continue;
}

FormatsFastPath::Step FormatsFastPath::String(const std::string& value) {
  if (skipDepth_ > 0 || skipNextValue_) return Skipped(Step::Continue);
  if (level_ != Level::Flags) return Step::GiveUp;
  auto bit = bits_->find(value);
  if (bit == bits_->end()) return Step::GiveUp;  // "unknown ... name"
  flags_ |= static_cast<uint64_t>(bit->second);
  return Step::Continue;
}

FormatsFastPath::Step FormatsFastPath::Unsigned(uint64_t value) {
  if (skipDepth_ > 0 || skipNextValue_) return Skipped(Step::Continue);
  // Flags written as a number (ReadFlagsJson accepts those that fit the member).
  if (level_ != Level::Struct || (member_->kind == MemberKind::Flags32 && value > UINT32_MAX)) return Step::GiveUp;
  std::byte* dst = structBytes_ + member_->offset;
  if (member_->kind == MemberKind::Flags64) {
    std::memcpy(dst, &value, sizeof(uint64_t));
  } else {
    const uint32_t low = static_cast<uint32_t>(value);
    std::memcpy(dst, &low, sizeof(uint32_t));
  }
  return Step::Continue;
}

FormatsFastPath::Step FormatsFastPath::OtherScalar() {
  if (skipDepth_ > 0 || skipNextValue_) return Skipped(Step::Continue);
  return Step::GiveUp;
}

}  // namespace crashtest
