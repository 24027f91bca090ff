#include "queue/object_names.h"

#include <algorithm>

#include "device/device.h"
#include "queue/device_execution.h"

namespace crashtest {

void ObjectNames::Set(VkObjectType type, uint64_t handle, const char* name) {
  std::lock_guard lock(mutex_);
  if (name == nullptr || *name == '\0') {
    names_.erase(handle);
    return;
  }
  names_[handle] = Entry{type, name};
}

std::string ObjectNames::Get(uint64_t handle) const {
  std::lock_guard lock(mutex_);
  auto it = names_.find(handle);
  return it == names_.end() ? std::string() : it->second.name;
}

std::vector<dump::ObjectName> ObjectNames::List() const {
  std::vector<dump::ObjectName> out;
  {
    std::lock_guard lock(mutex_);
    out.reserve(names_.size());
    for (const auto& [handle, entry] : names_) out.push_back({static_cast<uint32_t>(entry.type), handle, entry.name});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.handle < b.handle; });
  return out;
}

std::string ObjectNameOf(const Device& device, uint64_t handle) {
  if (device.queues().empty()) return {};
  return ExecutionOf(device).names().Get(handle);
}

}  // namespace crashtest
