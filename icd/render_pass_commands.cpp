// Thunks of the render pass area: render pass and framebuffer objects (src/transfer/render_pass.h).
#include "common/allocation.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"
#include "transfer/render_pass.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  return Guarded("vkCreateRenderPass", [&] {
    return RenderPass::Create(*pCreateInfo, ChooseAllocator(pAllocator, FromHandle(device)->allocator()), pRenderPass);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  return Guarded("vkCreateRenderPass2", [&] {
    return RenderPass::Create(*pCreateInfo, ChooseAllocator(pAllocator, FromHandle(device)->allocator()), pRenderPass);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyRenderPass(VkDevice device, VkRenderPass renderPass,
                                             const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyRenderPass",
              [&] { RenderPass::Destroy(*FromHandle(device), FromHandle(renderPass), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkFramebuffer* pFramebuffer) {
  return Guarded("vkCreateFramebuffer", [&] {
    return Framebuffer::Create(*pCreateInfo, ChooseAllocator(pAllocator, FromHandle(device)->allocator()),
                               pFramebuffer);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                              const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyFramebuffer",
              [&] { Framebuffer::Destroy(*FromHandle(device), FromHandle(framebuffer), pAllocator); });
}

VKAPI_ATTR void VKAPI_CALL GetRenderAreaGranularity(VkDevice, VkRenderPass, VkExtent2D* pGranularity) {
  // crashtest stores attachments linearly and clears any rectangle exactly, so every render area is optimal.
  *pGranularity = {1, 1};
}

}  // namespace crashtest::icd
