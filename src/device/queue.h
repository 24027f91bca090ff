// VkQueue: one queue of a logical device. Execution (a worker thread per queue) arrives with the [work] issue.
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

CT_DEFINE_HANDLE(Queue, VkQueue, VK_OBJECT_TYPE_QUEUE);
class Device;

class Queue : public DispatchableObject {
 public:
  Queue(Device& device, uint32_t familyIndex, uint32_t index, VkDeviceQueueCreateFlags flags, float priority)
      : DispatchableObject(VK_OBJECT_TYPE_QUEUE),
        device_(device),
        familyIndex_(familyIndex),
        index_(index),
        flags_(flags),
        priority_(priority) {}

  Device& device() const { return device_; }
  uint32_t familyIndex() const { return familyIndex_; }
  uint32_t index() const { return index_; }
  VkDeviceQueueCreateFlags flags() const { return flags_; }
  float priority() const { return priority_; }

 private:
  Device& device_;
  uint32_t familyIndex_;
  uint32_t index_;
  VkDeviceQueueCreateFlags flags_;
  float priority_;
};

}  // namespace crashtest
