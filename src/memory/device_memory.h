// VkDeviceMemory: host memory standing in for GPU memory. Its contents persist (mapped or not), and every
// allocation has a unique, stable device address so fault reports can attribute addresses to it.
// Contract used by the execution engine (src/command, src/queue): data() and address() are fixed for the
// allocation's life; data() is never nullptr for a live allocation of non-zero size.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(DeviceMemory, VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY);

class DeviceMemory : public Object {
 public:
  DeviceMemory(Device& device, VkDeviceSize size, uint32_t typeIndex);

  Device& device() const { return device_; }
  std::byte* data() const { return data_; }
  VkDeviceSize size() const { return size_; }
  uint32_t typeIndex() const { return typeIndex_; }
  uint32_t heapIndex() const { return heapIndex_; }
  VkDeviceAddress address() const { return address_; }

 protected:
  Device& device_;
  std::byte* data_ = nullptr;
  VkDeviceSize size_;
  uint32_t typeIndex_;
  uint32_t heapIndex_ = 0;
  VkDeviceAddress address_ = 0;
};

}  // namespace crashtest
