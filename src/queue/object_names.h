// Names given with vkSetDebugUtilsObjectNameEXT, by object handle, so logs and fault reports can use them.
// vkSetDebugUtilsObjectNameEXT externally synchronises only the named object, so the table locks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "fault/dump/dump_content.h"

namespace crashtest {

class Device;

class ObjectNames {
 public:
  // "If pObjectName is NULL or an empty string, then any previously set name is removed"
  // (VkDebugUtilsObjectNameInfoEXT).
  void Set(VkObjectType type, uint64_t handle, const char* name);
  // The name, or "" when none.
  std::string Get(uint64_t handle) const;
  // Every name, ordered by handle (for crash dumps).
  std::vector<dump::ObjectName> List() const;

 private:
  struct Entry {
    VkObjectType type;
    std::string name;
  };
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, Entry> names_;
};

// The name of `handle` on `device` ("" when none, or while the device has no queues yet).
std::string ObjectNameOf(const Device& device, uint64_t handle);

}  // namespace crashtest
