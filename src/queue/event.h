// VkEvent: set and reset by the host or by a queue; a queue executing vkCmdWaitEvents(2) blocks until it is set.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
class DeviceExecution;
CT_DEFINE_HANDLE(Event, VkEvent, VK_OBJECT_TYPE_EVENT);

class Event : public Object {
 public:
  static VkResult Create(Device& device, const VkEventCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkEvent* out);
  static void Destroy(Device& device, Event* event, const VkAllocationCallbacks* allocator);

  explicit Event(DeviceExecution& execution);

  bool isSet() const { return set_.load(std::memory_order_acquire); }
  void Set();
  void Reset();
  // Until set; false only when the device is being destroyed.
  bool WaitOnQueue();

 private:
  DeviceExecution& execution_;
  std::atomic<bool> set_{false};  // "Events are initially in the unsignaled state" (vkCreateEvent)
};

}  // namespace crashtest
