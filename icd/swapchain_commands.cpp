// Thunks of VK_KHR_swapchain: swapchain objects (src/wsi/swapchain.h) and vkQueuePresentKHR, whose wait
// semaphores are waited on through the queue so the presented image holds everything submitted before.
#include "common/count_array.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "guard.h"
#include "queue/device_execution.h"
#include "queue/fence.h"
#include "queue/queue.h"
#include "queue/semaphore.h"
#include "wsi/surface_queries.h"
#include "wsi/swapchain.h"

namespace crashtest::icd {

namespace {

// "Any error ... takes precedence over VK_SUBOPTIMAL_KHR": the first error, else SUBOPTIMAL if any.
VkResult Combine(VkResult overall, VkResult one) {
  if (overall < 0) return overall;
  if (one < 0) return one;
  return one == VK_SUBOPTIMAL_KHR ? one : overall;
}

// Waits for the present's semaphores on the queue, behind everything submitted to it before (one submission that
// only waits, which the fault plan does not count as a submit).
VkResult WaitThroughQueue(Queue& queue, const VkPresentInfoKHR& info) {
  Fence done(queue.execution(), false);
  Submission submission;
  submission.batches.resize(1);
  for (uint32_t i = 0; i < info.waitSemaphoreCount; ++i)
    submission.batches[0].waits.push_back({FromHandle(info.pWaitSemaphores[i]), 0});
  submission.fence = &done;
  if (VkResult result = queue.EnqueuePresentWait(std::move(submission)); result != VK_SUCCESS) return result;
  Fence* fences[] = {&done};
  return WaitForFences(fences, true, UINT64_MAX);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkSwapchainKHR* pSwapchain) {
  return Guarded("vkCreateSwapchainKHR",
                 [&] { return Swapchain::Create(*FromHandle(device), *pCreateInfo, pAllocator, pSwapchain); });
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroySwapchainKHR",
              [&] { Swapchain::Destroy(*FromHandle(device), FromHandle(swapchain), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice, VkSwapchainKHR swapchain,
                                                     uint32_t* pSwapchainImageCount, VkImage* pSwapchainImages) {
  return Guarded("vkGetSwapchainImagesKHR",
                 [&] { return FromHandle(swapchain)->GetImages(pSwapchainImageCount, pSwapchainImages); });
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImageKHR(VkDevice, VkSwapchainKHR swapchain, uint64_t timeout,
                                                   VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
  return Guarded("vkAcquireNextImageKHR", [&] {
    return FromHandle(swapchain)->Acquire(timeout, FromHandle(semaphore), FromHandle(fence), pImageIndex);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage2KHR(VkDevice, const VkAcquireNextImageInfoKHR* pAcquireInfo,
                                                    uint32_t* pImageIndex) {
  // One physical device per logical device: deviceMask is 1.
  return Guarded("vkAcquireNextImage2KHR", [&] {
    return FromHandle(pAcquireInfo->swapchain)
        ->Acquire(pAcquireInfo->timeout, FromHandle(pAcquireInfo->semaphore), FromHandle(pAcquireInfo->fence),
                  pImageIndex);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* pPresentInfo) {
  return Guarded("vkQueuePresentKHR", [&] {
    Queue& q = *FromHandle(queue);
    VkResult waited = WaitThroughQueue(q, *pPresentInfo);
    VkResult overall = VK_SUCCESS;
    for (uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
      Swapchain& swapchain = *FromHandle(pPresentInfo->pSwapchains[i]);
      VkResult result = waited;
      if (waited == VK_ERROR_DEVICE_LOST)
        swapchain.OnDeviceLost();
      else if (waited == VK_SUCCESS)
        result = swapchain.Present(pPresentInfo->pImageIndices[i]);
      if (pPresentInfo->pResults != nullptr) pPresentInfo->pResults[i] = result;
      overall = Combine(overall, result);
    }
    return pPresentInfo->swapchainCount == 0 ? waited : overall;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupPresentCapabilitiesKHR(
    VkDevice, VkDeviceGroupPresentCapabilitiesKHR* pDeviceGroupPresentCapabilities) {
  // A group of one device that presents its own images.
  for (uint32_t& mask : pDeviceGroupPresentCapabilities->presentMask) mask = 0;
  pDeviceGroupPresentCapabilities->presentMask[0] = 1;
  pDeviceGroupPresentCapabilities->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetDeviceGroupSurfacePresentModesKHR(VkDevice, VkSurfaceKHR,
                                                                    VkDeviceGroupPresentModeFlagsKHR* pModes) {
  *pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice physicalDevice,
                                                                     VkSurfaceKHR surface, uint32_t* pRectCount,
                                                                     VkRect2D* pRects) {
  return Guarded("vkGetPhysicalDevicePresentRectanglesKHR", [&] {
    VkSurfaceCapabilitiesKHR caps{};
    if (VkResult r = wsi::SurfaceCapabilities(*FromHandle(physicalDevice), surface, caps); r != VK_SUCCESS) return r;
    // The whole surface: its current size, or the largest image for a surface without one (headless).
    const VkExtent2D extent = caps.currentExtent.width == 0xFFFFFFFFu ? caps.maxImageExtent : caps.currentExtent;
    return FillCountArray(pRectCount, pRects, 1u, [&](uint32_t, VkRect2D* out) { *out = {{0, 0}, extent}; });
  });
}

}  // namespace crashtest::icd
