#include "queue/compute_dispatch.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "command/command_arena.h"
#include "common/log.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "execution/dispatch_context.h"
#include "execution/executable.h"
#include "execution/scheduler.h"
#include "fault/fault_engine.h"
#include "memory/device_memory.h"
#include "memory/memory_accounting.h"
#include "pipeline/pipeline.h"
#include "pipeline/spirv_tables.h"
#include "queue/device_execution.h"
#include "queue/queue.h"
#include "queue/sampling_bindings.h"
#include "statistics/shader_statistics.h"

namespace crashtest {

namespace {

bool IsDynamic(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

// Physical storage buffer addresses resolve to the device's live allocations.
class DeviceAddressMap final : public execution::AddressMap {
 public:
  explicit DeviceAddressMap(const Device& device) : device_(device) {}
  bool Find(uint64_t address, execution::AddressRange* out, bool* freed) const override {
    *freed = false;
    const DeviceMemory* memory = FindMemoryByAddress(device_, address);
    if (memory == nullptr) {
      // Not live, but inside an allocation freed (or a buffer destroyed) recently: a use after free.
      VkDeviceAddress base = 0;
      VkDeviceSize size = 0;
      if (memory_accounting::FindFreed(device_, address, &base, &size)) {
        *freed = true;
        *out = {nullptr, base, size};
      }
      return false;
    }
    if (memory->data() == nullptr) return false;
    *out = {memory->data(), memory->address(), memory->size()};
    return true;
  }

 private:
  const Device& device_;
};

}  // namespace

ComputeDispatcher::ComputeDispatcher(Queue& queue) : queue_(queue) {
  const uint32_t size = queue.device().physicalDevice().description().properties.limits.maxPushConstantsSize;
  pushConstants_.assign(std::max<uint32_t>(size, 128), std::byte{0});
  if (const StructBlob* blob =
          queue.device().FindEnabledFeatures(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT)) {
    const auto* features = static_cast<const VkPhysicalDeviceRobustness2FeaturesEXT*>(blob->data());
    robustBufferAccess2_ = features->robustBufferAccess2 == VK_TRUE;
    nullDescriptor_ = features->nullDescriptor == VK_TRUE;
  }
}

void ComputeDispatcher::Reset() {
  pipeline_ = nullptr;
  for (BoundSet& bound : sets_) bound = BoundSet{};
}

void ComputeDispatcher::BindPipeline(const record::BindPipeline& bind) {
  if (bind.bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) pipeline_ = FromHandle(bind.pipeline);
}

void ComputeDispatcher::BindDescriptorSets(const record::BindDescriptorSets& bind) {
  if (bind.bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) return;
  const VkDescriptorSet* handles = PayloadOf<VkDescriptorSet>(&bind);
  const uint32_t* offsets = reinterpret_cast<const uint32_t*>(handles + bind.setCount);
  uint32_t nextOffset = 0;
  for (uint32_t i = 0; i < bind.setCount && bind.firstSet + i < sets_.size(); ++i) {
    BoundSet& bound = sets_[bind.firstSet + i];
    bound.set = handles[i] != VK_NULL_HANDLE ? FromHandle(handles[i]) : nullptr;
    bound.dynamicOffsets.clear();
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

void ComputeDispatcher::PushConstants(const record::PushConstants& push) {
  if ((push.stages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) return;
  if (push.offset >= pushConstants_.size()) return;
  const size_t size = std::min<size_t>(push.size, pushConstants_.size() - push.offset);
  std::memcpy(pushConstants_.data() + push.offset, PayloadOf<std::byte>(&push), size);
}

bool ComputeDispatcher::Dispatch(const uint32_t base[3], const uint32_t groups[3], const std::string& where) {
  Device& device = queue_.device();
  if (pipeline_ == nullptr) {
    CT_ERROR("%s: no compute pipeline is bound (VUID-vkCmdDispatch-None-08606); the dispatch is skipped",
             where.c_str());
    return true;
  }
  const PipelineStage& stage = pipeline_->stages().front();
  if (stage.executable == nullptr) {
    // Once per pipeline: the interpreter does not run this shader yet.
    if (!warned_.insert(pipeline_).second) return true;
    CT_WARN("%s: the compute shader \"%s\" is not executed (the interpreter does not run %s yet); its dispatches "
            "are skipped", where.c_str(), stage.entryPoint.c_str(), stage.executableError.c_str());
    return true;
  }
  const execution::Executable& exe = *stage.executable;
  // "groupCountX must be less than or equal to VkPhysicalDeviceLimits::maxComputeWorkGroupCount[0]" (and Y, Z):
  // misuse a GPU would not survive either; the dispatch is skipped with the VUID rather than run for hours.
  const uint32_t* maxGroups = device.physicalDevice().description().properties.limits.maxComputeWorkGroupCount;
  for (int i = 0; i < 3; ++i)
    if (groups[i] > maxGroups[i]) {
      static const char* const kVuids[3] = {"VUID-vkCmdDispatch-groupCountX-00386",
                                            "VUID-vkCmdDispatch-groupCountY-00387",
                                            "VUID-vkCmdDispatch-groupCountZ-00388"};
      CT_ERROR("%s: %u workgroups in dimension %d exceed maxComputeWorkGroupCount[%d] = %u (%s); the dispatch is "
               "skipped",
               where.c_str(), groups[i], i, i, maxGroups[i], kVuids[i]);
      return true;
    }

  // Runtime-sized descriptor arrays: as many descriptors as the bound set has, placed after the fixed slots.
  std::vector<execution::SlotPatch> patches;
  std::vector<execution::BufferBinding> bufferBindings = exe.buffers;
  std::vector<execution::ImageBinding> imageBindings = exe.images;
  uint32_t bufferCount = exe.bufferSlots, imageCount = exe.imageSlots;
  auto runtimeCount = [&](uint32_t set, uint32_t binding) -> uint32_t {
    const BoundSet* bound = set < sets_.size() ? &sets_[set] : nullptr;
    if (bound == nullptr || bound->set == nullptr) return 0;
    const DescriptorBinding* layoutBinding = bound->set->layout().Find(binding);
    return layoutBinding != nullptr ? bound->set->BindingCount(*layoutBinding) : 0;
  };
  for (execution::BufferBinding& binding : bufferBindings) {
    if (binding.count != 0) continue;
    binding.firstSlot = bufferCount;
    binding.count = runtimeCount(binding.set, binding.binding);
    bufferCount += binding.count;
    patches.push_back({binding.pointerSlot, uint64_t{binding.firstSlot} << 40});
  }
  for (execution::ImageBinding& binding : imageBindings) {
    if (binding.count != 0) continue;
    binding.firstSlot = imageCount;
    binding.count = runtimeCount(binding.set, binding.binding);
    imageCount += binding.count;
    patches.push_back({binding.pointerSlot, binding.firstSlot});
  }

  // Flatten the bindings: slot 0 the push constants, then each buffer binding's descriptors.
  std::vector<execution::BufferRange> buffers(bufferCount);
  buffers[0] = {pushConstants_.data(), pushConstants_.size(), 0};
  for (const execution::BufferBinding& binding : bufferBindings) {
    const BoundSet* bound = binding.set < sets_.size() ? &sets_[binding.set] : nullptr;
    if (bound != nullptr && bound->set != nullptr) {
      const DescriptorBinding* layoutBinding = bound->set->layout().Find(binding.binding);
      if (layoutBinding != nullptr && IsInlineUniformBlock(layoutBinding->type)) {
        // An inline uniform block: the bytes live in the set itself. Uniform blocks are never written by shaders,
        // so handing the interpreter a mutable pointer to them is safe.
        std::span<const std::byte> bytes = bound->set->inlineData().subspan(layoutBinding->inlineOffset);
        buffers[binding.firstSlot] = {const_cast<std::byte*>(bytes.data()),
                                      std::min<uint64_t>(bound->set->BindingCount(*layoutBinding), bytes.size()), 0};
        continue;
      }
    }
    for (uint32_t e = 0; e < binding.count; ++e) {
      execution::BufferRange& range = buffers[binding.firstSlot + e];
      if (bound == nullptr || bound->set == nullptr) continue;
      const DescriptorRecord* record = bound->set->Find(binding.binding, e);
      if (record != nullptr && record->buffer == nullptr && nullDescriptor_) {
        range.null = true;  // written as VK_NULL_HANDLE: defined, not a fault
        continue;
      }
      if (record == nullptr || record->buffer == nullptr || record->buffer->data() == nullptr) continue;
      VkDeviceSize offset = record->offset;
      if (IsDynamic(record->type)) {
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
  std::vector<sampling::ImageTableEntry> images(imageCount);
  std::string unsupported;
  const float maxLodBias = device.physicalDevice().description().properties.limits.maxSamplerLodBias;
  for (const execution::ImageBinding& binding : imageBindings) {
    const BoundSet* bound = binding.set < sets_.size() ? &sets_[binding.set] : nullptr;
    if (bound == nullptr || bound->set == nullptr) continue;
    for (uint32_t e = 0; e < binding.count; ++e) {
      const DescriptorRecord* record = bound->set->Find(binding.binding, e);
      if (record == nullptr) continue;
      sampling::ImageTableEntry& entry = images[binding.firstSlot + e];
      if (record->sampler != nullptr) entry.sampler = DescribeSampler(*record->sampler, maxLodBias);
      if (record->imageView != nullptr) entry.image = DescribeImageView(*record->imageView, &unsupported);
      if (record->texelBufferView != nullptr) entry.image = DescribeBufferView(*record->texelBufferView, &unsupported);
    }
  }
  if (!unsupported.empty()) {
    // Skipped rather than run with zeros in place of texels the engine cannot decode.
    if (warned_.insert(pipeline_).second)
      CT_WARN("%s: the compute shader \"%s\" is not executed (the interpreter does not read %s yet); its dispatches "
              "are skipped", where.c_str(), stage.entryPoint.c_str(), unsupported.c_str());
    return true;
  }

  DeviceAddressMap addresses(device);
  execution::DispatchContext context;
  context.exe = &exe;
  context.buffers = buffers.data();
  context.addresses = &addresses;
  context.bufferCount = bufferCount;
  context.images = images.data();
  context.imageCount = imageCount;
  context.patches = patches.data();
  context.patchCount = static_cast<uint32_t>(patches.size());
  const ExecutionOptions& options = device.physicalDevice().instance().executionOptions();
  context.outOfRange = device.enabledFeatures().robustBufferAccess || robustBufferAccess2_
                           ? execution::OutOfRangeMode::Robust
                       : options.shaderFaults == ShaderFaultMode::Masked ? execution::OutOfRangeMode::Masked
                       : options.shaderFaults == ShaderFaultMode::Off    ? execution::OutOfRangeMode::Robust
                                                                         : execution::OutOfRangeMode::Fault;
  context.width = stage.subgroupSize;
  for (int i = 0; i < 3; ++i) context.base[i] = base[i], context.groups[i] = groups[i];
  context.instructionBudget = options.shaderInstructionBudget;
  if (options.shaderTimeoutMs != 0)
    context.deadlineNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count() +
                         static_cast<int64_t>(options.shaderTimeoutMs) * 1000000;

  DeviceExecution& execution = queue_.execution();
  const execution::DispatchOutcome outcome =
      execution::RunDispatch(context, execution.computePool(options.computeThreads), execution.lostFlag());
  if (outcome.fault.kind == execution::ShaderFaultKind::None) return true;
  return RaiseFault(outcome.fault, stage, where);
}

bool ComputeDispatcher::RaiseFault(const execution::ShaderFault& fault, const PipelineStage& stage,
                                   const std::string& where) {
  Device& device = queue_.device();
  const execution::Executable& exe = *stage.executable;
  const execution::Site site = fault.op < exe.ops.size() && exe.ops[fault.op].site < exe.sites.size()
                                   ? exe.sites[exe.ops[fault.op].site]
                                   : execution::Site{};
  const std::string name = queue_.execution().names().Get(reinterpret_cast<uint64_t>(ToHandle(pipeline_)));
  const MachineModel& model = device.physicalDevice().description().machine;
  const uint64_t hash = statistics::ComputeStatistics(*stage.shader, model, stage.stage, stage.subgroupSize).hash;

  PlannedFault planned;
  planned.id = fault.kind == execution::ShaderFaultKind::Timeout ? "shader-timeout" : "shader-fault";
  const bool masked = fault.kind != execution::ShaderFaultKind::Timeout &&
                      device.physicalDevice().instance().executionOptions().shaderFaults == ShaderFaultMode::Masked;
  planned.effect = fault.kind == execution::ShaderFaultKind::Timeout ? FaultEffect::Hang
                   : masked                                          ? FaultEffect::Masked
                                                                     : FaultEffect::DeviceLost;
  const char* what = fault.kind == execution::ShaderFaultKind::ReadInvalid    ? "out-of-bounds read"
                     : fault.kind == execution::ShaderFaultKind::WriteInvalid ? "out-of-bounds write"
                                                                              : "shader ran past its time budget";
  char text[512];
  std::string pipelineName = name.empty() ? std::string() : "\"" + name + "\" ";
  if (fault.kind == execution::ShaderFaultKind::Timeout) {
    std::snprintf(text, sizeof text, "%s: pipeline %s(shader hash %016" PRIx64 "), entry point \"%s\"", what,
                  pipelineName.c_str(), hash, stage.entryPoint.c_str());
  } else {
    const std::string instruction = site.spirvId != 0 ? "SPIR-V %" + std::to_string(site.spirvId) + " (" +
                                                            spirv::OpcodeName(site.spirvOp) + ")"
                                                      : std::string("SPIR-V ") + spirv::OpcodeName(site.spirvOp);
    std::string source;
    if (site.line != 0) {
      const std::string& file = site.file < exe.sourceFiles.size() ? exe.sourceFiles[site.file] : std::string();
      const std::string base = file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
      source = " at " + (base.empty() ? std::string("line ") : base + ":") + std::to_string(site.line);
    }
    std::snprintf(text, sizeof text,
                  "%s at 0x%" PRIx64 "%s%s: pipeline %s(shader hash %016" PRIx64 "), entry point \"%s\", %s, "
                  "workgroup (%u,%u,%u), invocation %u",
                  what, fault.address, fault.freed ? " (freed memory)" : "", source.c_str(), pipelineName.c_str(), hash,
                  stage.entryPoint.c_str(), instruction.c_str(), fault.workgroup[0], fault.workgroup[1],
                  fault.workgroup[2], fault.localIndex);
    planned.report.address = FaultAddress{fault.kind == execution::ShaderFaultKind::ReadInvalid
                                              ? VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_KHR
                                              : VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_KHR,
                                          fault.address, 1};
  }
  planned.report.description = text;
  CT_WARN("%s: %s", where.c_str(), text);
  // The instruction pointer is the operation's index in the executable form (docs/execution.md).
  planned.report.instruction = FaultAddress{VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_KHR, fault.op, 1};
  const VkResult result = device.faults().Inject(planned, ("at " + where).c_str());
  return result == VK_SUCCESS;
}

}  // namespace crashtest
