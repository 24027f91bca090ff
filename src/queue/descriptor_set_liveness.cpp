#include "queue/descriptor_set_liveness.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

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

bool DescriptorSetLocks::Acquire(const record::DescriptorSetRef& ref) {
  if (ref.set == nullptr) return true;
  const bool locked = std::find(pools_.begin(), pools_.end(), ref.pool) != pools_.end();
  if (!locked) {
    live_objects::Entry entry;
    if (live_objects::Find(ref.pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL, &entry) != live_objects::State::Live ||
        entry.id != ref.poolId) [[unlikely]] {
      failure_ = Gone(ref, "destroyed with the pool", "VUID-vkDestroyDescriptorPool-descriptorPool-00303");
      return false;
    }
    // Live now, and not freed before this submission ends (DescriptorPool::Destroy defers it), even if the
    // application destroys it before the lock is taken.
    locks_.emplace_back(ref.pool->mutex());
    pools_.push_back(ref.pool);
  }
  const DescriptorPool::SetState state = ref.pool->LocateSet(ref.set, ref.setId, ref.poolIndex);
  if (state == DescriptorPool::SetState::kLive) [[likely]] return true;
  failure_ = state == DescriptorPool::SetState::kReset
                 ? Gone(ref, "freed by a reset of the pool", "VUID-vkResetDescriptorPool-descriptorPool-00313")
                 : Gone(ref, "freed", "VUID-vkFreeDescriptorSets-pDescriptorSets-00309");
  return false;
}

void DescriptorSetLocks::RaiseFault(const std::string& where) {
  // Released first: the fault engine may take other locks, and nothing reads the sets any more.
  locks_.clear();
  pools_.clear();
  RaiseUseAfterFree(queue_, ResourceAccess::Read, 0, failure_.c_str(), where);
}

}  // namespace crashtest
