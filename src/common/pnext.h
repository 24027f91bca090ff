// The one pNext helper: find an input struct by sType, walk an output chain, fill an output struct while keeping
// the caller's sType and pNext. Unknown structs are skipped, as the spec requires of implementations
// ("Any component of the implementation ... must skip over ... unrecognized structures", Valid Usage for
// Structure Pointer Chains).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace crashtest {

// The sType of each Vulkan struct the driver reads or writes through a chain.
template <typename T>
struct StructType;
#define CT_STRUCT_TYPE(Type, Value) \
  template <>                       \
  struct StructType<Type> {         \
    static constexpr VkStructureType value = Value; \
  }

// First struct of type T in an input chain (pNext of a const create/info struct), or nullptr.
template <typename T>
const T* FindInChain(const void* pNext) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext)
    if (s->sType == StructType<T>::value) return reinterpret_cast<const T*>(s);
  return nullptr;
}

// First struct of type T in an output chain, or nullptr.
template <typename T>
T* FindInOutChain(void* pNext) {
  for (auto* s = static_cast<VkBaseOutStructure*>(pNext); s != nullptr; s = s->pNext)
    if (s->sType == StructType<T>::value) return reinterpret_cast<T*>(s);
  return nullptr;
}

// Calls visit(VkBaseOutStructure*) for each struct of an output chain.
template <typename Visit>
void ForEachInOutChain(void* pNext, Visit&& visit) {
  for (auto* s = static_cast<VkBaseOutStructure*>(pNext); s != nullptr; s = s->pNext) visit(s);
}

// Calls visit(const VkBaseInStructure*) for each struct of an input chain.
template <typename Visit>
void ForEachInChain(const void* pNext, Visit&& visit) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext) visit(s);
}

// Copies everything after sType/pNext from `source` (a complete struct image of `size` bytes) into `out`, so the
// caller's sType and pNext stay as they were.
inline void FillKeepingHeader(VkBaseOutStructure* out, const void* source, size_t size) {
  constexpr size_t kHeader = sizeof(VkBaseOutStructure);
  if (size > kHeader)
    std::memcpy(reinterpret_cast<std::byte*>(out) + kHeader, static_cast<const std::byte*>(source) + kHeader,
                size - kHeader);
}

// Typed form: writes `value` into `out` keeping out's sType and pNext.
template <typename T>
void FillKeepingHeader(T* out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  FillKeepingHeader(reinterpret_cast<VkBaseOutStructure*>(out), &value, sizeof(T));
}

}  // namespace crashtest
