// Every Vulkan object crashtest creates carries a stable, increasing id and its VkObjectType, so that logs, fault
// reports and crash dumps can name objects. Dispatchable objects additionally keep the loader's dispatch slot at
// offset 0: "the first member of a dispatchable object must be a pointer-sized slot the loader writes its dispatch
// table into" (Vulkan loader ICD interface, "ICD Dispatchable Object Creation").
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>

namespace crashtest {

// Process-wide, starts at 1; never reused, so ids stay unique across devices and instances.
uint64_t NextObjectId();

struct ObjectHeader {
  uint64_t id;
  VkObjectType type;
};

// Base of non-dispatchable objects. Keep it free of virtual functions: a handle is a plain pointer to it.
struct Object {
  explicit Object(VkObjectType type) : header{NextObjectId(), type} {}
  ObjectHeader header;
};

// Base of dispatchable objects (instance, physical device, device, queue, command buffer). No virtual functions
// anywhere in the hierarchy, and this base comes first, so loaderData is at offset 0 of the object.
struct DispatchableObject {
  explicit DispatchableObject(VkObjectType type) : header{NextObjectId(), type} {
    // "set_loader_magic_value": the loader checks this value before it overwrites the slot.
    loaderData.loaderMagic = ICD_LOADER_MAGIC;
  }
  VK_LOADER_DATA loaderData;
  ObjectHeader header;
};
static_assert(sizeof(VK_LOADER_DATA) == sizeof(void*));

}  // namespace crashtest
