// Logical device and queue commands.
#include "device/device.h"
#include "queue/queue.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
  if (device == VK_NULL_HANDLE) return;
  GuardedVoid("vkDestroyDevice", [&] { FromHandle(device)->Destroy(pAllocator); });
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                          VkQueue* pQueue) {
  // "vkGetDeviceQueue must only be used to get queues that were created with the flags parameter of
  // VkDeviceQueueCreateInfo set to zero" (VUID-vkGetDeviceQueue-flags-01841).
  Queue* queue = FromHandle(device)->FindQueue(queueFamilyIndex, queueIndex, 0);
  if (queue == nullptr)
    CT_ERROR("vkGetDeviceQueue: no queue %u of family %u was created with flags 0", queueIndex, queueFamilyIndex);
  *pQueue = queue != nullptr ? ToHandle(queue) : VK_NULL_HANDLE;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* pQueueInfo, VkQueue* pQueue) {
  // "If ... no queue matching the flags ... pQueue must be set to VK_NULL_HANDLE" (vkGetDeviceQueue2).
  Queue* queue = FromHandle(device)->FindQueue(pQueueInfo->queueFamilyIndex, pQueueInfo->queueIndex, pQueueInfo->flags);
  *pQueue = queue != nullptr ? ToHandle(queue) : VK_NULL_HANDLE;
}

}  // namespace crashtest::icd
