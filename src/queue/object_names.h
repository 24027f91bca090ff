// Names given with vkSetDebugUtilsObjectNameEXT, by object handle, so logs and fault reports can use them.
// vkSetDebugUtilsObjectNameEXT externally synchronises only the named object, so the table locks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace crashtest {

class ObjectNames {
 public:
  // "If pObjectName is NULL or an empty string, then any previously set name is removed"
  // (VkDebugUtilsObjectNameInfoEXT).
  void Set(VkObjectType type, uint64_t handle, const char* name);
  // The name, or "" when none.
  std::string Get(uint64_t handle) const;

 private:
  struct Entry {
    VkObjectType type;
    std::string name;
  };
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Entry> names_;
};

}  // namespace crashtest
