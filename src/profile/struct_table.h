// Build-time tables of the Vulkan structs a device profile describes, generated from the installed vk.xml by
// gen_struct_table.py: every struct extending VkPhysicalDeviceFeatures2 / VkPhysicalDeviceProperties2, the base
// feature/property structs, the format and queue-family structs and every struct nested in them, with member
// offsets taken from the compiler (offsetof). One generic reader then handles all of them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace crashtest {

enum class MemberKind : uint8_t {
  Bool32,
  UInt8,
  UInt16,
  UInt32,
  Int32,
  UInt64,  // uint64_t, VkDeviceSize, VkDeviceAddress
  Int64,
  Float,
  Size,     // size_t
  Enum,     // enumType names the values
  Flags32,  // VkFlags; enumType names the bits ("" for reserved flags without bits)
  Flags64,  // VkFlags64
  String,   // fixed char array, arrayLength is the capacity including the terminator
  Struct,   // nested struct, typeName names it
};

// What a struct is read for.
enum class StructRole : uint8_t {
  Features,               // VkPhysicalDeviceFeatures or something chained to VkPhysicalDeviceFeatures2
  Properties,             // VkPhysicalDeviceProperties or something chained to VkPhysicalDeviceProperties2
  FormatProperties,       // VkFormatProperties{,2,3} and what chains to VkFormatProperties2
  QueueFamilyProperties,  // VkQueueFamilyProperties{,2} and what chains to VkQueueFamilyProperties2
  Nested,                 // only used as a member of another struct
};

struct MemberInfo {
  std::string_view name;
  uint32_t offset;
  uint32_t elementSize;  // bytes of one element (of the whole member when not an array)
  MemberKind kind;
  uint32_t arrayLength;       // 0: not an array
  std::string_view typeName;  // the C type (canonical vk.xml name), e.g. "VkShaderStageFlags", "VkExtent2D"
  std::string_view enumType;  // the enum / FlagBits type naming the values, "" when none
};

struct StructInfo {
  std::string_view name;
  std::span<const std::string_view> aliases;  // e.g. "VkPhysicalDeviceTimelineSemaphoreFeaturesKHR"
  bool hasSType;
  VkStructureType sType;
  uint32_t size;
  StructRole role;
  std::span<const MemberInfo> members;  // without sType and pNext
  // Who provides the struct: the core version (VK_API_VERSION_1_x, 0 when none) and the extensions.
  uint32_t coreVersion;
  std::span<const std::string_view> extensions;

  const MemberInfo* FindMember(std::string_view memberName) const;
  bool ProvidedBy(uint32_t apiVersion, std::span<const VkExtensionProperties> enabledExtensions) const;
};

// A member of an individual struct promoted to core and the same member of the VulkanXY aggregate struct
// (e.g. VkPhysicalDeviceSubgroupProperties.supportedStages and
// VkPhysicalDeviceVulkan11Properties.subgroupSupportedStages): the two must always report the same value.
struct MemberLinkInfo {
  const StructInfo* individual;
  const MemberInfo* individualMember;
  const StructInfo* aggregate;
  const MemberInfo* aggregateMember;
};

struct EnumEntry {
  std::string_view name;
  int64_t value;  // 64-bit flag bits keep their bit pattern
};

struct EnumTypeInfo {
  std::string_view name;
  bool isBitmask;
  bool is64Bit;
  std::span<const EnumEntry> byName;   // sorted by name, aliases included
  std::span<const EnumEntry> byValue;  // canonical names only, sorted by value
};

// Accepts the canonical name and every alias.
const StructInfo* FindStruct(std::string_view name);
const StructInfo* FindStruct(VkStructureType sType);
std::span<const StructInfo> AllStructs();
std::span<const MemberLinkInfo> AllMemberLinks();
// Links involving the struct (as individual or aggregate).
std::span<const MemberLinkInfo* const> MemberLinksOf(const StructInfo& info);

const EnumTypeInfo* FindEnumType(std::string_view typeName);
// valueName may be an alias; nullopt when the type or the name is unknown.
std::optional<int64_t> FindEnumValue(std::string_view typeName, std::string_view valueName);
// The same for a type already looked up (readers of many values look the type up once).
std::optional<int64_t> FindEnumValue(const EnumTypeInfo& type, std::string_view valueName);
// The canonical name of a value, "" when unknown.
std::string_view EnumValueName(std::string_view typeName, int64_t value);

}  // namespace crashtest
