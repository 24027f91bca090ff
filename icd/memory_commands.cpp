// Device memory: allocation, mapping, binding resources to it and device addresses.
#include "common/allocation.h"
#include "common/pnext.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/resources.h"
#include "entry_points.h"
#include "guard.h"
#include "memory/device_memory.h"
#include "wsi/swapchain.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo* pAllocateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkDeviceMemory* pMemory) {
  return Guarded("vkAllocateMemory",
                 [&] { return DeviceMemory::Allocate(*FromHandle(device), *pAllocateInfo, pAllocator, pMemory); });
}

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice, VkDeviceMemory memory, const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkFreeMemory", [&] { DeviceMemory::Free(FromHandle(memory), pAllocator); });
}

VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size,
                                         VkMemoryMapFlags, void** ppData) {
  return Guarded("vkMapMemory", [&] { return FromHandle(memory)->Map(offset, size, ppData); });
}

VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice, VkDeviceMemory memory) {
  GuardedVoid("vkUnmapMemory", [&] { FromHandle(memory)->Unmap(); });
}

namespace {

// Host memory is the device memory, so flush and invalidate have nothing to move; they only check the ranges.
VkResult CheckRanges(const char* command, uint32_t count, const VkMappedMemoryRange* ranges) {
  for (uint32_t i = 0; i < count; ++i) {
    VkResult result = FromHandle(ranges[i].memory)->CheckMappedRange(command, ranges[i]);
    if (result != VK_SUCCESS) return result;
  }
  return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice, uint32_t memoryRangeCount,
                                                       const VkMappedMemoryRange* pMemoryRanges) {
  return Guarded("vkFlushMappedMemoryRanges",
                 [&] { return CheckRanges("vkFlushMappedMemoryRanges", memoryRangeCount, pMemoryRanges); });
}

VKAPI_ATTR VkResult VKAPI_CALL InvalidateMappedMemoryRanges(VkDevice, uint32_t memoryRangeCount,
                                                            const VkMappedMemoryRange* pMemoryRanges) {
  return Guarded("vkInvalidateMappedMemoryRanges",
                 [&] { return CheckRanges("vkInvalidateMappedMemoryRanges", memoryRangeCount, pMemoryRanges); });
}

VKAPI_ATTR void VKAPI_CALL GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory memory,
                                                     VkDeviceSize* pCommittedMemoryInBytes) {
  // Only meaningful for LAZILY_ALLOCATED types; crashtest reserves the whole allocation up front.
  *pCommittedMemoryInBytes = FromHandle(memory)->size();
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize memoryOffset) {
  return Guarded("vkBindBufferMemory",
                 [&] { return FromHandle(buffer)->Bind("vkBindBufferMemory", FromHandle(memory), memoryOffset); });
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice, VkImage image, VkDeviceMemory memory,
                                               VkDeviceSize memoryOffset) {
  return Guarded("vkBindImageMemory",
                 [&] { return FromHandle(image)->Bind("vkBindImageMemory", FromHandle(memory), memoryOffset); });
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice, uint32_t bindInfoCount,
                                                 const VkBindBufferMemoryInfo* pBindInfos) {
  return Guarded("vkBindBufferMemory2", [&] {
    for (uint32_t i = 0; i < bindInfoCount; ++i) {
      const VkBindBufferMemoryInfo& bind = pBindInfos[i];
      VkResult result = FromHandle(bind.buffer)->Bind("vkBindBufferMemory2", FromHandle(bind.memory), bind.memoryOffset);
      if (result != VK_SUCCESS) return result;
    }
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice, uint32_t bindInfoCount,
                                                const VkBindImageMemoryInfo* pBindInfos) {
  return Guarded("vkBindImageMemory2", [&] {
    for (uint32_t i = 0; i < bindInfoCount; ++i) {
      const VkBindImageMemoryInfo& bind = pBindInfos[i];
      // VK_KHR_swapchain with device groups: "If the pNext chain includes a VkBindImageMemorySwapchainInfoKHR
      // structure, memory must be VK_NULL_HANDLE" and the image is bound to that swapchain image's memory.
      if (const auto* onSwapchain = FindInChain<VkBindImageMemorySwapchainInfoKHR>(bind.pNext)) {
        if (VkResult result = FromHandle(onSwapchain->swapchain)->BindToImage(*FromHandle(bind.image),
                                                                              onSwapchain->imageIndex);
            result != VK_SUCCESS)
          return result;
        continue;
      }
      VkResult result = FromHandle(bind.image)->Bind("vkBindImageMemory2", FromHandle(bind.memory), bind.memoryOffset);
      if (result != VK_SUCCESS) return result;
    }
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL GetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
  return FromHandle(pInfo->buffer)->address();
}

VKAPI_ATTR uint64_t VKAPI_CALL GetBufferOpaqueCaptureAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
  // A buffer's address is its memory's address plus the binding offset, so replaying the memory's capture address
  // and the binding replays the buffer's address; the requested value is echoed as the spec asks ("If the buffer
  // was created with a non-zero value of VkBufferOpaqueCaptureAddressCreateInfo::opaqueCaptureAddress the return
  // value will be the same address").
  const Buffer* buffer = FromHandle(pInfo->buffer);
  return buffer->requestedCaptureAddress() != 0 ? buffer->requestedCaptureAddress() : buffer->address();
}

VKAPI_ATTR uint64_t VKAPI_CALL GetDeviceMemoryOpaqueCaptureAddress(VkDevice,
                                                                   const VkDeviceMemoryOpaqueCaptureAddressInfo* pInfo) {
  return FromHandle(pInfo->memory)->address();
}

}  // namespace crashtest::icd

namespace crashtest::icd {

// Every device group has one physical device (vkEnumeratePhysicalDeviceGroups), so a peer is never valid
// (VUID-vkGetDeviceGroupPeerMemoryFeatures-localDeviceIndex-00692); all memory is the same host memory, so every
// access kind would work.
VKAPI_ATTR void VKAPI_CALL GetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t, uint32_t, uint32_t,
                                                            VkPeerMemoryFeatureFlags* pPeerMemoryFeatures) {
  *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}

}  // namespace crashtest::icd
