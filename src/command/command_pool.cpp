#include "command/command_pool.h"

#include <algorithm>

#include "command/command_buffer.h"
#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "device/physical_device.h"

namespace crashtest {

CommandPool::CommandPool(Device& device, const VkCommandPoolCreateInfo& info, const VkAllocationCallbacks* allocator)
    : Object(VK_OBJECT_TYPE_COMMAND_POOL),
      device_(device),
      flags_(info.flags),
      queueFamilyIndex_(info.queueFamilyIndex),
      hasAllocator_(allocator != nullptr),
      allocator_(allocator != nullptr ? *allocator : VkAllocationCallbacks{}),
      chunks_(hasAllocator_ ? &allocator_ : nullptr) {}

CommandPool::~CommandPool() {
  // A buffer a queue still holds (after a loss) is orphaned: the queue deletes it, with its own copy of the
  // callbacks, once done with it.
  for (CommandBuffer* buffer : buffers_) CommandBuffer::Free(buffer, "vkDestroyCommandPool");
}

VkResult CommandPool::Create(Device& device, const VkCommandPoolCreateInfo& info,
                             const VkAllocationCallbacks* allocator, VkCommandPool* out) {
  if (info.queueFamilyIndex >= device.physicalDevice().description().queueFamilies.size())
    return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                       "vkCreateCommandPool: queueFamilyIndex %u is not a queue family of the device "
                       "(VUID-vkCreateCommandPool-queueFamilyIndex-01937)",
                       info.queueFamilyIndex);
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* pool = NewObject<CommandPool>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device, info, callbacks);
  if (pool == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateCommandPool: allocation failed");
  live_objects::Add(pool, {VK_OBJECT_TYPE_COMMAND_POOL, pool->header.id, 0});
  *out = ToHandle(pool);
  return VK_SUCCESS;
}

CommandPool* CommandPool::Live(VkCommandPool handle, const char* command, const char* vuid) {
  CommandPool* pool = FromHandle(handle);
  return live_objects::RequireLive(pool, handle, VK_OBJECT_TYPE_COMMAND_POOL, command, "command pool", vuid) ? pool
                                                                                                              : nullptr;
}

void CommandPool::Destroy(CommandPool* pool, const VkAllocationCallbacks* allocator) {
  if (pool == nullptr) return;
  // "commandPool must be a valid VkCommandPool handle" (VUID-vkDestroyCommandPool-commandPool-parameter): a second
  // destruction would free the pool and its command buffers twice.
  if (!live_objects::Remove(pool, VK_OBJECT_TYPE_COMMAND_POOL)) {
    CT_ERROR("vkDestroyCommandPool: %p is not a live command pool (destroyed already?) "
             "(VUID-vkDestroyCommandPool-commandPool-parameter); ignored",
             static_cast<void*>(ToHandle(pool)));
    return;
  }
  // The pool's own storage came from the callbacks it was created with, which it keeps a copy of.
  VkAllocationCallbacks copy{};
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, pool->allocator());
  if (callbacks != nullptr) {
    copy = *callbacks;
    callbacks = &copy;
  }
  DeleteObject(callbacks, pool);
}

VkResult CommandPool::Allocate(const VkCommandBufferAllocateInfo& info, VkCommandBuffer* out) {
  buffers_.reserve(buffers_.size() + info.commandBufferCount);
  for (uint32_t i = 0; i < info.commandBufferCount; ++i) {
    auto* buffer = NewObject<CommandBuffer>(allocator(), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *this, info.level);
    if (buffer == nullptr) {
      // "If the allocation of any of those command buffers fails, the implementation must free all successfully
      // allocated command buffer objects from this command, set all entries of the pCommandBuffers array to NULL"
      // (vkAllocateCommandBuffers).
      for (uint32_t j = 0; j < i; ++j) Free(FromHandle(out[j]));
      for (uint32_t j = 0; j < info.commandBufferCount; ++j) out[j] = VK_NULL_HANDLE;
      return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkAllocateCommandBuffers: allocation of command buffer %u failed",
                         i);
    }
    buffers_.push_back(buffer);
    out[i] = ToHandle(buffer);
  }
  return VK_SUCCESS;
}

void CommandPool::Free(CommandBuffer* commandBuffer) {
  if (commandBuffer == nullptr) return;
  auto it = std::find(buffers_.begin(), buffers_.end(), commandBuffer);
  // "each element of which must either be a valid handle or NULL" (VUID-vkFreeCommandBuffers-pCommandBuffers-
  // 00048): a buffer freed already (or of another pool) would be freed twice.
  if (it == buffers_.end()) [[unlikely]] {
    CT_ERROR("vkFreeCommandBuffers: %p is not a live command buffer of pool %llu (freed already?) "
             "(VUID-vkFreeCommandBuffers-pCommandBuffers-00048); ignored",
             static_cast<void*>(ToHandle(commandBuffer)), static_cast<unsigned long long>(header.id));
    return;
  }
  *it = buffers_.back();
  buffers_.pop_back();
  CommandBuffer::Free(commandBuffer, "vkFreeCommandBuffers");
}

void CommandPool::Reset(VkCommandPoolResetFlags flags) {
  bool release = (flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) != 0;
  for (CommandBuffer* buffer : buffers_) buffer->Reset(release, "vkResetCommandPool");
  if (release) chunks_.Trim();
}

}  // namespace crashtest
