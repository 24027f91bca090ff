#include "device/private_data.h"

#include "common/allocation.h"
#include "device/device.h"

namespace crashtest {

VkResult PrivateDataSlot::Create(Device& device, const VkPrivateDataSlotCreateInfo&,
                                 const VkAllocationCallbacks* allocator, VkPrivateDataSlot* out) {
  auto* slot = NewObject<PrivateDataSlot>(ChooseAllocator(allocator, device.allocator()),
                                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (slot == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *out = ToHandle(slot);
  return VK_SUCCESS;
}

void PrivateDataSlot::Set(VkObjectType type, uint64_t handle, uint64_t data) {
  std::lock_guard lock(mutex_);
  values_[Key{type, handle}] = data;
}

uint64_t PrivateDataSlot::Get(VkObjectType type, uint64_t handle) const {
  std::lock_guard lock(mutex_);
  auto it = values_.find(Key{type, handle});
  return it != values_.end() ? it->second : 0;
}

}  // namespace crashtest
