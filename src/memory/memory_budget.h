// VK_EXT_memory_budget from the live accounting: heapBudget is the heap's size (nothing else shares an emulated
// heap) and heapUsage the bytes allocated from it by every device of the physical device.
#pragma once

#include <vulkan/vulkan.h>

namespace crashtest {

class PhysicalDevice;

// Hooked into PhysicalDevice::GetMemoryProperties2 for a VkPhysicalDeviceMemoryBudgetPropertiesEXT in the chain.
// "Values ... beyond memoryHeapCount ... must be zero" (VkPhysicalDeviceMemoryBudgetPropertiesEXT).
void FillMemoryBudget(const PhysicalDevice& physicalDevice, VkPhysicalDeviceMemoryBudgetPropertiesEXT& budget);

}  // namespace crashtest
