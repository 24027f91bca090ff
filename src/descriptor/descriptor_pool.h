// VkDescriptorPool: capacity per descriptor type and in sets, and the arena the sets' records live in.
//
// The arena holds as many records as the pool has non-inline descriptors; each set takes one contiguous range
// (RecordRangeAllocator: exact fit, then the unused end, then the smallest larger range; O(1) per set). A request
// within the per-type and maxSets capacity that finds no hole large enough fails with
// VK_ERROR_FRAGMENTED_POOL, as on a GPU whose descriptor heap is fragmented; over capacity is
// VK_ERROR_OUT_OF_POOL_MEMORY. When every set uses the same number of descriptors the holes always fit, which is
// the spec's guarantee ("if all sets allocated from the pool since it was created or most recently reset use the
// same number of descriptors (of each type) and the requested allocation also uses that same number of
// descriptors (of each type), then fragmentation must not cause an allocation failure", vkAllocateDescriptorSets).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "command/command_records.h"
#include "common/handle.h"
#include "common/object.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/record_range_allocator.h"
#include "descriptor/ref_counted.h"

namespace crashtest {

class Device;
class DescriptorSetLayout;
CT_DEFINE_HANDLE(DescriptorPool, VkDescriptorPool, VK_OBJECT_TYPE_DESCRIPTOR_POOL);

class DescriptorPool : public Object {
 public:
  DescriptorPool(const VkDescriptorPoolCreateInfo& info, const VkAllocationCallbacks* allocator);
  ~DescriptorPool();
  DescriptorPool(const DescriptorPool&) = delete;
  DescriptorPool& operator=(const DescriptorPool&) = delete;

  static VkResult Create(Device& device, const VkDescriptorPoolCreateInfo& info,
                         const VkAllocationCallbacks* allocator, VkDescriptorPool* out);
  // A second destruction of the same handle is logged and ignored (VUID-vkDestroyDescriptorPool-descriptorPool-
  // parameter); work in flight keeps the pool's storage (VUID-vkDestroyDescriptorPool-descriptorPool-00303).
  static void Destroy(Device& device, DescriptorPool* pool, const VkAllocationCallbacks* allocator);
  // What vkCmdBindDescriptorSets records of `set` (null: VK_NULL_HANDLE).
  static record::DescriptorSetRef Ref(const DescriptorSet* set);

  // vkAllocateDescriptorSets: all or nothing ("If the creation of any of those descriptor sets fails, then the
  // implementation must destroy all successfully created descriptor set objects from this command, set all entries
  // of the pDescriptorSets array to VK_NULL_HANDLE and return the error").
  VkResult Allocate(const VkDescriptorSetAllocateInfo& info, VkDescriptorSet* sets);
  // vkFreeDescriptorSets: needs FREE_DESCRIPTOR_SET_BIT (VUID-vkFreeDescriptorSets-descriptorPool-00312).
  VkResult Free(uint32_t count, const VkDescriptorSet* sets);
  void Reset();

  VkDescriptorPoolCreateFlags flags() const { return flags_; }
  uint32_t liveSets() const { return static_cast<uint32_t>(sets_.size()); }

  // For the queues: hold mutex() while calling LocateSet and for as long as the set is read.
  std::mutex& mutex() const { return mutex_; }
  enum class SetState { kLive, kFreed, kReset };
  // Whether `set` (recorded with `id` at `poolIndex`) is still a live set of this pool; else whether it went with a
  // vkFreeDescriptorSets or a vkResetDescriptorPool. Never dereferences a set that is not live.
  SetState LocateSet(const DescriptorSet* set, uint64_t id, uint32_t poolIndex) const;

 private:
  struct TypeCapacity {
    VkDescriptorType type;
    uint32_t capacity;
    uint32_t used;
  };
  VkResult AllocateOne(DescriptorSetLayout& layout, uint32_t variableCount, DescriptorSet** out);
  void Release(DescriptorSet* set);
  // A set's object memory: with the C heap (no callbacks), a freed set's memory is kept for the next set of this
  // pool (at most the pool's peak of live sets, given back when the pool is destroyed), so a pool churned every
  // frame costs no malloc/free per set and reuses memory that is still in cache. With the application's callbacks
  // every set goes through them ("pAllocator ... controls host memory allocation").
  void* TakeSetMemory();
  void GiveSetMemory(DescriptorSet* set);  // destroys the set
  // Whether `set` (an application's handle) is a live set of this pool, without reading freed memory: a second
  // vkFreeDescriptorSets of the same handle must not release it again. Memory the pool recycles holds either a
  // live set or a RecycledSet, told apart by their first word (a set's id is never 0); memory given back to the
  // application's callbacks is not read, the live sets are searched instead (O(live sets)).
  bool ListsSet(const DescriptorSet* set) const;
  TypeCapacity* Capacity(VkDescriptorType type);
  // A set of `layout` is about to be created / was deleted: the pool holds one reference on each layout its live
  // sets use, so a set costs no atomic reference count of its own.
  void UseLayout(DescriptorSetLayout& layout);
  void LeaveLayout(const DescriptorSetLayout& layout);

  HostAllocator allocator_;  // sets come from the pool's callbacks
  VkDescriptorPoolCreateFlags flags_;
  uint32_t maxSets_;
  uint32_t maxInlineBindings_;
  uint32_t usedInlineBindings_ = 0;
  std::vector<TypeCapacity> capacities_;
  // capacities_ index of each core descriptor type (0 .. INPUT_ATTACHMENT), kNoCapacity when the pool has none.
  static constexpr uint32_t kIndexedTypes = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT + 1;
  static constexpr uint8_t kNoCapacity = 0xff;
  uint8_t capacityIndex_[kIndexedTypes] = {kNoCapacity, kNoCapacity, kNoCapacity, kNoCapacity, kNoCapacity, kNoCapacity,
                                           kNoCapacity, kNoCapacity, kNoCapacity, kNoCapacity, kNoCapacity};
  std::vector<DescriptorRecord> arena_;  // never resized after creation: sets point into it
  RecordRangeAllocator ranges_;          // which records of arena_ the live sets use
  // The live sets; each knows its index (DescriptorSet::poolIndex), so a free is a swap with the last, O(1).
  std::vector<DescriptorSet*> sets_;
  struct LayoutUse {
    DescriptorSetLayout* layout;
    uint32_t sets;  // live sets of that layout
  };
  std::vector<LayoutUse> layouts_;  // one reference each (RefCounted::Ref), few entries: pools serve few layouts
  // Laid over a freed set's memory. `zero` overlays the set's ObjectHeader::id, which is never 0 (ListsSet).
  struct RecycledSet {
    uint64_t zero = 0;
    RecycledSet* next = nullptr;
  };
  RecycledSet* recycled_ = nullptr;  // TakeSetMemory / GiveSetMemory
  // Sets with an id below this were allocated before the last vkResetDescriptorPool (for the fault's wording).
  uint64_t resetMark_ = 0;
  mutable std::mutex mutex_;  // guards sets_ (and the sets) against the queues' reads
};

}  // namespace crashtest
