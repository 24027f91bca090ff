// The one count/array helper for Vulkan's two-call idiom, so VK_INCOMPLETE is always right:
// "If pProperties is NULL, then the number of ... available is returned in pPropertyCount. Otherwise,
// pPropertyCount must point to a variable set by the application to the number of elements in the pProperties
// array, and on return the variable is overwritten with the number of structures actually written to
// pProperties. If pPropertyCount is less than the number ... available, at most pPropertyCount structures will be
// written, and VK_INCOMPLETE will be returned instead of VK_SUCCESS" (e.g. vkEnumerateDeviceExtensionProperties).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace crashtest {

// Writes `available` elements through `write(index, T* out)`.
template <typename T, typename Write>
VkResult FillCountArray(uint32_t* pCount, T* pArray, uint32_t available, Write&& write) {
  if (pArray == nullptr) {
    *pCount = available;
    return VK_SUCCESS;
  }
  uint32_t written = *pCount < available ? *pCount : available;
  for (uint32_t i = 0; i < written; ++i) write(i, &pArray[i]);
  *pCount = written;
  return written < available ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace crashtest
