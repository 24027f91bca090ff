// Reads one Vulkan struct written as a JSON object (the Profiles format) into its raw bytes, driven by the
// generated struct table: enums as names, flags as arrays of bit names, char arrays as strings, fixed arrays as
// JSON arrays, nested structs as objects.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>

#include "profile/read_context.h"
#include "profile/struct_table.h"

namespace crashtest {

using GivenMembers = std::unordered_set<const MemberInfo*>;

// Writes the members `object` names into `dst` (laid out as `info`); members it omits are left untouched.
// `given` (may be null) receives the members written, those of nested structs (VkPhysicalDeviceLimits) included.
// Returns false when something was reported as an error; every error is reported, not only the first.
bool ReadStructJson(const ReadContext& ctx, const StructInfo& info, const Json& object, std::byte* dst,
                    const std::string& path, GivenMembers* given);

// "1.3.230" -> VK_MAKE_API_VERSION(0, 1, 3, 230); nullopt when malformed.
std::optional<uint32_t> ParseVersionString(std::string_view text);

// Reads flags written as an array of bit names of `bitsType` (or a number). False after reporting an error.
bool ReadFlagsJson(const ReadContext& ctx, std::string_view bitsType, bool is64Bit, const Json& value,
                   const std::string& path, uint64_t& out);

}  // namespace crashtest
