// The objects the application may still name (issue 18): buffers, images, image views, buffer views, samplers,
// memory objects, fences, query pools, descriptor pools, command pools, render passes and framebuffers are registered at creation and removed at destruction, so that
// - a second vkDestroy* / vkFreeMemory of the same handle is recognised as stale, logged with its VUID and ignored
//   instead of freeing memory twice;
// - the queues can tell, before touching a resource a command names, whether it was destroyed meanwhile (a use
//   after free) and raise a device fault at its device address instead of reading freed memory.
// A removed object is remembered (bounded, the most recent first) with the device address it had, so the fault
// can name it. Keyed by the object's address: a handle whose memory was reused for a new object of the same type
// is not recognisably stale (the same limit a GPU's page tables have).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace crashtest::live_objects {

enum class State { Live, Destroyed, Unknown };

struct Entry {
  VkObjectType type = VK_OBJECT_TYPE_UNKNOWN;
  uint64_t id = 0;              // ObjectHeader::id
  VkDeviceAddress address = 0;  // the device address it occupies (a bound buffer's, a memory object's), else 0
};

void Add(const void* object, const Entry& entry);
// Updates the device address of a live object (a buffer when it is bound).
void SetAddress(const void* object, VkDeviceAddress address);
// Removes a live object of `type`; false (nothing changes) when `object` is not one: a stale or foreign handle.
bool Remove(const void* object, VkObjectType type);
// Whether `object` is a live object of `type`, was one and was destroyed (then *out says what it was), or neither.
State Find(const void* object, VkObjectType type, Entry* out = nullptr);
// Whether `object` is a live object of `type`; if not, logs the error "`command`: HANDLE is not a live `what`
// [(destroyed)] (`vuid`)", for a command that must not read a stale handle's memory.
bool RequireLive(const void* object, const void* handle, VkObjectType type, const char* command, const char* what,
                 const char* vuid);

}  // namespace crashtest::live_objects
