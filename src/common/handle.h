// The one cast between Vulkan handles and crashtest objects. Each object's header declares its handle with
// CT_DEFINE_HANDLE(Class, VkHandle, VK_OBJECT_TYPE_X); then FromHandle(h) gives Class* and ToHandle(obj) the handle.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <type_traits>

namespace crashtest {

template <typename Handle>
struct ObjectOfHandle;  // ::Type is the crashtest class behind a handle type
template <typename Class>
struct HandleOfObject;  // ::Type is the Vulkan handle type of a class, ::kObjectType its VkObjectType

#define CT_DEFINE_HANDLE(Class, VkHandle, ObjectTypeValue)              \
  class Class;                                                          \
  template <>                                                           \
  struct ObjectOfHandle<VkHandle> {                                     \
    using Type = Class;                                                 \
  };                                                                    \
  template <>                                                           \
  struct HandleOfObject<Class> {                                        \
    using Type = VkHandle;                                              \
    static constexpr VkObjectType kObjectType = ObjectTypeValue;        \
  }

template <typename Handle>
typename ObjectOfHandle<Handle>::Type* FromHandle(Handle handle) {
  return reinterpret_cast<typename ObjectOfHandle<Handle>::Type*>(handle);
}

template <typename Class>
typename HandleOfObject<Class>::Type ToHandle(const Class* object) {
  return reinterpret_cast<typename HandleOfObject<Class>::Type>(const_cast<Class*>(object));
}

// A handle as the uint64_t that VkDebugUtilsObjectNameInfoEXT and fault reports use.
template <typename Handle>
uint64_t HandleToU64(Handle handle) {
  if constexpr (std::is_pointer_v<Handle>)
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  else
    return static_cast<uint64_t>(handle);
}

}  // namespace crashtest
