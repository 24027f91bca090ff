#include "queue/semaphore.h"

#include <vector>

#include "common/allocation.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "queue/device_execution.h"

namespace crashtest {

Semaphore::Semaphore(DeviceExecution& execution, VkSemaphoreType type, uint64_t initialValue)
    : Object(VK_OBJECT_TYPE_SEMAPHORE), execution_(execution), type_(type), value_(initialValue) {}

VkResult Semaphore::Create(Device& device, const VkSemaphoreCreateInfo& info, const VkAllocationCallbacks* allocator,
                           VkSemaphore* out) {
  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
  uint64_t initial = 0;
  if (const auto* typeInfo = FindInChain<VkSemaphoreTypeCreateInfo>(info.pNext)) {
    type = typeInfo->semaphoreType;
    // "If semaphoreType is VK_SEMAPHORE_TYPE_BINARY, initialValue must be zero"
    // (VUID-VkSemaphoreTypeCreateInfo-semaphoreType-03279).
    if (type == VK_SEMAPHORE_TYPE_TIMELINE) initial = typeInfo->initialValue;
  }
  auto* semaphore = NewObject<Semaphore>(ChooseAllocator(allocator, device.allocator()),
                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, ExecutionOf(device), type, initial);
  if (semaphore == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateSemaphore: allocation failed");
  *out = ToHandle(semaphore);
  return VK_SUCCESS;
}

void Semaphore::Destroy(Device& device, Semaphore* semaphore, const VkAllocationCallbacks* allocator) {
  DeleteObject(ChooseAllocator(allocator, device.allocator()), semaphore);
}

void Semaphore::Signal(uint64_t value) {
  execution_.Publish([&] { SignalLocked(value); });
}

void Semaphore::SignalLocked(uint64_t value) { value_.store(timeline() ? value : 1, std::memory_order_release); }

bool Semaphore::WaitOnQueue(uint64_t value, uint64_t timeoutNs) {
  if (timeline()) return execution_.Wait(timeoutNs, [&] { return value_.load(std::memory_order_acquire) >= value; });
  return execution_.Wait(timeoutNs, [&] {
    if (value_.load(std::memory_order_acquire) == 0) return false;
    value_.store(0, std::memory_order_release);  // the wait consumes the binary payload
    return true;
  });
}

VkResult WaitSemaphores(std::span<Semaphore* const> semaphores, std::span<const uint64_t> values, bool any,
                        uint64_t timeoutNs) {
  if (semaphores.empty()) return VK_SUCCESS;
  DeviceExecution& execution = semaphores.front()->execution();
  if (execution.lost()) return VK_ERROR_DEVICE_LOST;  // waiters never deadlock on a lost device
  bool ready = semaphores.front()->execution().Wait(timeoutNs, [&] {
    for (size_t i = 0; i < semaphores.size(); ++i) {
      bool reached = semaphores[i]->value() >= values[i];
      if (any && reached) return true;
      if (!any && !reached) return false;
    }
    return !any;
  });
  if (execution.lost()) return VK_ERROR_DEVICE_LOST;
  return ready ? VK_SUCCESS : VK_TIMEOUT;
}

}  // namespace crashtest
