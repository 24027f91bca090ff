// Buffer, image, view and sampler objects and their memory requirements.
#include "common/allocation.h"
#include "common/result.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "guard.h"
#include "memory/sampler.h"
#include "memory/views.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
  return Guarded("vkCreateBuffer", [&] { return Buffer::Create(*FromHandle(device), *pCreateInfo, pAllocator, pBuffer); });
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyBuffer", [&] { Buffer::Destroy(*FromHandle(device), FromHandle(buffer), pAllocator); });
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer buffer,
                                                       VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = FromHandle(buffer)->MemoryRequirements();
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements2(VkDevice, const VkBufferMemoryRequirementsInfo2* pInfo,
                                                        VkMemoryRequirements2* pMemoryRequirements) {
  FillMemoryRequirements2(FromHandle(pInfo->buffer)->MemoryRequirements(), *pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceBufferMemoryRequirements(VkDevice device,
                                                             const VkDeviceBufferMemoryRequirements* pInfo,
                                                             VkMemoryRequirements2* pMemoryRequirements) {
  // "as if" the buffer were created (Vulkan 1.3, maintenance4): the same object, on the stack, never exposed.
  GuardedVoid("vkGetDeviceBufferMemoryRequirements", [&] {
    Buffer buffer(*FromHandle(device), *pInfo->pCreateInfo);
    FillMemoryRequirements2(buffer.MemoryRequirements(), *pMemoryRequirements);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
  return Guarded("vkCreateImage", [&] { return Image::Create(*FromHandle(device), *pCreateInfo, pAllocator, pImage); });
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyImage", [&] { Image::Destroy(*FromHandle(device), FromHandle(image), pAllocator); });
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements(VkDevice, VkImage image,
                                                      VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = FromHandle(image)->MemoryRequirements();
}

VKAPI_ATTR void VKAPI_CALL GetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2* pInfo,
                                                       VkMemoryRequirements2* pMemoryRequirements) {
  FillMemoryRequirements2(FromHandle(pInfo->image)->MemoryRequirements(), *pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageMemoryRequirements(VkDevice device,
                                                            const VkDeviceImageMemoryRequirements* pInfo,
                                                            VkMemoryRequirements2* pMemoryRequirements) {
  GuardedVoid("vkGetDeviceImageMemoryRequirements", [&] {
    Image image(*FromHandle(device), *pInfo->pCreateInfo);
    FillMemoryRequirements2(image.MemoryRequirements(), *pMemoryRequirements);
  });
}

// "If the image was not created with VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT then pSparseMemoryRequirementCount will
// be set to zero": crashtest creates no sparse images.
VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements(VkDevice, VkImage, uint32_t* pSparseMemoryRequirementCount,
                                                            VkSparseImageMemoryRequirements*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetImageSparseMemoryRequirements2(VkDevice, const VkImageSparseMemoryRequirementsInfo2*,
                                                             uint32_t* pSparseMemoryRequirementCount,
                                                             VkSparseImageMemoryRequirements2*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceImageSparseMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements*,
                                                                  uint32_t* pSparseMemoryRequirementCount,
                                                                  VkSparseImageMemoryRequirements2*) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL GetImageSubresourceLayout(VkDevice, VkImage image, const VkImageSubresource* pSubresource,
                                                     VkSubresourceLayout* pLayout) {
  *pLayout = FromHandle(image)->layout().Subresource(static_cast<VkImageAspectFlagBits>(pSubresource->aspectMask),
                                                     pSubresource->mipLevel, pSubresource->arrayLayer);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBufferView(VkDevice device, const VkBufferViewCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkBufferView* pView) {
  return Guarded("vkCreateBufferView",
                 [&] { return BufferView::Create(*FromHandle(device), *pCreateInfo, pAllocator, pView); });
}

VKAPI_ATTR void VKAPI_CALL DestroyBufferView(VkDevice device, VkBufferView bufferView,
                                             const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyBufferView",
              [&] { BufferView::Destroy(*FromHandle(device), FromHandle(bufferView), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice device, const VkImageViewCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
  return Guarded("vkCreateImageView",
                 [&] { return ImageView::Create(*FromHandle(device), *pCreateInfo, pAllocator, pView); });
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView imageView,
                                            const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyImageView",
              [&] { ImageView::Destroy(*FromHandle(device), FromHandle(imageView), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice device, const VkSamplerCreateInfo* pCreateInfo,
                                             const VkAllocationCallbacks* pAllocator, VkSampler* pSampler) {
  return Guarded("vkCreateSampler",
                 [&] { return Sampler::Create(*FromHandle(device), *pCreateInfo, pAllocator, pSampler); });
}

VKAPI_ATTR void VKAPI_CALL DestroySampler(VkDevice device, VkSampler sampler, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroySampler", [&] { Sampler::Destroy(*FromHandle(device), FromHandle(sampler), pAllocator); });
}

}  // namespace crashtest::icd

namespace crashtest::icd {

// Sampler Y'CbCr conversion is core in Vulkan 1.1 but behind the samplerYcbcrConversion feature, which crashtest
// does not advertise (no sampling path converts Y'CbCr yet), so no app can validly create one:
// "The samplerYcbcrConversion feature must be enabled" (VUID-vkCreateSamplerYcbcrConversion-None-01648).
VKAPI_ATTR VkResult VKAPI_CALL CreateSamplerYcbcrConversion(VkDevice, const VkSamplerYcbcrConversionCreateInfo*,
                                                            const VkAllocationCallbacks*,
                                                            VkSamplerYcbcrConversion* pYcbcrConversion) {
  *pYcbcrConversion = VK_NULL_HANDLE;
  return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateSamplerYcbcrConversion: the samplerYcbcrConversion "
                     "feature is not supported (VUID-vkCreateSamplerYcbcrConversion-None-01648)");
}

// Only VK_NULL_HANDLE can reach here, since creation always fails.
VKAPI_ATTR void VKAPI_CALL DestroySamplerYcbcrConversion(VkDevice, VkSamplerYcbcrConversion,
                                                         const VkAllocationCallbacks*) {}

}  // namespace crashtest::icd
