#include "descriptor/push_descriptors.h"

#include <algorithm>
#include <cstddef>
#include <new>

#include "command/command_arena.h"
#include "command/command_buffer.h"
#include "descriptor/descriptor_set_layout.h"
#include "descriptor/descriptor_update_template.h"
#include "descriptor/pipeline_layout.h"
#include "memory/sampler.h"

namespace crashtest {

namespace {

// The payload's sections, each 8-aligned: bindings, records, immutable sampler copies, written marks.
struct PayloadLayout {
  size_t records, samplers, written, size;
};

PayloadLayout LayoutOf(uint32_t bindingCount, uint32_t recordCount, uint32_t samplerCount) {
  static_assert(alignof(Sampler) <= kRecordAlignment && alignof(DescriptorRecord) <= kRecordAlignment);
  PayloadLayout p{};
  p.records = AlignRecord(sizeof(PushedBinding) * bindingCount);
  p.samplers = p.records + AlignRecord(sizeof(DescriptorRecord) * recordCount);
  p.written = p.samplers + AlignRecord(sizeof(Sampler) * samplerCount);
  p.size = p.written + recordCount;
  return p;
}

// The element `i` of a VkWriteDescriptorSet, as FillDescriptorRecord reads it.
const void* WriteInfo(const VkWriteDescriptorSet& write, uint32_t i) {
  switch (write.descriptorType) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      return &write.pImageInfo[i];
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      return &write.pBufferInfo[i];
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return &write.pTexelBufferView[i];
    default:
      return nullptr;
  }
}

// One write (of VkWriteDescriptorSet or a template entry) in the terms both share.
struct Update {
  uint32_t binding, element, count;
  VkDescriptorType type;
};

// Visits the descriptors `update` writes, following "If the dstArrayElement + descriptorCount is greater than the
// number of descriptors in dstBinding ... the remaining descriptors [are updated in] subsequent bindings" (14.2.4,
// consecutive binding updates): visit(layout binding index, element, i). False (after the misuse is reported) when
// the update does not fit the layout.
template <typename Visit>
bool ForEachUpdated(CommandBuffer& commandBuffer, const char* command, const DescriptorSetLayout& layout,
                    const Update& update, Visit&& visit) {
  std::span<const DescriptorBinding> bindings = layout.bindings();
  const DescriptorBinding* start = layout.Find(update.binding);
  // VUID-VkWriteDescriptorSet-descriptorType-00319; push layouts hold no inline uniform blocks
  // (VUID-VkDescriptorSetLayoutCreateInfo-flags-02208).
  if (start == nullptr || start->type != update.type || IsInlineUniformBlock(update.type)) {
    commandBuffer.Misuse("%s: the push set layout has no binding %u of type %d (VUID-VkWriteDescriptorSet-"
                         "descriptorType-00319)", command, update.binding, update.type);
    return false;
  }
  size_t index = static_cast<size_t>(start - bindings.data());
  uint32_t element = update.element;
  for (uint32_t i = 0; i < update.count; ++i, ++element) {
    while (index < bindings.size() && element >= bindings[index].descriptorCount) {
      element -= bindings[index].descriptorCount;
      ++index;
    }
    if (index >= bindings.size() || bindings[index].type != update.type) {
      commandBuffer.Misuse("%s: descriptors %u.. of the write run past the consecutive bindings of type %d from "
                           "binding %u (VUID-VkWriteDescriptorSet-dstArrayElement-00321)", command, i, update.type,
                           update.binding);
      return false;
    }
    visit(index, element, i);
  }
  return true;
}

// The set layout the push writes: set `set` of `layout`, created with PUSH_DESCRIPTOR_BIT; nullptr (reported) if
// not.
const DescriptorSetLayout* PushLayout(CommandBuffer& commandBuffer, const char* command, VkPipelineLayout layout,
                                      uint32_t set) {
  const PipelineLayout* pipelineLayout = layout != VK_NULL_HANDLE ? FromHandle(layout) : nullptr;
  const DescriptorSetLayout* setLayout =
      pipelineLayout != nullptr && set < pipelineLayout->setLayouts().size() ? pipelineLayout->setLayouts()[set]
                                                                              : nullptr;
  if (setLayout == nullptr || (setLayout->flags() & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) == 0) {
    commandBuffer.Misuse("%s: set %u of the pipeline layout is not a push descriptor set layout "
                         "(VUID-vkCmdPushDescriptorSetKHR-set-00365)", command, set);
    return nullptr;
  }
  return setLayout;
}

// Checks every update (`updates(visitUpdate)` calls visitUpdate(update, info(i)) for each), then appends the record
// with the set's shape and the written descriptors.
template <typename ForEachUpdate>
void Capture(CommandBuffer& commandBuffer, CommandOp op, VkPipelineBindPoint bindPoint, uint32_t set,
             const DescriptorSetLayout& layout, ForEachUpdate&& updates) {
  const char* command = CommandName(op);
  bool valid = true;
  updates([&](const Update& update, auto&&) {
    valid = valid && ForEachUpdated(commandBuffer, command, layout, update, [](size_t, uint32_t, uint32_t) {});
  });
  if (!valid) return;

  std::span<const DescriptorBinding> bindings = layout.bindings();
  const uint32_t recordCount = layout.RecordCount(0);  // push layouts have no variable-count binding
  uint32_t samplerCount = 0;
  for (const DescriptorBinding& b : bindings)
    if (b.immutableSamplers != nullptr) samplerCount += b.descriptorCount;
  const PayloadLayout p = LayoutOf(static_cast<uint32_t>(bindings.size()), recordCount, samplerCount);
  auto* r = commandBuffer.Record<record::PushDescriptorSet>(op, p.size);
  if (r == nullptr) return;
  *r = {bindPoint, set, layout.header.id, static_cast<uint32_t>(bindings.size()), recordCount, samplerCount};
  std::byte* payload = PayloadOf<std::byte>(r);
  auto* pushed = reinterpret_cast<PushedBinding*>(payload);
  auto* records = reinterpret_cast<DescriptorRecord*>(payload + p.records);
  auto* samplers = reinterpret_cast<Sampler*>(payload + p.samplers);
  auto* written = reinterpret_cast<uint8_t*>(payload + p.written);
  // A pushed set starts empty, as a new descriptor set does (descriptor_set.cpp), with the layout's immutable
  // samplers copied: the layout may be destroyed before the command buffer executes. Sampler is trivially
  // destructible, so the copies need no destructor when the stream is freed.
  uint32_t nextSampler = 0;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const DescriptorBinding& b = bindings[i];
    pushed[i] = {b.binding, b.type, b.firstRecord, b.descriptorCount, b.immutableSamplers != nullptr ? 1u : 0u, 0};
    for (uint32_t e = 0; e < b.descriptorCount; ++e) {
      DescriptorRecord& record = records[b.firstRecord + e];
      record = DescriptorRecord{b.type, VK_IMAGE_LAYOUT_UNDEFINED, nullptr, nullptr, nullptr, nullptr, 0, 0};
      if (b.immutableSamplers != nullptr) record.sampler = new (&samplers[nextSampler++]) Sampler(b.immutableSamplers[e]);
    }
  }
  std::fill(written, written + recordCount, uint8_t{0});
  updates([&](const Update& update, auto&& info) {
    ForEachUpdated(commandBuffer, command, layout, update, [&](size_t index, uint32_t element, uint32_t i) {
      const DescriptorBinding& b = bindings[index];
      FillDescriptorRecord(records[b.firstRecord + element], b, info(i));
      written[b.firstRecord + element] = 1;
    });
  });
}

}  // namespace

const PushedBinding* PushedSetView::Find(uint32_t binding) const {
  auto it = std::lower_bound(bindings.begin(), bindings.end(), binding,
                             [](const PushedBinding& b, uint32_t n) { return b.binding < n; });
  return it != bindings.end() && it->binding == binding ? &*it : nullptr;
}

PushedSetView ViewPushedSet(const record::PushDescriptorSet& push) {
  const PayloadLayout p = LayoutOf(push.bindingCount, push.recordCount, push.samplerCount);
  const std::byte* payload = PayloadOf<std::byte>(&push);
  return {{reinterpret_cast<const PushedBinding*>(payload), push.bindingCount},
          {reinterpret_cast<const DescriptorRecord*>(payload + p.records), push.recordCount},
          {reinterpret_cast<const uint8_t*>(payload + p.written), push.recordCount}};
}

void RecordPushDescriptorSet(CommandBuffer& commandBuffer, VkPipelineBindPoint bindPoint, VkPipelineLayout layout,
                             uint32_t set, uint32_t writeCount, const VkWriteDescriptorSet* writes) {
  const DescriptorSetLayout* setLayout =
      PushLayout(commandBuffer, "vkCmdPushDescriptorSetKHR", layout, set);
  if (setLayout == nullptr) return;
  // "dstSet ... is ignored" for push descriptor writes (vkCmdPushDescriptorSetKHR).
  Capture(commandBuffer, CommandOp::PushDescriptorSetKHR, bindPoint, set, *setLayout, [&](auto&& visit) {
    for (uint32_t w = 0; w < writeCount; ++w) {
      const VkWriteDescriptorSet& write = writes[w];
      visit(Update{write.dstBinding, write.dstArrayElement, write.descriptorCount, write.descriptorType},
            [&](uint32_t i) { return WriteInfo(write, i); });
    }
  });
}

void RecordPushDescriptorSetWithTemplate(CommandBuffer& commandBuffer, VkDescriptorUpdateTemplate updateTemplate,
                                         VkPipelineLayout layout, uint32_t set, const void* data) {
  const DescriptorUpdateTemplate& t = *FromHandle(updateTemplate);
  if (t.templateType() != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR) {
    commandBuffer.Misuse("vkCmdPushDescriptorSetWithTemplateKHR: the template was not created with "
                         "VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR "
                         "(VUID-vkCmdPushDescriptorSetWithTemplateKHR-descriptorUpdateTemplate-07994)");
    return;
  }
  const DescriptorSetLayout* setLayout =
      PushLayout(commandBuffer, "vkCmdPushDescriptorSetWithTemplateKHR", layout, set);
  if (setLayout == nullptr) return;
  // Element i of an entry is at pData + offset + i * stride (VkDescriptorUpdateTemplateEntry).
  Capture(commandBuffer, CommandOp::PushDescriptorSetWithTemplateKHR, t.bindPoint(), set, *setLayout,
          [&](auto&& visit) {
            for (const VkDescriptorUpdateTemplateEntry& entry : t.entries()) {
              const auto* base = static_cast<const std::byte*>(data) + entry.offset;
              visit(Update{entry.dstBinding, entry.dstArrayElement, entry.descriptorCount, entry.descriptorType},
                    [=](uint32_t i) -> const void* { return base + static_cast<size_t>(i) * entry.stride; });
            }
          });
}

}  // namespace crashtest
