#include "queue/event.h"

#include "common/allocation.h"
#include "common/result.h"
#include "device/device.h"
#include "queue/device_execution.h"

namespace crashtest {

Event::Event(DeviceExecution& execution) : Object(VK_OBJECT_TYPE_EVENT), execution_(execution) {}

VkResult Event::Create(Device& device, const VkEventCreateInfo&, const VkAllocationCallbacks* allocator,
                       VkEvent* out) {
  auto* event = NewObject<Event>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                 ExecutionOf(device));
  if (event == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateEvent: allocation failed");
  *out = ToHandle(event);
  return VK_SUCCESS;
}

void Event::Destroy(Device& device, Event* event, const VkAllocationCallbacks* allocator) {
  DeleteObject(ChooseAllocator(allocator, device.allocator()), event);
}

void Event::Set() {
  execution_.Publish([this] { set_.store(true, std::memory_order_release); });
}

void Event::Reset() {
  execution_.Publish([this] { set_.store(false, std::memory_order_release); });
}

bool Event::WaitOnQueue() { return execution_.Wait(UINT64_MAX, [this] { return isSet(); }); }

}  // namespace crashtest
