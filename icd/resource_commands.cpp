// Buffer and image objects and their memory requirements.
#include "common/allocation.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
  return Guarded("vkCreateBuffer", [&] { return Buffer::Create(*FromHandle(device), *pCreateInfo, pAllocator, pBuffer); });
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* pAllocator) {
  if (buffer == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(buffer));
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer buffer,
                                                       VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = FromHandle(buffer)->MemoryRequirements();
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
  return Guarded("vkCreateImage", [&] { return Image::Create(*FromHandle(device), *pCreateInfo, pAllocator, pImage); });
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks* pAllocator) {
  if (image == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(image));
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice, VkImage image,
                                                      VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = FromHandle(image)->MemoryRequirements();
}

VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements(VkDevice, VkImage, uint32_t* pSparseMemoryRequirementCount,
                                                            VkSparseImageMemoryRequirements*) {
  // "If the image was not created with VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT then pSparseMemoryRequirementCount
  // will be set to zero": crashtest creates no sparse images.
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetImageSubresourceLayout(VkDevice, VkImage image, const VkImageSubresource* pSubresource,
                                                     VkSubresourceLayout* pLayout) {
  *pLayout = FromHandle(image)->layout().Subresource(static_cast<VkImageAspectFlagBits>(pSubresource->aspectMask),
                                                     pSubresource->mipLevel, pSubresource->arrayLayer);
}

}  // namespace crashtest::icd
