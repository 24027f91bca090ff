#include "profile/description_access.h"

#include <cstring>

namespace crashtest {
namespace {

StructBlob NewBlob(const StructInfo& info) {
  StructBlob blob;
  blob.bytes.assign(info.size, std::byte{0});
  // Every extended struct starts with VkStructureType sType (then pNext, left zero).
  std::memcpy(blob.bytes.data(), &info.sType, sizeof(VkStructureType));
  return blob;
}

}  // namespace

std::byte* StructBytes(DeviceDescription& d, const StructInfo& info, bool create) {
  if (info.name == "VkPhysicalDeviceProperties") return reinterpret_cast<std::byte*>(&d.properties);
  if (info.name == "VkPhysicalDeviceFeatures") return reinterpret_cast<std::byte*>(&d.features);
  if (!info.hasSType) return nullptr;
  std::map<VkStructureType, StructBlob>* blobs = nullptr;
  if (info.role == StructRole::Features) blobs = &d.extendedFeatures;
  if (info.role == StructRole::Properties) blobs = &d.extendedProperties;
  if (blobs == nullptr) return nullptr;
  auto it = blobs->find(info.sType);
  if (it == blobs->end()) {
    if (!create) return nullptr;
    it = blobs->emplace(info.sType, NewBlob(info)).first;
  }
  return it->second.bytes.data();
}

const std::byte* StructBytes(const DeviceDescription& d, const StructInfo& info) {
  return StructBytes(const_cast<DeviceDescription&>(d), info, false);
}

std::byte* MemberBytes(DeviceDescription& d, std::string_view structName, std::string_view member) {
  const StructInfo* info = FindStruct(structName);
  if (info == nullptr) return nullptr;
  const MemberInfo* m = info->FindMember(member);
  std::byte* base = StructBytes(d, *info);
  return m != nullptr && base != nullptr ? base + m->offset : nullptr;
}

}  // namespace crashtest
