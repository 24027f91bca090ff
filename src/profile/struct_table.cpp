#include "profile/struct_table.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "profile/struct_table_data.h"

namespace crashtest {
namespace {

using namespace generated;

std::span<const StructInfo> Structs() { return {kStructs, kStructCount}; }

template <typename T, typename Key>
const T* BinaryFind(std::span<const T> sorted, std::string_view key, Key key_of) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                             [&](const T& entry, std::string_view k) { return key_of(entry) < k; });
  return it != sorted.end() && key_of(*it) == key ? &*it : nullptr;
}

// Struct indices sorted by sType, built once.
const std::vector<const StructInfo*>& StructsBySType() {
  static const std::vector<const StructInfo*> index = [] {
    std::vector<const StructInfo*> v;
    for (const StructInfo& s : Structs())
      if (s.hasSType) v.push_back(&s);
    std::sort(v.begin(), v.end(), [](const StructInfo* a, const StructInfo* b) { return a->sType < b->sType; });
    return v;
  }();
  return index;
}

struct LinkIndex {
  std::vector<MemberLinkInfo> links;
  std::vector<std::vector<const MemberLinkInfo*>> byStruct;  // per struct index
};

const LinkIndex& Links() {
  static const LinkIndex index = [] {
    LinkIndex li;
    li.links.reserve(kMemberLinkCount);
    for (std::size_t i = 0; i < kMemberLinkCount; ++i) {
      const MemberLink& l = kMemberLinks[i];
      const StructInfo& ind = kStructs[l.individual];
      const StructInfo& agg = kStructs[l.aggregate];
      li.links.push_back({&ind, &ind.members[l.individualMember], &agg, &agg.members[l.aggregateMember]});
    }
    li.byStruct.resize(kStructCount);
    for (const MemberLinkInfo& link : li.links) {
      li.byStruct[static_cast<std::size_t>(link.individual - kStructs)].push_back(&link);
      li.byStruct[static_cast<std::size_t>(link.aggregate - kStructs)].push_back(&link);
    }
    return li;
  }();
  return index;
}

}  // namespace

const MemberInfo* StructInfo::FindMember(std::string_view memberName) const {
  // Structs have at most ~100 members and profiles name each once, so a scan is cheaper than an index.
  for (const MemberInfo& m : members)
    if (m.name == memberName) return &m;
  return nullptr;
}

bool StructInfo::ProvidedBy(uint32_t apiVersion, std::span<const VkExtensionProperties> enabledExtensions) const {
  if (coreVersion != 0 && VK_API_VERSION_MAJOR(coreVersion) <= VK_API_VERSION_MAJOR(apiVersion) &&
      (VK_API_VERSION_MAJOR(coreVersion) < VK_API_VERSION_MAJOR(apiVersion) ||
       VK_API_VERSION_MINOR(coreVersion) <= VK_API_VERSION_MINOR(apiVersion)))
    return true;
  // Compared in place: a string_view of each extensionName would measure it (strlen) for every struct.
  for (std::string_view ext : extensions) {
    if (ext.empty() || ext.size() >= VK_MAX_EXTENSION_NAME_SIZE) continue;
    for (const VkExtensionProperties& e : enabledExtensions)
      if (e.extensionName[0] == ext[0] && e.extensionName[ext.size()] == '\0' &&
          std::memcmp(e.extensionName, ext.data(), ext.size()) == 0)
        return true;
  }
  return false;
}

const StructInfo* FindStruct(std::string_view name) {
  if (const StructInfo* s = BinaryFind(Structs(), name, [](const StructInfo& e) { return e.name; })) return s;
  std::span<const StructAlias> aliases{kStructAliases, kStructAliasCount};
  const StructAlias* a = BinaryFind(aliases, name, [](const StructAlias& e) { return e.alias; });
  return a ? &kStructs[a->structIndex] : nullptr;
}

const StructInfo* FindStruct(VkStructureType sType) {
  const auto& index = StructsBySType();
  auto it = std::lower_bound(index.begin(), index.end(), sType,
                             [](const StructInfo* s, VkStructureType t) { return s->sType < t; });
  return it != index.end() && (*it)->sType == sType ? *it : nullptr;
}

std::span<const StructInfo> AllStructs() { return Structs(); }

std::span<const MemberLinkInfo> AllMemberLinks() { return Links().links; }

std::span<const MemberLinkInfo* const> MemberLinksOf(const StructInfo& info) {
  return Links().byStruct[static_cast<std::size_t>(&info - kStructs)];
}

const EnumTypeInfo* FindEnumType(std::string_view typeName) {
  return BinaryFind(std::span<const EnumTypeInfo>{kEnumTypes, kEnumTypeCount}, typeName,
                    [](const EnumTypeInfo& e) { return e.name; });
}

std::optional<int64_t> FindEnumValue(std::string_view typeName, std::string_view valueName) {
  const EnumTypeInfo* type = FindEnumType(typeName);
  if (type == nullptr) return std::nullopt;
  return FindEnumValue(*type, valueName);
}

std::optional<int64_t> FindEnumValue(const EnumTypeInfo& type, std::string_view valueName) {
  const EnumEntry* e = BinaryFind(type.byName, valueName, [](const EnumEntry& x) { return x.name; });
  if (e == nullptr) return std::nullopt;
  return e->value;
}

std::string_view EnumValueName(std::string_view typeName, int64_t value) {
  const EnumTypeInfo* type = FindEnumType(typeName);
  if (type == nullptr) return {};
  auto it = std::lower_bound(type->byValue.begin(), type->byValue.end(), value,
                             [](const EnumEntry& e, int64_t v) { return e.value < v; });
  return it != type->byValue.end() && it->value == value ? it->name : std::string_view{};
}

}  // namespace crashtest
