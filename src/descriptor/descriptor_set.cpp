#include "descriptor/descriptor_set.h"

#include <algorithm>
#include <cstring>

#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/resources.h"
#include "memory/sampler.h"
#include "memory/views.h"

namespace crashtest {

namespace {

bool UsesImageInfo(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      return true;
    default:
      return false;
  }
}

bool UsesBufferInfo(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
         type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

bool UsesTexelBufferView(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

// Fills `record` from one element of a write. `info` points at a VkDescriptorImageInfo, VkDescriptorBufferInfo or
// VkBufferView according to the type. Immutable samplers stay.
void FillRecord(DescriptorRecord& record, const DescriptorBinding& binding, const void* info) {
  VkDescriptorType type = binding.type;
  if (UsesImageInfo(type)) {
    const auto& image = *static_cast<const VkDescriptorImageInfo*>(info);
    if (type != VK_DESCRIPTOR_TYPE_SAMPLER) {
      record.imageView = FromHandle(image.imageView);
      record.imageLayout = image.imageLayout;
    }
    bool takesSampler = type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    if (takesSampler && binding.immutableSamplers == nullptr) record.sampler = FromHandle(image.sampler);
  } else if (UsesBufferInfo(type)) {
    const auto& buffer = *static_cast<const VkDescriptorBufferInfo*>(info);
    record.buffer = FromHandle(buffer.buffer);  // VK_NULL_HANDLE allowed with nullDescriptor
    record.offset = buffer.offset;
    // "VK_WHOLE_SIZE ... the range from offset to the end of the buffer" (VkDescriptorBufferInfo).
    record.range = buffer.range == VK_WHOLE_SIZE && record.buffer != nullptr ? record.buffer->size() - buffer.offset
                                                                             : buffer.range;
  } else if (UsesTexelBufferView(type)) {
    record.texelBufferView = FromHandle(*static_cast<const VkBufferView*>(info));
  }
}

}  // namespace

DescriptorSet::DescriptorSet(DescriptorPool& pool, DescriptorSetLayout& layout, std::span<DescriptorRecord> records,
                             uint32_t firstRecord, uint32_t variableCount)
    : Object(VK_OBJECT_TYPE_DESCRIPTOR_SET),
      pool_(pool),
      layout_(layout),
      records_(records),
      firstRecord_(firstRecord),
      variableCount_(variableCount),
      inlineData_(layout.InlineBytes(variableCount)) {
  // A new set's descriptors are undefined; crashtest makes them empty, with the binding's type and its immutable
  // samplers.
  for (const DescriptorBinding& binding : layout.bindings()) {
    if (IsInlineUniformBlock(binding.type)) continue;
    const uint32_t count = BindingCount(binding);
    for (uint32_t i = 0; i < count; ++i) {
      DescriptorRecord& record = records_[binding.firstRecord + i];
      record = DescriptorRecord{binding.type, VK_IMAGE_LAYOUT_UNDEFINED, nullptr, nullptr, nullptr, nullptr, 0, 0};
      if (binding.immutableSamplers != nullptr) record.sampler = &binding.immutableSamplers[i];
    }
  }
}

DescriptorSet::~DescriptorSet() = default;

uint32_t DescriptorSet::BindingCount(const DescriptorBinding& binding) const {
  return &binding == layout_.variableBinding() ? variableCount_ : binding.descriptorCount;
}

const DescriptorRecord* DescriptorSet::Find(uint32_t binding, uint32_t arrayElement) const {
  const DescriptorBinding* b = layout_.Find(binding);
  if (b == nullptr || IsInlineUniformBlock(b->type) || arrayElement >= BindingCount(*b)) return nullptr;
  return &records_[b->firstRecord + arrayElement];
}

// "If the dstArrayElement + descriptorCount is greater than the number of descriptors in dstBinding ... the
// remaining descriptors [are updated in] subsequent bindings starting with array element zero ... bindings with a
// descriptorCount of zero are skipped" (Vulkan 1.3, 14.2.4 "Descriptor Set Updates", consecutive binding updates).
template <typename Visit>
VkResult DescriptorSet::ForEachDescriptor(const char* command, uint32_t binding, uint32_t element, uint32_t count,
                                          Visit&& visit) {
  std::span<const DescriptorBinding> bindings = layout_.bindings();
  const DescriptorBinding* start = layout_.Find(binding);
  if (start == nullptr)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: set %llu has no binding %u", command,
                       static_cast<unsigned long long>(header.id), binding);
  size_t index = static_cast<size_t>(start - bindings.data());
  for (uint32_t i = 0; i < count; ++i, ++element) {
    while (index < bindings.size() && element >= BindingCount(bindings[index])) {
      element -= BindingCount(bindings[index]);
      ++index;
    }
    if (index >= bindings.size() || bindings[index].type != start->type)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                         "%s: descriptors %u.. of the update run past the consecutive bindings of type %d from binding "
                         "%u of set %llu (VUID-VkWriteDescriptorSet-dstArrayElement-00321)",
                         command, i, start->type, binding, static_cast<unsigned long long>(header.id));
    visit(bindings[index], records_[bindings[index].firstRecord + element], i);
  }
  return VK_SUCCESS;
}

VkResult DescriptorSet::WriteInline(const char* command, uint32_t binding, uint32_t byteOffset, uint32_t size,
                                    const void* data) {
  const DescriptorBinding* b = layout_.Find(binding);
  // VUID-VkWriteDescriptorSet-descriptorType-02220: offset and size are multiples of 4 and within the binding.
  if (b == nullptr || !IsInlineUniformBlock(b->type) || byteOffset > BindingCount(*b) ||
      size > BindingCount(*b) - byteOffset)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: inline uniform bytes [%u, %u) are outside binding %u of set %llu", command, byteOffset,
                       byteOffset + size, binding, static_cast<unsigned long long>(header.id));
  if (size != 0) std::memcpy(inlineData_.data() + b->inlineOffset + byteOffset, data, size);
  return VK_SUCCESS;
}

VkResult DescriptorSet::Write(const VkWriteDescriptorSet& write) {
  const char* command = "vkUpdateDescriptorSets";
  const DescriptorBinding* binding = layout_.Find(write.dstBinding);
  // VUID-VkWriteDescriptorSet-descriptorType-00319: the type must match the binding's.
  if (binding == nullptr || binding->type != write.descriptorType)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: binding %u of set %llu does not exist or is not of type %d "
                       "(VUID-VkWriteDescriptorSet-descriptorType-00319)",
                       command, write.dstBinding, static_cast<unsigned long long>(header.id), write.descriptorType);
  if (IsInlineUniformBlock(write.descriptorType)) {
    // "dstArrayElement ... specifies the starting byte offset ... descriptorCount ... the number of bytes".
    const auto* block = FindInChain<VkWriteDescriptorSetInlineUniformBlock>(write.pNext);
    if (block == nullptr)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: inline uniform block write without "
                         "VkWriteDescriptorSetInlineUniformBlock (VUID-VkWriteDescriptorSet-descriptorType-02221)",
                         command);
    return WriteInline(command, write.dstBinding, write.dstArrayElement, block->dataSize, block->pData);
  }
  return ForEachDescriptor(command, write.dstBinding, write.dstArrayElement, write.descriptorCount,
                           [&](const DescriptorBinding& b, DescriptorRecord& record, uint32_t i) {
                             const void* info = nullptr;
                             if (UsesImageInfo(b.type)) info = &write.pImageInfo[i];
                             else if (UsesBufferInfo(b.type)) info = &write.pBufferInfo[i];
                             else if (UsesTexelBufferView(b.type)) info = &write.pTexelBufferView[i];
                             if (info != nullptr) FillRecord(record, b, info);
                           });
}

VkResult DescriptorSet::WriteFromTemplate(const VkDescriptorUpdateTemplateEntry& entry, const void* data) {
  const char* command = "vkUpdateDescriptorSetWithTemplate";
  const auto* base = static_cast<const std::byte*>(data) + entry.offset;
  const DescriptorBinding* binding = layout_.Find(entry.dstBinding);
  if (binding == nullptr || binding->type != entry.descriptorType)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: binding %u of set %llu does not exist or is not of type %d",
                       command, entry.dstBinding, static_cast<unsigned long long>(header.id), entry.descriptorType);
  // "If descriptorType is VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ... the data ... is a contiguous block of
  // descriptorCount bytes at offset; stride is ignored" (VkDescriptorUpdateTemplateEntry).
  if (IsInlineUniformBlock(entry.descriptorType))
    return WriteInline(command, entry.dstBinding, entry.dstArrayElement, entry.descriptorCount, base);
  return ForEachDescriptor(command, entry.dstBinding, entry.dstArrayElement, entry.descriptorCount,
                           [&](const DescriptorBinding& b, DescriptorRecord& record, uint32_t i) {
                             FillRecord(record, b, base + static_cast<size_t>(i) * entry.stride);
                           });
}

VkResult DescriptorSet::Copy(const VkCopyDescriptorSet& copy) {
  const char* command = "vkUpdateDescriptorSets (copy)";
  DescriptorSet& source = *FromHandle(copy.srcSet);
  const DescriptorBinding* srcBinding = source.layout_.Find(copy.srcBinding);
  const DescriptorBinding* dstBinding = layout_.Find(copy.dstBinding);
  // VUID-VkCopyDescriptorSet-dstBinding-02632: the two bindings have the same type.
  if (srcBinding == nullptr || dstBinding == nullptr || srcBinding->type != dstBinding->type)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: binding %u of set %llu and binding %u of set %llu do not "
                       "both exist with the same type (VUID-VkCopyDescriptorSet-dstBinding-02632)",
                       command, copy.srcBinding, static_cast<unsigned long long>(source.header.id), copy.dstBinding,
                       static_cast<unsigned long long>(header.id));
  if (IsInlineUniformBlock(srcBinding->type)) {
    // Byte offsets and a byte count, as for writes (VUID-VkCopyDescriptorSet-srcBinding-02223).
    if (copy.srcArrayElement > source.BindingCount(*srcBinding) ||
        copy.descriptorCount > source.BindingCount(*srcBinding) - copy.srcArrayElement)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "%s: source inline bytes out of range", command);
    // The source bytes are copied out first: source and destination may be the same set and overlap.
    std::vector<std::byte> bytes(source.inlineData_.begin() + srcBinding->inlineOffset + copy.srcArrayElement,
                                 source.inlineData_.begin() + srcBinding->inlineOffset + copy.srcArrayElement +
                                     copy.descriptorCount);
    return WriteInline(command, copy.dstBinding, copy.dstArrayElement, copy.descriptorCount, bytes.data());
  }
  // Gather the source records first (the same set may be both source and destination), walking the source's
  // consecutive bindings exactly as the destination's.
  std::vector<DescriptorRecord> records;
  records.reserve(copy.descriptorCount);
  VkResult result = source.ForEachDescriptor(command, copy.srcBinding, copy.srcArrayElement, copy.descriptorCount,
                                             [&](const DescriptorBinding&, DescriptorRecord& record, uint32_t) {
                                               records.push_back(record);
                                             });
  if (result != VK_SUCCESS) return result;
  return ForEachDescriptor(command, copy.dstBinding, copy.dstArrayElement, copy.descriptorCount,
                           [&](const DescriptorBinding& b, DescriptorRecord& record, uint32_t i) {
                             const Sampler* immutable = record.sampler;
                             record = records[i];
                             if (b.immutableSamplers != nullptr) record.sampler = immutable;
                           });
}

void FillDescriptorRecord(DescriptorRecord& record, const DescriptorBinding& binding, const void* info) {
  FillRecord(record, binding, info);
}

}  // namespace crashtest
