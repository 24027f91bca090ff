#include "memory/memory_budget.h"

#include "device/physical_device.h"
#include "memory/memory_accounting.h"

namespace crashtest {

void FillMemoryBudget(const PhysicalDevice& physicalDevice, VkPhysicalDeviceMemoryBudgetPropertiesEXT& budget) {
  const VkPhysicalDeviceMemoryProperties& memory = physicalDevice.description().memory;
  for (uint32_t heap = 0; heap < VK_MAX_MEMORY_HEAPS; ++heap) {
    bool present = heap < memory.memoryHeapCount;
    budget.heapBudget[heap] = present ? memory.memoryHeaps[heap].size : 0;
    budget.heapUsage[heap] = present ? memory_accounting::HeapUsage(physicalDevice, heap) : 0;
  }
}

}  // namespace crashtest
