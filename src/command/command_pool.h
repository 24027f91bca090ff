// VkCommandPool: owns its command buffers and the chunks their streams are recorded into. Host access to a pool
// and its command buffers is externally synchronised (Vulkan 1.3, 6.2 "Command Pools"), so nothing here locks.
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

#include "command/command_arena.h"
#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class CommandBuffer;
class Device;
CT_DEFINE_HANDLE(CommandPool, VkCommandPool, VK_OBJECT_TYPE_COMMAND_POOL);

class CommandPool : public Object {
 public:
  static VkResult Create(Device& device, const VkCommandPoolCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkCommandPool* out);
  // Frees every command buffer still allocated from the pool ("When a pool is destroyed, all command buffers
  // allocated from the pool are freed", vkDestroyCommandPool).
  static void Destroy(CommandPool* pool, const VkAllocationCallbacks* allocator);
  // The pool behind `handle` if it is a live one; else null, with the error logged naming `command` and `vuid`
  // ("commandPool must be a valid VkCommandPool handle"): a destroyed pool's memory is gone, nothing of it is read.
  static CommandPool* Live(VkCommandPool handle, const char* command, const char* vuid);

  VkResult Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out);
  void Free(CommandBuffer* commandBuffer);
  // "Resetting a command pool recycles all of the resources from all of the command buffers allocated from the
  // command pool back to the command pool. All command buffers ... are put in the initial state."
  void Reset(VkCommandPoolResetFlags flags);
  void Trim() { chunks_.Trim(); }

  Device& device() const { return device_; }
  VkCommandPoolCreateFlags flags() const { return flags_; }
  uint32_t queueFamilyIndex() const { return queueFamilyIndex_; }
  const VkAllocationCallbacks* allocator() const { return hasAllocator_ ? &allocator_ : nullptr; }
  ChunkCache& chunks() { return chunks_; }

  CommandPool(Device& device, const VkCommandPoolCreateInfo& info, const VkAllocationCallbacks* allocator);
  ~CommandPool();

 private:
  Device& device_;
  VkCommandPoolCreateFlags flags_;
  uint32_t queueFamilyIndex_;
  bool hasAllocator_ = false;
  VkAllocationCallbacks allocator_{};
  ChunkCache chunks_;
  std::vector<CommandBuffer*> buffers_;
};

}  // namespace crashtest
