// Before a queue reads a descriptor set that a recorded vkCmdBindDescriptorSets named, it checks the set is still
// that set: its pool is alive (common/live_objects.h, and the same pool by id: a new pool may reuse the memory),
// and the pool still lists it with the recorded id (DescriptorPool::LocateSet). Freeing a set, resetting or
// destroying its pool while pending work uses it is a misuse (VUID-vkFreeDescriptorSets-pDescriptorSets-00309,
// VUID-vkResetDescriptorPool-descriptorPool-00313, VUID-vkDestroyDescriptorPool-descriptorPool-00303) that a GPU
// answers with a fault reading the descriptors: the queue raises a use-after-free device fault (READ_INVALID; a
// set has no device address, so at 0) naming the set and its pool, and the command does not run.
//
// A set found live is read only while its pool's lock is held (the application's frees and resets take it too),
// and a pool found live is not freed before the submission ends (its destruction is deferred): the queue never
// reads freed descriptor memory, whatever the application does meanwhile.
//
// One command may read sets of several pools, and two queues may meet the same pools in opposite orders: a queue
// holding a pool's lock never blocks on another one. It tries the next lock; if that is taken, it lets go of all of
// them, takes them again in address order (waiting), and checks the sets it accepted meanwhile once more. A thread
// only ever waits with no lock held or holding an address-ordered prefix, so no cycle of waits can form.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "command/command_records.h"

namespace crashtest {

class DescriptorPool;
class Queue;

// The pool locks of the sets one command reads, released when this dies.
class DescriptorSetLocks {
 public:
  explicit DescriptorSetLocks(Queue& queue) : queue_(queue) {}
  DescriptorSetLocks(const DescriptorSetLocks&) = delete;
  DescriptorSetLocks& operator=(const DescriptorSetLocks&) = delete;

  // True when `ref` (a null set included) names a live set, whose pool then stays locked. False: it is gone, and
  // RaiseFault must be called (the set must not be read).
  bool Acquire(const record::DescriptorSetRef& ref);
  // Raises the use-after-free fault for the set the last Acquire refused (`where` names the command). A device
  // loss unless the plan masks it.
  void RaiseFault(const std::string& where);

 private:
  // Whether `ref`'s pool is live and still the recorded one (else failure_ says so).
  bool PoolLive(const record::DescriptorSetRef& ref);
  // Whether `ref`'s set is still listed by its (locked) pool (else failure_ says so).
  bool SetLive(const record::DescriptorSetRef& ref);

  Queue& queue_;
  std::vector<const DescriptorPool*> pools_;  // locked
  std::vector<std::unique_lock<std::mutex>> locks_;
  std::vector<record::DescriptorSetRef> accepted_;  // checked again after a relock
  std::string failure_;  // the last refusal's description
};

}  // namespace crashtest
