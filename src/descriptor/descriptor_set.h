// VkDescriptorSet and its storage, the layout a future shader interpreter reads.
//
// Storage of one set:
//   records()    one DescriptorRecord per descriptor of every non-inline binding, bindings in increasing binding
//                number, array elements in order: binding b's element i is records()[layout.Find(b)->firstRecord + i].
//                The VARIABLE_DESCRIPTOR_COUNT binding (always last) has variableCount() records. The records live in
//                the pool's arena (DescriptorPool), contiguous per set.
//   inlineData() the bytes of every VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK binding, binding b at
//                layout.Find(b)->inlineOffset, descriptorCount bytes long (the variable one: variableCount() bytes).
// A record holds exactly what the last write or copy gave it; members a type does not use stay null/zero:
//   SAMPLER                                   sampler
//   COMBINED_IMAGE_SAMPLER                    imageView, imageLayout, sampler
//   SAMPLED_IMAGE, STORAGE_IMAGE, INPUT_ATTACHMENT  imageView, imageLayout
//   UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER      texelBufferView
//   UNIFORM_BUFFER(_DYNAMIC), STORAGE_BUFFER(_DYNAMIC)  buffer, offset, range (VK_WHOLE_SIZE resolved to
//                                             buffer size - offset; dynamic offsets are added at bind time)
// Samplers of bindings with immutable samplers are set at allocation to the layout's copies and never change
// ("writes ... to a binding with immutable samplers ... the sampler is ignored").
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Buffer;
class BufferView;
class DescriptorPool;
class DescriptorSetLayout;
class ImageView;
class Sampler;
struct DescriptorBinding;

CT_DEFINE_HANDLE(DescriptorSet, VkDescriptorSet, VK_OBJECT_TYPE_DESCRIPTOR_SET);

struct DescriptorRecord {
  VkDescriptorType type;  // the binding's type, set at allocation
  VkImageLayout imageLayout;
  const Sampler* sampler;
  ImageView* imageView;
  BufferView* texelBufferView;
  Buffer* buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
};

class DescriptorSet : public Object {
 public:
  DescriptorSet(DescriptorPool& pool, DescriptorSetLayout& layout, std::span<DescriptorRecord> records,
                uint32_t firstRecord, uint32_t variableCount);
  ~DescriptorSet();
  DescriptorSet(const DescriptorSet&) = delete;
  DescriptorSet& operator=(const DescriptorSet&) = delete;

  DescriptorPool& pool() const { return pool_; }
  const DescriptorSetLayout& layout() const { return layout_; }
  std::span<const DescriptorRecord> records() const { return records_; }
  std::span<const std::byte> inlineData() const { return inlineData_; }
  uint32_t variableCount() const { return variableCount_; }
  // Descriptors (bytes for inline uniform blocks) of `binding` in this set.
  uint32_t BindingCount(const DescriptorBinding& binding) const;
  // nullptr when out of range.
  const DescriptorRecord* Find(uint32_t binding, uint32_t arrayElement) const;
  // Where the set's records start in the pool's arena (for the pool's bookkeeping).
  uint32_t firstRecord() const { return firstRecord_; }

  // vkUpdateDescriptorSets: one write and one copy, with the overflow into following bindings the spec describes.
  VkResult Write(const VkWriteDescriptorSet& write);
  VkResult Copy(const VkCopyDescriptorSet& copy);
  // One template entry: element i's info is at `data + offset + i * stride`.
  VkResult WriteFromTemplate(const VkDescriptorUpdateTemplateEntry& entry, const void* data);

 private:
  template <typename Visit>
  VkResult ForEachDescriptor(const char* command, uint32_t binding, uint32_t element, uint32_t count, Visit&& visit);
  VkResult WriteInline(const char* command, uint32_t binding, uint32_t byteOffset, uint32_t size, const void* data);

  friend class DescriptorPool;
  uint32_t poolIndex_ = 0;  // where the pool lists it (DescriptorPool::sets_)
  DescriptorPool& pool_;
  DescriptorSetLayout& layout_;  // kept alive by the pool while the set lives (DescriptorPool::layouts_)
  std::span<DescriptorRecord> records_;
  uint32_t firstRecord_;
  uint32_t variableCount_;
  std::vector<std::byte> inlineData_;
};

// One element of a descriptor write into `record` of `binding` (push descriptors, descriptor/push_descriptors.h):
// `info` is the element's VkDescriptorImageInfo, VkDescriptorBufferInfo or VkBufferView by the binding's type.
// Immutable samplers stay.
void FillDescriptorRecord(DescriptorRecord& record, const DescriptorBinding& binding, const void* info);

}  // namespace crashtest
