#include "queue/object_names.h"

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

}  // namespace crashtest
