#include "descriptor/descriptor_pool.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/device.h"

namespace crashtest {

namespace {

// Records of the arena: one per non-inline descriptor the pool holds.
uint32_t ArenaRecords(const VkDescriptorPoolCreateInfo& info) {
  uint64_t records = 0;
  for (uint32_t i = 0; i < info.poolSizeCount; ++i)
    if (!IsInlineUniformBlock(info.pPoolSizes[i].type)) records += info.pPoolSizes[i].descriptorCount;
  return static_cast<uint32_t>(std::min<uint64_t>(records, UINT32_MAX - 1));
}

}  // namespace

DescriptorPool::DescriptorPool(const VkDescriptorPoolCreateInfo& info, const VkAllocationCallbacks* allocator)
    : Object(VK_OBJECT_TYPE_DESCRIPTOR_POOL),
      allocator_(allocator),
      flags_(info.flags),
      maxSets_(info.maxSets),
      maxInlineBindings_(0),
      arena_(ArenaRecords(info)),
      ranges_(static_cast<uint32_t>(arena_.size())) {
  for (uint32_t i = 0; i < info.poolSizeCount; ++i) {
    const VkDescriptorPoolSize& size = info.pPoolSizes[i];
    // Several entries may name the same type; their counts add up.
    if (TypeCapacity* existing = Capacity(size.type)) {
      existing->capacity += size.descriptorCount;
    } else {
      if (static_cast<uint32_t>(size.type) < kIndexedTypes && capacities_.size() < kNoCapacity)
        capacityIndex_[size.type] = static_cast<uint8_t>(capacities_.size());
      capacities_.push_back({size.type, size.descriptorCount, 0});
    }
  }
  if (const auto* inlineInfo = FindInChain<VkDescriptorPoolInlineUniformBlockCreateInfo>(info.pNext))
    maxInlineBindings_ = inlineInfo->maxInlineUniformBlockBindings;
  sets_.reserve(maxSets_);
}

DescriptorPool::~DescriptorPool() {
  Reset();  // nothing reads the pool any more: its destruction waited for the device's work (Destroy)
  while (recycled_ != nullptr) {
    RecycledSet* next = recycled_->next;
    FreeHostMemory(nullptr, recycled_);
    recycled_ = next;
  }
}

void* DescriptorPool::TakeSetMemory() {
  static_assert(sizeof(DescriptorSet) >= sizeof(RecycledSet) && alignof(DescriptorSet) >= alignof(RecycledSet));
  if (recycled_ != nullptr) {
    RecycledSet* memory = recycled_;
    recycled_ = memory->next;
    memory->~RecycledSet();
    return memory;
  }
  return AllocateHostMemory(allocator_.get(), sizeof(DescriptorSet), alignof(DescriptorSet),
                            VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}

void DescriptorPool::GiveSetMemory(DescriptorSet* set) {
  set->~DescriptorSet();
  if (allocator_.get() != nullptr) {
    FreeHostMemory(allocator_.get(), set);
    return;
  }
  recycled_ = new (static_cast<void*>(set)) RecycledSet{0, recycled_};
}

bool DescriptorPool::ListsSet(const DescriptorSet* set) const {
  if (allocator_.get() != nullptr) return std::find(sets_.begin(), sets_.end(), set) != sets_.end();
  // The first word of the storage, as bytes: the id of a live set, 0 in a recycled one.
  static_assert(offsetof(ObjectHeader, id) == 0 && sizeof(ObjectHeader::id) == sizeof(RecycledSet::zero));
  uint64_t firstWord = 0;
  std::memcpy(&firstWord, static_cast<const void*>(set), sizeof firstWord);
  if (firstWord == 0) return false;
  return set->poolIndex_ < sets_.size() && sets_[set->poolIndex_] == set;
}

VkResult DescriptorPool::Create(Device& device, const VkDescriptorPoolCreateInfo& info,
                                const VkAllocationCallbacks* allocator, VkDescriptorPool* out) {
  // VUID-VkDescriptorPoolCreateInfo-maxSets-00301 (before maintenance... allowed 0 only with inline blocks).
  if (info.maxSets == 0 && FindInChain<VkDescriptorPoolInlineUniformBlockCreateInfo>(info.pNext) == nullptr)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDescriptorPool: maxSets is 0 (VUID-VkDescriptorPoolCreateInfo-maxSets-00301)");
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* pool = NewObject<DescriptorPool>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, info, callbacks);
  if (pool == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDescriptorPool: allocation failed");
  live_objects::Add(pool, {VK_OBJECT_TYPE_DESCRIPTOR_POOL, pool->header.id, 0});
  *out = ToHandle(pool);
  return VK_SUCCESS;
}

void DescriptorPool::Destroy(Device& device, DescriptorPool* pool, const VkAllocationCallbacks*) {
  if (pool == nullptr) return;
  // "descriptorPool must be a valid VkDescriptorPool handle" (VUID-vkDestroyDescriptorPool-descriptorPool-
  // parameter): a second destruction would free the pool twice.
  if (!live_objects::Remove(pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL)) {
    CT_ERROR("vkDestroyDescriptorPool: %p is not a live descriptor pool (destroyed already?) "
             "(VUID-vkDestroyDescriptorPool-descriptorPool-parameter); ignored",
             static_cast<void*>(ToHandle(pool)));
    return;
  }
  // "All submitted commands that refer to descriptorPool (via any allocated descriptor sets) must have completed
  // execution" (VUID-vkDestroyDescriptorPool-descriptorPool-00303): pending work that still names its sets sees
  // the pool destroyed and faults (queue/descriptor_set_liveness.h); its storage — arena, sets, the layouts they
  // use — stays until that work is done.
  device.deferredDestruction().DestroyWhenIdle(
      pool, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<DescriptorPool*>(object));
      },
      pool->allocator_.get());  // the callbacks it was made with (copied: they outlive the pool's copy)
}

record::DescriptorSetRef DescriptorPool::Ref(const DescriptorSet* set) {
  if (set == nullptr) return {nullptr, nullptr, 0, 0, 0};
  return {set, &set->pool(), set->header.id, set->pool().header.id, set->poolIndex_};
}

DescriptorPool::SetState DescriptorPool::LocateSet(const DescriptorSet* set, uint64_t id, uint32_t poolIndex) const {
  // Only pointers the pool lists as live are dereferenced: a freed set's memory may be gone (allocation
  // callbacks) or hold another set. A free moves the last set into the hole, so the recorded index is a hint.
  bool live = poolIndex < sets_.size() && sets_[poolIndex] == set;
  if (!live) live = std::find(sets_.begin(), sets_.end(), set) != sets_.end();
  // The same memory may hold a newer set: the ids tell them apart.
  if (live && set->header.id == id) return SetState::kLive;
  return id < resetMark_ ? SetState::kReset : SetState::kFreed;
}

DescriptorPool::TypeCapacity* DescriptorPool::Capacity(VkDescriptorType type) {
  // The core types index a table (a set's allocation and free look up each of its types); the rest are rare.
  if (static_cast<uint32_t>(type) < kIndexedTypes) {
    const uint8_t index = capacityIndex_[type];
    return index != kNoCapacity ? &capacities_[index] : nullptr;
  }
  for (TypeCapacity& c : capacities_)
    if (c.type == type) return &c;
  return nullptr;
}

void DescriptorPool::UseLayout(DescriptorSetLayout& layout) {
  for (LayoutUse& use : layouts_)
    if (use.layout == &layout) {
      ++use.sets;
      return;
    }
  layouts_.push_back({&layout, 1});  // may throw before the reference is taken
  layout.Ref();
}

void DescriptorPool::LeaveLayout(const DescriptorSetLayout& layout) {
  for (LayoutUse& use : layouts_)
    if (use.layout == &layout) {
      if (--use.sets == 0) {
        DescriptorSetLayout* unused = use.layout;
        use = layouts_.back();
        layouts_.pop_back();
        unused->Unref();  // may delete it: the application destroyed it and this was its last set
      }
      return;
    }
}

VkResult DescriptorPool::AllocateOne(DescriptorSetLayout& layout, uint32_t variableCount, DescriptorSet** out) {
  // "VK_ERROR_OUT_OF_POOL_MEMORY ... if the total number of descriptor sets allocated from the pool ... exceeds
  // maxSets, or ... the number of descriptors of a type exceeds the pool's capacity" (vkAllocateDescriptorSets).
  if (sets_.size() >= maxSets_)
    return ReportError(VK_ERROR_OUT_OF_POOL_MEMORY, "vkAllocateDescriptorSets: pool %llu already holds maxSets (%u) "
                       "sets", static_cast<unsigned long long>(header.id), maxSets_);
  for (const DescriptorSetLayout::TypeCount& type : layout.typeCounts()) {
    const uint32_t need = type.Count(variableCount);
    if (need == 0) continue;
    TypeCapacity* capacity = Capacity(type.type);
    if (capacity == nullptr || capacity->capacity - capacity->used < need)
      return ReportError(VK_ERROR_OUT_OF_POOL_MEMORY,
                         "vkAllocateDescriptorSets: pool %llu has %u of the %u descriptors of type %d the set needs",
                         static_cast<unsigned long long>(header.id),
                         capacity == nullptr ? 0 : capacity->capacity - capacity->used, need, type.type);
  }
  uint32_t inlineBindings = layout.InlineBindingCount();
  if (inlineBindings > maxInlineBindings_ - std::min(usedInlineBindings_, maxInlineBindings_))
    return ReportError(VK_ERROR_OUT_OF_POOL_MEMORY, "vkAllocateDescriptorSets: pool %llu has no room for %u more inline "
                       "uniform block bindings (maxInlineUniformBlockBindings %u)",
                       static_cast<unsigned long long>(header.id), inlineBindings, maxInlineBindings_);
  uint32_t records = layout.RecordCount(variableCount);
  uint32_t first = ranges_.Allocate(records);
  if (first == RecordRangeAllocator::kNone)
    return ReportError(VK_ERROR_FRAGMENTED_POOL, "vkAllocateDescriptorSets: pool %llu has the capacity for %u records "
                       "but no contiguous range of that size", static_cast<unsigned long long>(header.id), records);

  std::span<DescriptorRecord> range(arena_.data() + first, records);
  UseLayout(layout);
  void* memory = TakeSetMemory();
  DescriptorSet* set = nullptr;
  if (memory != nullptr) {
    try {
      set = new (memory) DescriptorSet(*this, layout, range, first, variableCount);
    } catch (...) {
      if (allocator_.get() == nullptr)
        recycled_ = new (memory) RecycledSet{0, recycled_};
      else
        FreeHostMemory(allocator_.get(), memory);
      LeaveLayout(layout);
      ranges_.Free(first, records);
      throw;
    }
  }
  if (set == nullptr) {
    LeaveLayout(layout);
    ranges_.Free(first, records);
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkAllocateDescriptorSets: allocation failed");
  }
  for (const DescriptorSetLayout::TypeCount& type : layout.typeCounts())
    if (const uint32_t need = type.Count(variableCount); need != 0) Capacity(type.type)->used += need;
  usedInlineBindings_ += inlineBindings;
  set->poolIndex_ = static_cast<uint32_t>(sets_.size());
  sets_.push_back(set);
  *out = set;
  return VK_SUCCESS;
}

VkResult DescriptorPool::Allocate(const VkDescriptorSetAllocateInfo& info, VkDescriptorSet* sets) {
  std::lock_guard lock(mutex_);
  const auto* variable = FindInChain<VkDescriptorSetVariableDescriptorCountAllocateInfo>(info.pNext);
  for (uint32_t i = 0; i < info.descriptorSetCount; ++i) {
    DescriptorSetLayout& layout = *FromHandle(info.pSetLayouts[i]);
    // VUID-VkDescriptorSetAllocateInfo-pSetLayouts-03044: a layout created with UPDATE_AFTER_BIND_POOL needs a pool
    // created with UPDATE_AFTER_BIND.
    if ((layout.flags() & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) != 0 &&
        (flags_ & VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT) == 0) {
      for (uint32_t j = 0; j < i; ++j) Release(FromHandle(sets[j]));
      for (uint32_t j = 0; j < info.descriptorSetCount; ++j) sets[j] = VK_NULL_HANDLE;
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkAllocateDescriptorSets: layout %llu is UPDATE_AFTER_BIND_POOL "
                         "but pool %llu was created without UPDATE_AFTER_BIND "
                         "(VUID-VkDescriptorSetAllocateInfo-pSetLayouts-03044)",
                         static_cast<unsigned long long>(layout.header.id), static_cast<unsigned long long>(header.id));
    }
    // "If descriptorSetCount is zero or this structure is not included in the pNext chain, then the variable
    // lengths are considered to be zero" (VkDescriptorSetVariableDescriptorCountAllocateInfo).
    uint32_t variableCount = 0;
    if (variable != nullptr && variable->descriptorSetCount != 0) variableCount = variable->pDescriptorCounts[i];
    if (const DescriptorBinding* binding = layout.variableBinding(); binding != nullptr &&
                                                                     variableCount > binding->descriptorCount) {
      variableCount = 0;
      for (uint32_t j = 0; j < i; ++j) Release(FromHandle(sets[j]));
      for (uint32_t j = 0; j < info.descriptorSetCount; ++j) sets[j] = VK_NULL_HANDLE;
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkAllocateDescriptorSets: variable descriptor count exceeds "
                         "the binding's descriptorCount (VUID-VkDescriptorSetVariableDescriptorCountAllocateInfo-"
                         "pSetLayouts-03046)");
    }
    DescriptorSet* set = nullptr;
    VkResult result = AllocateOne(layout, variableCount, &set);
    if (result != VK_SUCCESS) {
      for (uint32_t j = 0; j < i; ++j) Release(FromHandle(sets[j]));
      for (uint32_t j = 0; j < info.descriptorSetCount; ++j) sets[j] = VK_NULL_HANDLE;
      return result;
    }
    sets[i] = ToHandle(set);
  }
  return VK_SUCCESS;
}

void DescriptorPool::Release(DescriptorSet* set) {
  const DescriptorSetLayout& layout = set->layout();
  for (const DescriptorSetLayout::TypeCount& type : layout.typeCounts())
    if (TypeCapacity* capacity = Capacity(type.type))
      capacity->used -= std::min(capacity->used, type.Count(set->variableCount()));
  usedInlineBindings_ -= std::min(usedInlineBindings_, layout.InlineBindingCount());
  ranges_.Free(set->firstRecord(), static_cast<uint32_t>(set->records().size()));
  DescriptorSet* last = sets_.back();
  last->poolIndex_ = set->poolIndex_;
  sets_[set->poolIndex_] = last;
  sets_.pop_back();
  GiveSetMemory(set);
  LeaveLayout(layout);
}

VkResult DescriptorPool::Free(uint32_t count, const VkDescriptorSet* sets) {
  if ((flags_ & VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT) == 0)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkFreeDescriptorSets: pool %llu was not created with "
                       "FREE_DESCRIPTOR_SET_BIT (VUID-vkFreeDescriptorSets-descriptorPool-00312)",
                       static_cast<unsigned long long>(header.id));
  std::lock_guard lock(mutex_);
  for (uint32_t i = 0; i < count; ++i) {
    if (sets[i] == VK_NULL_HANDLE) continue;
    DescriptorSet* set = FromHandle(sets[i]);
    // "pDescriptorSets must be a valid pointer to an array of descriptorSetCount VkDescriptorSet handles, each
    // element of which must either be a valid handle or VK_NULL_HANDLE" (VUID-vkFreeDescriptorSets-pDescriptorSets-
    // 00310): a set freed already (or with a reset of the pool) would be released twice, corrupting the pool.
    if (!ListsSet(set)) [[unlikely]] {
      CT_ERROR("vkFreeDescriptorSets: %p is not a live descriptor set of pool %llu (freed already?) "
               "(VUID-vkFreeDescriptorSets-pDescriptorSets-00310); ignored",
               static_cast<void*>(sets[i]), static_cast<unsigned long long>(header.id));
      continue;
    }
    Release(set);
  }
  return VK_SUCCESS;
}

void DescriptorPool::Reset() {
  std::lock_guard lock(mutex_);
  resetMark_ = NextObjectId();
  for (DescriptorSet* set : sets_) GiveSetMemory(set);
  sets_.clear();
  for (const LayoutUse& use : layouts_) use.layout->Unref();
  layouts_.clear();
  ranges_.Reset();
  usedInlineBindings_ = 0;
  for (TypeCapacity& capacity : capacities_) capacity.used = 0;
}

}  // namespace crashtest
