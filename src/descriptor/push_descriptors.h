// Push descriptors (VK_KHR_push_descriptor): vkCmdPushDescriptorSetKHR and vkCmdPushDescriptorSetWithTemplateKHR.
// "Push descriptors are a small bank of descriptors whose storage is internally managed by the command buffer"
// and "the descriptor contents are consumed when the command is recorded", so a push is captured whole into its
// record (record::PushDescriptorSet): the set layout's shape (bindings, types, record indices), every descriptor
// record of the set with the ones this push writes marked, and copies of the layout's immutable samplers. The
// application may then destroy the layouts, the template and its data; the queue applies the push when it reaches
// the record (queue/bound_resources.cpp), on top of the previous push to the same set with the same layout
// ("Push descriptors can be updated incrementally"), and reads the resources through the same liveness checks as
// for bound descriptor sets.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "command/command_records.h"
#include "descriptor/descriptor_set.h"

namespace crashtest {

class CommandBuffer;

// One binding of the pushed set's layout, in increasing binding order.
struct PushedBinding {
  uint32_t binding;
  VkDescriptorType type;
  uint32_t firstRecord;  // its first descriptor in PushedSetView::records
  uint32_t count;
  uint32_t immutableSamplers;  // 1: the records' samplers are the layout's (copied into the record)
  uint32_t reserved;
};

// The payload of a record::PushDescriptorSet.
struct PushedSetView {
  std::span<const PushedBinding> bindings;
  std::span<const DescriptorRecord> records;  // the whole set; unwritten records are empty
  std::span<const uint8_t> written;           // per record: 1 when this push wrote it
  // nullptr when the layout has no such binding.
  const PushedBinding* Find(uint32_t binding) const;
};
PushedSetView ViewPushedSet(const record::PushDescriptorSet& push);

// The recording side: checks the writes against the set layout `set` of `layout` (a command breaking a valid-usage
// rule is reported and not recorded, CommandBuffer::Misuse) and appends the record.
void RecordPushDescriptorSet(CommandBuffer& commandBuffer, VkPipelineBindPoint bindPoint, VkPipelineLayout layout,
                             uint32_t set, uint32_t writeCount, const VkWriteDescriptorSet* writes);
void RecordPushDescriptorSetWithTemplate(CommandBuffer& commandBuffer, VkDescriptorUpdateTemplate updateTemplate,
                                         VkPipelineLayout layout, uint32_t set, const void* data);

}  // namespace crashtest
