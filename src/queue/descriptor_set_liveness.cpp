#include "queue/descriptor_set_liveness.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>

#include "common/live_objects.h"
#include "descriptor/descriptor_pool.h"
#include "queue/resource_liveness.h"

namespace crashtest {

namespace {

// The description of a set that is gone: `how` it went and the VUID that broke.
std::string Gone(const record::DescriptorSetRef& ref, const char* how, const char* vuid) {
  char text[320];
  std::snprintf(text, sizeof text,
                "use after free: read of descriptor set %" PRIu64 " of descriptor pool %" PRIu64
                ", %s while work used it (%s)",
                ref.setId, ref.poolId, how, vuid);
  return text;
}

}  // namespace

bool DescriptorSetLocks::PoolLive(const record::DescriptorSetRef& ref) {
  live_objects::Entry entry;
  if (live_objects::Find(ref.pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL, &entry) == live_objects::State::Live &&
      entry.id == ref.poolId) [[likely]]
    return true;
  failure_ = Gone(ref, "destroyed with the pool", "VUID-vkDestroyDescriptorPool-descriptorPool-00303");
  return false;
}

bool DescriptorSetLocks::SetLive(const record::DescriptorSetRef& ref) {
  const DescriptorPool::SetState state = ref.pool->LocateSet(ref.set, ref.setId, ref.poolIndex);
  if (state == DescriptorPool::SetState::kLive) [[likely]] return true;
  failure_ = state == DescriptorPool::SetState::kReset
                 ? Gone(ref, "freed by a reset of the pool", "VUID-vkResetDescriptorPool-descriptorPool-00313")
                 : Gone(ref, "freed", "VUID-vkFreeDescriptorSets-pDescriptorSets-00309");
  return false;
}

bool DescriptorSetLocks::Acquire(const record::DescriptorSetRef& ref) {
  if (ref.set == nullptr) return true;
  if (std::find(pools_.begin(), pools_.end(), ref.pool) == pools_.end()) {
    // Live now, and not freed before this submission ends (DescriptorPool::Destroy defers it), even if the
    // application destroys it before the lock is taken.
    if (!PoolLive(ref)) [[unlikely]]
      return false;
    std::unique_lock<std::mutex> lock(ref.pool->mutex(), std::defer_lock);
    if (locks_.empty() || lock.try_lock()) [[likely]] {
      if (!lock.owns_lock()) lock.lock();  // holding nothing: waiting is safe
      locks_.push_back(std::move(lock));
      pools_.push_back(ref.pool);
    } else {
      // Another queue holds it and may wait for one of ours: let go, then take them all in address order.
      locks_.clear();
      pools_.push_back(ref.pool);
      std::vector<const DescriptorPool*> ordered = pools_;
      std::sort(ordered.begin(), ordered.end(), std::less<const DescriptorPool*>());
      for (const DescriptorPool* pool : ordered) locks_.emplace_back(pool->mutex());
      // The sets accepted so far went unguarded for a moment.
      for (const record::DescriptorSetRef& earlier : accepted_)
        if (!PoolLive(earlier) || !SetLive(earlier)) [[unlikely]]
          return false;
    }
  }
  if (!SetLive(ref)) [[unlikely]]
    return false;
  accepted_.push_back(ref);
  return true;
}

void DescriptorSetLocks::RaiseFault(const std::string& where) {
  // Released first: the fault engine may take other locks, and nothing reads the sets any more.
  locks_.clear();
  pools_.clear();
  accepted_.clear();
  RaiseUseAfterFree(queue_, ResourceAccess::Read, 0, failure_.c_str(), where);
}

}  // namespace crashtest
