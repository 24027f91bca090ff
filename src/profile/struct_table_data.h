// The raw generated arrays behind struct_table.h; only struct_table.cpp and the generated file include this.
#pragma once

#include <cstddef>
#include <cstdint>

#include "profile/struct_table.h"

namespace crashtest::generated {

struct StructAlias {
  std::string_view alias;
  uint32_t structIndex;
};

// Indices into kStructs and into the members of those structs.
struct MemberLink {
  uint16_t individual;
  uint16_t individualMember;
  uint16_t aggregate;
  uint16_t aggregateMember;
};

extern const StructInfo kStructs[];  // sorted by name
extern const std::size_t kStructCount;
extern const StructAlias kStructAliases[];  // sorted by alias
extern const std::size_t kStructAliasCount;
extern const MemberLink kMemberLinks[];
extern const std::size_t kMemberLinkCount;
extern const EnumTypeInfo kEnumTypes[];  // sorted by name
extern const std::size_t kEnumTypeCount;

}  // namespace crashtest::generated
