// VkDescriptorSetLayout: the bindings of a set, sorted by binding number, each with its place in a set's record
// array (see descriptor_set.h for the storage) and copies of its immutable samplers.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "descriptor/ref_counted.h"
#include "memory/sampler.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(DescriptorSetLayout, VkDescriptorSetLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT);

struct DescriptorBinding {
  uint32_t binding;
  VkDescriptorType type;
  // Descriptors, or bytes for VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK. For a VARIABLE_DESCRIPTOR_COUNT binding,
  // the upper bound; each set has its own count (DescriptorSet::BindingCount).
  uint32_t descriptorCount;
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;
  uint32_t firstRecord;       // index of its first record in a set's records (non-inline types)
  uint32_t inlineOffset;      // byte offset in a set's inline data (inline uniform blocks)
  const Sampler* immutableSamplers;  // descriptorCount copies owned by the layout, or nullptr
};

class DescriptorSetLayout : public Object, public RefCounted<DescriptorSetLayout> {
 public:
  DescriptorSetLayout(const VkDescriptorSetLayoutCreateInfo& info, const VkAllocationCallbacks* allocator);
  DescriptorSetLayout(const DescriptorSetLayout&) = delete;  // variableBinding_ points into bindings_
  DescriptorSetLayout& operator=(const DescriptorSetLayout&) = delete;
  static VkResult Create(Device& device, const VkDescriptorSetLayoutCreateInfo& info,
                         const VkAllocationCallbacks* allocator, VkDescriptorSetLayout* out);

  VkDescriptorSetLayoutCreateFlags flags() const { return flags_; }
  std::span<const DescriptorBinding> bindings() const { return bindings_; }
  // nullptr when the layout has no such binding.
  const DescriptorBinding* Find(uint32_t binding) const;
  // The VARIABLE_DESCRIPTOR_COUNT binding (always the highest-numbered one), or nullptr.
  const DescriptorBinding* variableBinding() const { return variableBinding_; }
  // Records and inline bytes of a set whose variable binding has `variableCount` descriptors.
  uint32_t RecordCount(uint32_t variableCount) const;
  uint32_t InlineBytes(uint32_t variableCount) const;
  // Descriptors of `type` a set of this layout uses (bytes for inline uniform blocks).
  uint32_t DescriptorCount(VkDescriptorType type, uint32_t variableCount) const;
  uint32_t InlineBindingCount() const { return inlineBindingCount_; }

  // The same per type, one entry per type the layout uses, computed once at creation: what a pool checks and
  // counts for every set it allocates and frees, in O(types) instead of O(bindings × types).
  struct TypeCount {
    VkDescriptorType type;
    uint32_t fixed;  // descriptors (bytes for inline uniform blocks) of the type's bindings but the variable one
    bool variable;   // the VARIABLE_DESCRIPTOR_COUNT binding has this type
    uint32_t Count(uint32_t variableCount) const { return fixed + (variable ? variableCount : 0); }
  };
  std::span<const TypeCount> typeCounts() const { return typeCounts_; }

 private:
  VkDescriptorSetLayoutCreateFlags flags_;
  std::vector<DescriptorBinding> bindings_;
  std::vector<Sampler> immutableSamplers_;  // sized once, so the bindings' pointers stay valid
  uint32_t recordCount_ = 0;  // with the variable binding at its upper bound
  uint32_t inlineBytes_ = 0;
  uint32_t inlineBindingCount_ = 0;
  const DescriptorBinding* variableBinding_ = nullptr;  // into bindings_, which never changes after creation
  std::vector<TypeCount> typeCounts_;
};

// vkGetDescriptorSetLayoutSupport (and VkDescriptorSetVariableDescriptorCountLayoutSupport in its chain).
void GetDescriptorSetLayoutSupport(const Device& device, const VkDescriptorSetLayoutCreateInfo& info,
                                   VkDescriptorSetLayoutSupport& support);

inline bool IsInlineUniformBlock(VkDescriptorType type) { return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK; }

}  // namespace crashtest
