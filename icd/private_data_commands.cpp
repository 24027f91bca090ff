// Private data slots (Vulkan 1.3 core, VK_EXT_private_data).
#include "common/allocation.h"
#include "device/device.h"
#include "device/private_data.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreatePrivateDataSlot(VkDevice device, const VkPrivateDataSlotCreateInfo* pCreateInfo,
                                                     const VkAllocationCallbacks* pAllocator,
                                                     VkPrivateDataSlot* pPrivateDataSlot) {
  return Guarded("vkCreatePrivateDataSlot", [&] {
    return PrivateDataSlot::Create(*FromHandle(device), *pCreateInfo, pAllocator, pPrivateDataSlot);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot privateDataSlot,
                                                  const VkAllocationCallbacks* pAllocator) {
  if (privateDataSlot == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(privateDataSlot));
}

VKAPI_ATTR VkResult VKAPI_CALL SetPrivateData(VkDevice, VkObjectType objectType, uint64_t objectHandle,
                                              VkPrivateDataSlot privateDataSlot, uint64_t data) {
  return Guarded("vkSetPrivateData", [&] {
    FromHandle(privateDataSlot)->Set(objectType, objectHandle, data);
    return VK_SUCCESS;
  });
}

VKAPI_ATTR void VKAPI_CALL GetPrivateData(VkDevice, VkObjectType objectType, uint64_t objectHandle,
                                          VkPrivateDataSlot privateDataSlot, uint64_t* pData) {
  *pData = FromHandle(privateDataSlot)->Get(objectType, objectHandle);
}

}  // namespace crashtest::icd
