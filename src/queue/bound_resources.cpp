#include "queue/bound_resources.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "command/command_arena.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "execution/executable.h"
#include "queue/descriptor_set_liveness.h"
#include "queue/queue.h"
#include "queue/resource_liveness.h"
#include "queue/sampling_bindings.h"

namespace crashtest {

namespace {

bool IsDynamic(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

}  // namespace

void FlatBindings::Apply(execution::DispatchContext& context) const {
  context.buffers = buffers.data();
  context.bufferCount = static_cast<uint32_t>(buffers.size());
  context.images = images.data();
  context.imageCount = static_cast<uint32_t>(images.size());
  context.patches = patches.data();
  context.patchCount = static_cast<uint32_t>(patches.size());
}

BoundResources::BoundResources(Queue& queue, VkPipelineBindPoint bindPoint, VkShaderStageFlags stages)
    : queue_(queue), bindPoint_(bindPoint), stages_(stages) {
  const uint32_t size = queue.device().physicalDevice().description().properties.limits.maxPushConstantsSize;
  pushConstants_.assign(std::max<uint32_t>(size, 128), std::byte{0});
  if (const StructBlob* blob =
          queue.device().FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT)) {
    const auto* features = static_cast<const VkPhysicalDeviceRobustness2FeaturesEXT*>(blob->data());
    robustBufferAccess2_ = features->robustBufferAccess2 == VK_TRUE;
    nullDescriptor_ = features->nullDescriptor == VK_TRUE;
  }
}

uint32_t BoundResources::BoundSet::Count(uint32_t binding) const {
  if (set != nullptr) {
    const DescriptorBinding* b = set->layout().Find(binding);
    return b != nullptr ? set->BindingCount(*b) : 0;
  }
  const PushedBinding* b = pushed ? PushedSetView{pushBindings, {}, {}}.Find(binding) : nullptr;
  return b != nullptr ? b->count : 0;
}

const DescriptorRecord* BoundResources::BoundSet::Find(uint32_t binding, uint32_t element) const {
  if (set != nullptr) return set->Find(binding, element);
  const PushedBinding* b = pushed ? PushedSetView{pushBindings, {}, {}}.Find(binding) : nullptr;
  return b != nullptr && element < b->count && b->firstRecord + element < pushRecords.size()
             ? &pushRecords[b->firstRecord + element]
             : nullptr;
}

bool BoundResources::BoundSet::ImmutableSamplers(uint32_t binding) const {
  if (set != nullptr) {
    const DescriptorBinding* b = set->layout().Find(binding);
    return b != nullptr && b->immutableSamplers != nullptr;
  }
  const PushedBinding* b = pushed ? PushedSetView{pushBindings, {}, {}}.Find(binding) : nullptr;
  return b != nullptr && b->immutableSamplers != 0;
}

void BoundResources::Reset() {
  for (BoundSet& bound : sets_) bound = BoundSet{};
}

void BoundResources::PushDescriptorSet(const record::PushDescriptorSet& push) {
  if (push.bindPoint != bindPoint_ || push.set >= sets_.size()) return;
  BoundSet& bound = sets_[push.set];
  const PushedSetView view = ViewPushedSet(push);
  // "Push descriptors can be updated incrementally and cause shaders to use the updated descriptors ... until the
  // descriptor is overwritten, or else until the set is disturbed" (vkCmdPushDescriptorSetKHR).
  const bool incremental = bound.pushed && bound.pushLayoutId == push.layoutId &&
                           bound.pushRecords.size() == view.records.size();
  bound.set = nullptr;
  bound.dynamicOffsets.clear();
  bound.pushed = true;
  bound.pushLayoutId = push.layoutId;
  bound.pushBindings = view.bindings;
  if (!incremental) {
    bound.pushRecords.assign(view.records.begin(), view.records.end());
    return;
  }
  for (size_t i = 0; i < view.records.size(); ++i)
    if (view.written[i] != 0) bound.pushRecords[i] = view.records[i];
}

void BoundResources::BindDescriptorSets(const record::BindDescriptorSets& bind) {
  if (bind.bindPoint != bindPoint_) return;
  const auto* refs = PayloadOf<record::DescriptorSetRef>(&bind);
  const uint32_t* offsets = reinterpret_cast<const uint32_t*>(refs + bind.setCount);
  uint32_t nextOffset = 0;
  for (uint32_t i = 0; i < bind.setCount && bind.firstSet + i < sets_.size(); ++i) {
    BoundSet& bound = sets_[bind.firstSet + i];
    bound.set = refs[i].set;
    bound.ref = refs[i];
    bound.dynamicOffsets.clear();
    // A descriptor set bound at a push set's number replaces the pushed descriptors; a later push starts afresh.
    bound.pushed = false;
    bound.pushRecords.clear();
    if (bound.set == nullptr) continue;
    // "Each element of pDynamicOffsets which corresponds to a descriptor binding with type ..._DYNAMIC ... in the
    // order of the descriptor set bindings, and array elements within a binding" (vkCmdBindDescriptorSets).
    for (const DescriptorBinding& binding : bound.set->layout().bindings()) {
      if (!IsDynamic(binding.type)) continue;
      for (uint32_t e = 0; e < binding.descriptorCount && nextOffset < bind.dynamicOffsetCount; ++e)
        bound.dynamicOffsets.push_back(offsets[nextOffset++]);
    }
  }
}

void BoundResources::PushConstants(const record::PushConstants& push) {
  if ((push.stages & stages_) == 0) return;
  if (push.offset >= pushConstants_.size()) return;
  const size_t size = std::min<size_t>(push.size, pushConstants_.size() - push.offset);
  std::memcpy(pushConstants_.data() + push.offset, PayloadOf<std::byte>(&push), size);
}

execution::OutOfRangeMode BoundResources::OutOfRange() const {
  const Device& device = queue_.device();
  const ExecutionOptions& options = device.physicalDevice().instance().executionOptions();
  return device.enabledFeatures().robustBufferAccess || robustBufferAccess2_ ? execution::OutOfRangeMode::Robust
         : options.shaderFaults == ShaderFaultMode::Masked                   ? execution::OutOfRangeMode::Masked
         : options.shaderFaults == ShaderFaultMode::Off                      ? execution::OutOfRangeMode::Robust
                                                                             : execution::OutOfRangeMode::Fault;
}

BoundResources::FlattenResult BoundResources::Flatten(const execution::Executable& exe, const std::string& where,
                                                      FlatBindings* out, std::string* unsupported) const {
  const Device& device = queue_.device();
  // The sets the shader reads: still live (else the fault), and locked until they have been read.
  DescriptorSetLocks locks(queue_);
  auto setLive = [&](uint32_t set) {
    return set >= sets_.size() || locks.Acquire(sets_[set].ref);
  };
  for (const execution::BufferBinding& binding : exe.buffers)
    if (!setLive(binding.set)) [[unlikely]] {
      locks.RaiseFault(where);
      return FlattenResult::kUseAfterFree;
    }
  for (const execution::ImageBinding& binding : exe.images)
    if (!setLive(binding.set)) [[unlikely]] {
      locks.RaiseFault(where);
      return FlattenResult::kUseAfterFree;
    }
  // Runtime-sized descriptor arrays: as many descriptors as the bound set has, placed after the fixed slots.
  out->patches.clear();
  out->inlineBlocks.clear();
  std::vector<execution::BufferBinding> bufferBindings = exe.buffers;
  std::vector<execution::ImageBinding> imageBindings = exe.images;
  uint32_t bufferCount = exe.bufferSlots, imageCount = exe.imageSlots;
  auto runtimeCount = [&](uint32_t set, uint32_t binding) -> uint32_t {
    const BoundSet* bound = set < sets_.size() ? &sets_[set] : nullptr;
    return bound != nullptr && bound->Bound() ? bound->Count(binding) : 0;
  };
  for (execution::BufferBinding& binding : bufferBindings) {
    if (binding.count != 0) continue;
    binding.firstSlot = bufferCount;
    binding.count = runtimeCount(binding.set, binding.binding);
    bufferCount += binding.count;
    out->patches.push_back({binding.pointerSlot, uint64_t{binding.firstSlot} << 40});
  }
  for (execution::ImageBinding& binding : imageBindings) {
    if (binding.count != 0) continue;
    binding.firstSlot = imageCount;
    binding.count = runtimeCount(binding.set, binding.binding);
    imageCount += binding.count;
    out->patches.push_back({binding.pointerSlot, binding.firstSlot});
  }

  // Flatten the bindings: slot 0 the push constants, then each buffer binding's descriptors.
  std::vector<execution::BufferRange>& buffers = out->buffers;
  buffers.assign(std::max(bufferCount, 1u), execution::BufferRange{});
  buffers[0] = {const_cast<std::byte*>(pushConstants_.data()), pushConstants_.size(), 0};
  for (const execution::BufferBinding& binding : bufferBindings) {
    const BoundSet* bound = binding.set < sets_.size() ? &sets_[binding.set] : nullptr;
    if (bound != nullptr && bound->set != nullptr) {
      const DescriptorBinding* layoutBinding = bound->set->layout().Find(binding.binding);
      if (layoutBinding != nullptr && IsInlineUniformBlock(layoutBinding->type)) {
        // An inline uniform block: the bytes live in the set itself. Uniform blocks are never written by shaders,
        // so handing the interpreter a mutable pointer to them is safe.
        std::span<const std::byte> bytes = bound->set->inlineData().subspan(layoutBinding->inlineOffset);
        bytes = bytes.first(std::min<size_t>(bound->set->BindingCount(*layoutBinding), bytes.size()));
        std::vector<std::byte>& copy = out->inlineBlocks.emplace_back(bytes.begin(), bytes.end());
        buffers[binding.firstSlot] = {copy.data(), copy.size(), 0};
        continue;
      }
    }
    for (uint32_t e = 0; e < binding.count; ++e) {
      execution::BufferRange& range = buffers[binding.firstSlot + e];
      if (bound == nullptr || !bound->Bound()) continue;
      const DescriptorRecord* record = bound->Find(binding.binding, e);
      if (record != nullptr && record->buffer == nullptr && nullDescriptor_) {
        range.null = true;  // written as VK_NULL_HANDLE: defined, not a fault
        continue;
      }
      if (record == nullptr || record->buffer == nullptr) continue;
      // Storage buffers may be written; the descriptor is read first either way.
      if (!BufferLive(queue_, record->buffer, ResourceAccess::Read, where)) [[unlikely]]
        return FlattenResult::kUseAfterFree;
      if (record->buffer->data() == nullptr) continue;
      VkDeviceSize offset = record->offset;
      if (IsDynamic(record->type) && bound->set != nullptr) {  // push layouts have no dynamic buffers
        // The dynamic offset of this element: count the dynamic elements before it in binding order.
        uint32_t index = 0;
        for (const DescriptorBinding& b : bound->set->layout().bindings()) {
          if (b.binding == binding.binding) break;
          if (IsDynamic(b.type)) index += b.descriptorCount;
        }
        index += e;
        if (index < bound->dynamicOffsets.size()) offset += bound->dynamicOffsets[index];
      }
      const Buffer& buffer = *record->buffer;
      // The range never reaches past the buffer, whatever the descriptor says: the host memory stays safe.
      const VkDeviceSize size = offset < buffer.size() ? std::min(record->range, buffer.size() - offset) : 0;
      range = {buffer.data() + offset, size, buffer.address() + offset};
    }
  }

  // The image table: images, samplers and texel buffers, one entry per descriptor the shader declares.
  std::vector<sampling::ImageTableEntry>& images = out->images;
  images.assign(imageCount, sampling::ImageTableEntry{});
  const float maxLodBias = device.physicalDevice().description().properties.limits.maxSamplerLodBias;
  std::string missing;
  for (const execution::ImageBinding& binding : imageBindings) {
    const BoundSet* bound = binding.set < sets_.size() ? &sets_[binding.set] : nullptr;
    if (bound == nullptr || !bound->Bound()) continue;
    // Immutable samplers are the layout's own copies, alive as long as the set (or the push record's copies, as
    // long as the stream): not application objects.
    const bool immutableSamplers = bound->ImmutableSamplers(binding.binding);
    for (uint32_t e = 0; e < binding.count; ++e) {
      const DescriptorRecord* record = bound->Find(binding.binding, e);
      if (record == nullptr) continue;
      if ((!immutableSamplers && !SamplerLive(queue_, record->sampler, where)) ||
          !ImageViewLive(queue_, record->imageView, ResourceAccess::Read, where) ||
          !BufferViewLive(queue_, record->texelBufferView, ResourceAccess::Read, where)) [[unlikely]]
        return FlattenResult::kUseAfterFree;
      sampling::ImageTableEntry& entry = images[binding.firstSlot + e];
      if (record->sampler != nullptr) entry.sampler = DescribeSampler(*record->sampler, maxLodBias);
      if (record->imageView != nullptr) entry.image = DescribeImageView(*record->imageView, &missing);
      if (record->texelBufferView != nullptr) entry.image = DescribeBufferView(*record->texelBufferView, &missing);
    }
  }
  if (!missing.empty()) {
    *unsupported = missing;
    return FlattenResult::kUnsupported;
  }
  return FlattenResult::kReady;
}

}  // namespace crashtest
