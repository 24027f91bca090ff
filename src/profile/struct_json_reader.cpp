#include "profile/struct_json_reader.h"

#include <charconv>
#include <cstring>
#include <limits>

#include "profile/closest_name.h"

namespace crashtest {
namespace {

std::string Quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

// The JSON path of a value, spelled out only when a message needs it: a large profile has thousands of members
// and flag bits that read without one.
class PathRef {
 public:
  explicit PathRef(const std::string& path) : path_(&path) {}
  PathRef(const PathRef& parent, std::string_view key) : parent_(&parent), key_(key) {}
  PathRef(const PathRef& parent, std::size_t index) : parent_(&parent), index_(index) {}

  std::string Str() const {
    if (path_ != nullptr) return *path_;
    return index_ == kNoIndex ? JoinPath(parent_->Str(), key_) : IndexPath(parent_->Str(), index_);
  }

 private:
  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
  const std::string* path_ = nullptr;
  const PathRef* parent_ = nullptr;
  std::string_view key_;
  std::size_t index_ = kNoIndex;
};

std::string ClosestEnumName(const EnumTypeInfo& type, std::string_view name) {
  std::string_view best = ClosestName(name, [&](const auto& visit) {
    for (const EnumEntry& e : type.byName) visit(e.name);
  });
  return best.empty() ? std::string() : " (did you mean " + Quoted(best) + "?)";
}

bool ReadFlags(const ReadContext& ctx, std::string_view bitsType, bool is64Bit, const Json& value,
               const PathRef& path, uint64_t& out);

// vulkaninfo --json (1.4) writes some enum values without their VK_ prefix ("SAMPLE_COUNT_16_BIT"), and the
// Vulkan-Profiles tools read them: accept the unprefixed name of a real value, with a note. A name that is not a
// value with or without the prefix stays an error.
bool FindEnumValueOrUnprefixed(const ReadContext& ctx, const EnumTypeInfo& type, const std::string& name,
                               const PathRef& path, int64_t& out) {
  if (std::optional<int64_t> found = FindEnumValue(type, name)) {
    out = *found;
    return true;
  }
  if (name.rfind("VK_", 0) == 0) return false;
  std::optional<int64_t> found = FindEnumValue(type, "VK_" + name);
  if (!found) return false;
  ctx.Note(path.Str(), Quoted(name) + " read as the " + std::string(type.name) + " value VK_" + name +
                           " (written without its VK_ prefix, as vulkaninfo does)");
  out = *found;
  return true;
}

const char* KindExpectation(MemberKind kind) {
  switch (kind) {
    case MemberKind::Bool32: return "true or false";
    case MemberKind::UInt8: return "an unsigned 8-bit integer";
    case MemberKind::UInt16: return "an unsigned 16-bit integer";
    case MemberKind::UInt32: return "an unsigned 32-bit integer";
    case MemberKind::Int32: return "a signed 32-bit integer";
    case MemberKind::UInt64: return "an unsigned 64-bit integer";
    case MemberKind::Int64: return "a signed 64-bit integer";
    case MemberKind::Float: return "a number";
    case MemberKind::Size: return "an unsigned integer";
    case MemberKind::Enum: return "an enum value name";
    case MemberKind::Flags32:
    case MemberKind::Flags64: return "an array of flag bit names";
    case MemberKind::String: return "a string";
    case MemberKind::Struct: return "an object";
  }
  return "a value";
}

template <typename T>
void Store(std::byte* dst, T value) {
  std::memcpy(dst, &value, sizeof(T));
}

// Integers: JSON integers in range of the member's C type.
bool ReadInteger(const ReadContext& ctx, const MemberInfo& m, const Json& v, const PathRef& path,
                 std::byte* dst) {
  int64_t lo = 0;
  uint64_t hi = 0;
  switch (m.kind) {
    case MemberKind::UInt8: hi = UINT8_MAX; break;
    case MemberKind::UInt16: hi = UINT16_MAX; break;
    case MemberKind::UInt32: hi = UINT32_MAX; break;
    case MemberKind::Int32: lo = INT32_MIN; hi = INT32_MAX; break;
    case MemberKind::UInt64:
    case MemberKind::Size: hi = UINT64_MAX; break;
    case MemberKind::Int64: lo = INT64_MIN; hi = INT64_MAX; break;
    default: break;
  }
  if (!v.is_number_integer()) {
    ctx.Error(path.Str(), std::string("expected ") + KindExpectation(m.kind) + ", got " + DescribeJson(v));
    return false;
  }
  bool inRange;
  uint64_t bits;
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    inRange = u <= hi;
    bits = u;
  } else {
    int64_t s = v.get<int64_t>();
    inRange = s >= lo && (s < 0 || static_cast<uint64_t>(s) <= hi);
    bits = static_cast<uint64_t>(s);
  }
  if (!inRange) {
    ctx.Error(path.Str(), std::string("expected ") + KindExpectation(m.kind) + ", got " + DescribeJson(v) +
                              " (out of range)");
    return false;
  }
  switch (m.elementSize) {
    case 1: Store(dst, static_cast<uint8_t>(bits)); break;
    case 2: Store(dst, static_cast<uint16_t>(bits)); break;
    case 4: Store(dst, static_cast<uint32_t>(bits)); break;
    default: Store(dst, bits); break;
  }
  return true;
}

bool ReadEnum(const ReadContext& ctx, const MemberInfo& m, const Json& vIn, const PathRef& path,
              std::byte* dst) {
  const Json* chosen = &vIn;
  // A single-bit member (VkSampleCountFlagBits, ...) written as a one-element flag array, the shape a flags
  // member has: the bit is unambiguous.
  if (vIn.is_array() && vIn.size() == 1 && vIn[0].is_string()) {
    const EnumTypeInfo* type = FindEnumType(m.enumType);
    if (type != nullptr && type->isBitmask) {
      ctx.Note(path.Str(), "a one-element array read as the single " + std::string(m.enumType) + " value it holds");
      chosen = &vIn[0];
    }
  }
  const Json& v = *chosen;
  int64_t value = 0;
  if (v.is_number_integer()) {
    value = v.get<int64_t>();  // vulkaninfo writes values it has no name for as numbers
  } else if (v.is_string()) {
    const std::string& name = v.get_ref<const std::string&>();
    const EnumTypeInfo* enumType = FindEnumType(m.enumType);
    bool found = enumType != nullptr && FindEnumValueOrUnprefixed(ctx, *enumType, name, path, value);
    // vulkaninfo (1.3.239) writes a value its headers have no name for as "VK_UNKNOWN_<EnumType>_value<N>" in
    // --json profiles ("UNKNOWN_..." in its text output): read N, so that `vulkaninfo --json` of any device
    // (crashtest's own driverID 1000 included) loads back.
    if (!found) {
      std::string unknownPrefix = "UNKNOWN_" + std::string(m.enumType) + "_value";
      if (name.rfind("VK_", 0) == 0) unknownPrefix = "VK_" + unknownPrefix;
      if (name.rfind(unknownPrefix, 0) == 0 && name.size() > unknownPrefix.size() &&
          name.find_first_not_of("0123456789", unknownPrefix.size()) == std::string::npos) {
        // Digits only, but possibly too many for an int64_t: that is no value either (never an exception).
        const char* first = name.data() + unknownPrefix.size();
        const char* last = name.data() + name.size();
        const auto [end, ec] = std::from_chars(first, last, value);
        found = ec == std::errc() && end == last;
      }
    }
    if (!found) {
      const EnumTypeInfo* type = FindEnumType(m.enumType);
      ctx.Error(path.Str(), "unknown " + std::string(m.enumType) + " value " + Quoted(name) +
                                (type ? ClosestEnumName(*type, name) : std::string()));
      return false;
    }
  } else {
    ctx.Error(path.Str(), "expected a " + std::string(m.enumType) + " value name, got " + DescribeJson(v));
    return false;
  }
  Store(dst, static_cast<int32_t>(value));
  return true;
}

bool ReadString(const ReadContext& ctx, const MemberInfo& m, const Json& v, const PathRef& path,
                std::byte* dst) {
  if (!v.is_string()) {
    ctx.Error(path.Str(), "expected a string, got " + DescribeJson(v));
    return false;
  }
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() >= m.arrayLength) {
    ctx.Error(path.Str(), "expected a string of at most " + std::to_string(m.arrayLength - 1) + " bytes, got " +
                              std::to_string(s.size()) + " bytes");
    return false;
  }
  std::memset(dst, 0, m.arrayLength);
  std::memcpy(dst, s.data(), s.size());
  return true;
}

// Members of a nested struct (VkPhysicalDeviceProperties.limits) are recorded in `given` too: the Required Limits
// check looks only at the limits a profile states.
bool ReadElement(const ReadContext& ctx, const MemberInfo& m, const Json& v, const PathRef& path,
                 std::byte* dst, GivenMembers* given) {
  switch (m.kind) {
    case MemberKind::Bool32:
      if (!v.is_boolean()) {
        ctx.Error(path.Str(), "expected true or false, got " + DescribeJson(v));
        return false;
      }
      Store(dst, static_cast<VkBool32>(v.get<bool>() ? VK_TRUE : VK_FALSE));
      return true;
    case MemberKind::UInt32:
      // "apiVersion": "1.3.230" is how people (and the Profiles "api-version") write versions.
      if (m.name == "apiVersion" && v.is_string()) {
        std::optional<uint32_t> version = ParseVersionString(v.get_ref<const std::string&>());
        if (!version) {
          ctx.Error(path.Str(), "expected a version \"major.minor.patch\" or a number, got " + DescribeJson(v));
          return false;
        }
        Store(dst, *version);
        return true;
      }
      return ReadInteger(ctx, m, v, path, dst);
    case MemberKind::UInt8:
    case MemberKind::UInt16:
    case MemberKind::Int32:
    case MemberKind::UInt64:
    case MemberKind::Int64:
    case MemberKind::Size: return ReadInteger(ctx, m, v, path, dst);
    case MemberKind::Float:
      if (!v.is_number()) {
        ctx.Error(path.Str(), "expected a number, got " + DescribeJson(v));
        return false;
      }
      Store(dst, v.get<float>());
      return true;
    case MemberKind::Enum: return ReadEnum(ctx, m, v, path, dst);
    case MemberKind::Flags32:
    case MemberKind::Flags64: {
      uint64_t flags = 0;
      if (!ReadFlags(ctx, m.enumType, m.kind == MemberKind::Flags64, v, path, flags)) return false;
      if (m.kind == MemberKind::Flags64)
        Store(dst, flags);
      else
        Store(dst, static_cast<uint32_t>(flags));
      return true;
    }
    case MemberKind::String: return ReadString(ctx, m, v, path, dst);
    case MemberKind::Struct: {
      const StructInfo* nested = FindStruct(m.typeName);
      if (!v.is_object()) {
        ctx.Error(path.Str(), "expected a " + std::string(m.typeName) + " object, got " + DescribeJson(v));
        return false;
      }
      return nested != nullptr && ReadStructJson(ctx, *nested, v, dst, path.Str(), given);
    }
  }
  return false;
}

}  // namespace

std::string DescribeJson(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const std::string& s = value.get_ref<const std::string&>();
      return s.size() > 40 ? Quoted(s.substr(0, 40) + "...") : Quoted(s);
    }
    default: return value.dump();
  }
}

std::optional<uint32_t> ParseVersionString(std::string_view text) {
  uint32_t parts[3] = {0, 0, 0};
  std::size_t count = 0;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  while (count < 3) {
    auto [next, ec] = std::from_chars(p, end, parts[count]);
    if (ec != std::errc() || next == p) return std::nullopt;
    ++count;
    p = next;
    if (p == end) break;
    if (*p != '.') return std::nullopt;
    ++p;
  }
  if (p != end || count < 2 || parts[0] > 127 || parts[1] > 1023 || parts[2] > 4095) return std::nullopt;
  return VK_MAKE_API_VERSION(0, parts[0], parts[1], parts[2]);
}

bool ReadFlagsJson(const ReadContext& ctx, std::string_view bitsType, bool is64Bit, const Json& value,
                   const std::string& path, uint64_t& out) {
  return ReadFlags(ctx, bitsType, is64Bit, value, PathRef(path), out);
}

namespace {

bool ReadFlags(const ReadContext& ctx, std::string_view bitsType, bool is64Bit, const Json& value,
               const PathRef& path, uint64_t& out) {
  out = 0;
  if (value.is_number_unsigned()) {
    out = value.get<uint64_t>();
    if (!is64Bit && out > UINT32_MAX) {
      ctx.Error(path.Str(), "expected 32-bit flags, got " + DescribeJson(value) + " (out of range)");
      return false;
    }
    return true;
  }
  const EnumTypeInfo* type = bitsType.empty() ? nullptr : FindEnumType(bitsType);
  // One bit written as a string where the format has an array (vulkaninfo and hand-written files do this for
  // flags with a single bit set): read as the one-element array, with a note.
  if (value.is_string() && type != nullptr) {
    const std::string& name = value.get_ref<const std::string&>();
    int64_t bit = 0;
    if (!FindEnumValueOrUnprefixed(ctx, *type, name, path, bit)) {
      ctx.Error(path.Str(), "unknown " + std::string(bitsType) + " name " + Quoted(name) +
                                ClosestEnumName(*type, name) + " (flags are an array of bit names)");
      return false;
    }
    ctx.Note(path.Str(), "a single " + std::string(bitsType) + " name read as the array [" + Quoted(name) + "]");
    out = static_cast<uint64_t>(bit);
    return true;
  }
  if (!value.is_array()) {
    ctx.Error(path.Str(), "expected an array of " + std::string(bitsType.empty() ? "flag" : bitsType) +
                              " names, got " + DescribeJson(value));
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& bit = value[i];
    const PathRef bitPath(path, i);
    if (!bit.is_string()) {
      ctx.Error(bitPath.Str(), "expected a " + std::string(bitsType.empty() ? "flag bit" : bitsType) +
                                   " name, got " + DescribeJson(bit));
      ok = false;
      continue;
    }
    const std::string& name = bit.get_ref<const std::string&>();
    int64_t bitValue = 0;
    if (type == nullptr || !FindEnumValueOrUnprefixed(ctx, *type, name, bitPath, bitValue)) {
      ctx.Error(bitPath.Str(), "unknown " + std::string(bitsType.empty() ? "flag" : bitsType) + " name " +
                                   Quoted(name) + (type ? ClosestEnumName(*type, name) : std::string()));
      ok = false;
      continue;
    }
    out |= static_cast<uint64_t>(bitValue);
  }
  return ok;
}

}  // namespace

bool ReadStructJson(const ReadContext& ctx, const StructInfo& info, const Json& object, std::byte* dst,
                    const std::string& path, GivenMembers* given) {
  if (!object.is_object()) {
    ctx.Error(path, "expected a " + std::string(info.name) + " object, got " + DescribeJson(object));
    return false;
  }
  bool ok = true;
  const PathRef structPath(path);
  for (auto it = object.begin(); it != object.end(); ++it) {
    const PathRef memberPath(structPath, it.key());
    const MemberInfo* m = info.FindMember(it.key());
    if (m == nullptr) {
      if (it.key() == "sType" || it.key() == "pNext") continue;  // harmless in hand-written files
      std::string_view best = ClosestName(it.key(), [&](const auto& visit) {
        for (const MemberInfo& candidate : info.members) visit(candidate.name);
      });
      ctx.Error(memberPath.Str(), "unknown member of " + std::string(info.name) +
                                      (best.empty() ? std::string() : " (did you mean " + Quoted(best) + "?)"));
      ok = false;
      continue;
    }
    std::byte* memberDst = dst + m->offset;
    const Json& v = it.value();
    bool memberOk = true;
    if (m->arrayLength != 0 && m->kind != MemberKind::String) {
      if (!v.is_array() || v.size() != m->arrayLength) {
        ctx.Error(memberPath.Str(), "expected an array of " + std::to_string(m->arrayLength) + " elements (" +
                                        KindExpectation(m->kind) + "), got " +
                                        (v.is_array() ? std::to_string(v.size()) + " elements" : DescribeJson(v)));
        ok = false;
        continue;
      }
      for (std::size_t i = 0; i < m->arrayLength; ++i)
        memberOk &= ReadElement(ctx, *m, v[i], PathRef(memberPath, i), memberDst + i * m->elementSize, given);
    } else {
      memberOk = ReadElement(ctx, *m, v, memberPath, memberDst, given);
    }
    if (memberOk && given != nullptr) given->insert(m);
    ok &= memberOk;
  }
  return ok;
}

}  // namespace crashtest
