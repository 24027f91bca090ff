#include "device/deferred_destruction.h"

#include <utility>

namespace crashtest {

void DeferredDestruction::DestroyWhenIdle(void* object, Destroy destroy, const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard lock(mutex_);
    if (inFlight_ != 0) {
      // The callbacks are copied: the application's structure need not outlive the call.
      pending_.push_back(
          {object, destroy, allocator != nullptr, allocator != nullptr ? *allocator : VkAllocationCallbacks{}});
      return;
    }
  }
  destroy(object, allocator);
}

void DeferredDestruction::BeginWork() {
  std::lock_guard lock(mutex_);
  ++inFlight_;
}

void DeferredDestruction::EndWork() {
  std::vector<Pending> drained;
  {
    std::lock_guard lock(mutex_);
    if (--inFlight_ == 0) drained.swap(pending_);
  }
  Run(drained);
}

void DeferredDestruction::DestroyAll() {
  std::vector<Pending> drained;
  {
    std::lock_guard lock(mutex_);
    drained.swap(pending_);
  }
  Run(drained);
}

void DeferredDestruction::Run(std::vector<Pending>& pending) {
  for (Pending& p : pending) p.destroy(p.object, p.hasAllocator ? &p.allocator : nullptr);
}

}  // namespace crashtest
