// VkPrivateDataSlot (Vulkan 1.3, VK_EXT_private_data): one 64-bit value per object, for layers and tools that
// attach their own data to Vulkan handles.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(PrivateDataSlot, VkPrivateDataSlot, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT);

class PrivateDataSlot : public Object {
 public:
  static VkResult Create(Device& device, const VkPrivateDataSlotCreateInfo& info,
                         const VkAllocationCallbacks* allocator, VkPrivateDataSlot* out);

  PrivateDataSlot() : Object(VK_OBJECT_TYPE_PRIVATE_DATA_SLOT) {}

  // vkSetPrivateData and vkGetPrivateData name no externally synchronized parameter, so threads may use one slot
  // at once: a lock guards the map.
  void Set(VkObjectType type, uint64_t handle, uint64_t data);
  // "If vkSetPrivateData has not been called ... *pData will be set to 0" (vkGetPrivateData).
  uint64_t Get(VkObjectType type, uint64_t handle) const;

 private:
  struct Key {
    VkObjectType type;
    uint64_t handle;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.handle) ^ static_cast<size_t>(k.type); }
  };
  mutable std::mutex mutex_;
  std::unordered_map<Key, uint64_t, KeyHash> values_;
};

}  // namespace crashtest
