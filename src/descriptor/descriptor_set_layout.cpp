#include "descriptor/descriptor_set_layout.h"

#include <algorithm>
#include <cstring>

#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"

namespace crashtest {

namespace {

bool UsesImmutableSamplers(const VkDescriptorSetLayoutBinding& binding) {
  return binding.pImmutableSamplers != nullptr && (binding.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
                                                   binding.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
}

VkDescriptorBindingFlags BindingFlags(const VkDescriptorSetLayoutCreateInfo& info, uint32_t index) {
  const auto* flags = FindInChain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(info.pNext);
  return flags != nullptr && index < flags->bindingCount ? flags->pBindingFlags[index] : 0;
}

bool IsDynamicBuffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

// Update-after-bind bindings: descriptors are read when the work executes, so any binding may be updated after
// binding; only the layout rules are checked.
VkResult CheckUpdateAfterBind(const VkDescriptorSetLayoutCreateInfo& info) {
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    if ((BindingFlags(info, i) & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) == 0) continue;
    // VUID-VkDescriptorSetLayoutCreateInfo-flags-03000: "If any binding has the
    // VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT bit set, flags must include
    // VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT".
    if ((info.flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) == 0)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                         "vkCreateDescriptorSetLayout: binding %u is UPDATE_AFTER_BIND but the layout's flags lack "
                         "UPDATE_AFTER_BIND_POOL (VUID-VkDescriptorSetLayoutCreateInfo-flags-03000)",
                         info.pBindings[i].binding);
    // VUID-VkDescriptorSetLayoutCreateInfo-descriptorType-03001: with an update-after-bind binding, no binding may be
    // a dynamic uniform or storage buffer.
    for (uint32_t j = 0; j < info.bindingCount; ++j)
      if (IsDynamicBuffer(info.pBindings[j].descriptorType))
        return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                           "vkCreateDescriptorSetLayout: binding %u is UPDATE_AFTER_BIND and binding %u is a dynamic "
                           "buffer (VUID-VkDescriptorSetLayoutCreateInfo-descriptorType-03001)",
                           info.pBindings[i].binding, info.pBindings[j].binding);
  }
  return VK_SUCCESS;
}

// Push descriptor layouts (VK_KHR_push_descriptor): no dynamic buffers (VUID-VkDescriptorSetLayoutCreateInfo-
// flags-00280), no inline uniform blocks (-flags-02208), at most maxPushDescriptors descriptors (-flags-00281).
VkResult CheckPushDescriptorLayout(const Device& device, const VkDescriptorSetLayoutCreateInfo& info) {
  if ((info.flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) == 0) return VK_SUCCESS;
  uint64_t total = 0;
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    const VkDescriptorType type = info.pBindings[i].descriptorType;
    if (IsDynamicBuffer(type) || type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                         "vkCreateDescriptorSetLayout: binding %u of a push descriptor layout has type %d "
                         "(VUID-VkDescriptorSetLayoutCreateInfo-flags-00280, -flags-02208)",
                         info.pBindings[i].binding, type);
    total += info.pBindings[i].descriptorCount;
  }
  const StructBlob* blob = device.physicalDevice().description().FindProperties(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR);
  const uint32_t limit =
      blob != nullptr ? static_cast<const VkPhysicalDevicePushDescriptorPropertiesKHR*>(blob->data())->maxPushDescriptors
                      : 32;
  if (total > limit)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDescriptorSetLayout: %llu push descriptors exceed maxPushDescriptors %u "
                       "(VUID-VkDescriptorSetLayoutCreateInfo-flags-00281)",
                       static_cast<unsigned long long>(total), limit);
  return VK_SUCCESS;
}

}  // namespace

DescriptorSetLayout::DescriptorSetLayout(const VkDescriptorSetLayoutCreateInfo& info,
                                         const VkAllocationCallbacks* allocator)
    : Object(VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT), RefCounted(allocator), flags_(info.flags) {
  // "pImmutableSamplers ... the sampler objects are copied into the set layout" is how the spec lets apps destroy
  // samplers afterwards (VkDescriptorSetLayoutBinding): copy them, so nothing dangles.
  size_t samplerCount = 0;
  for (uint32_t i = 0; i < info.bindingCount; ++i)
    if (UsesImmutableSamplers(info.pBindings[i])) samplerCount += info.pBindings[i].descriptorCount;
  immutableSamplers_.reserve(samplerCount);

  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = info.pBindings[i];
    DescriptorBinding binding{b.binding, b.descriptorType, b.descriptorCount, b.stageFlags, BindingFlags(info, i),
                              0, 0, nullptr};
    if (UsesImmutableSamplers(b)) {
      binding.immutableSamplers = immutableSamplers_.data() + immutableSamplers_.size();
      for (uint32_t s = 0; s < b.descriptorCount; ++s)
        immutableSamplers_.emplace_back(FromHandle(b.pImmutableSamplers[s])->state());
    }
    bindings_.push_back(binding);
  }
  std::sort(bindings_.begin(), bindings_.end(),
            [](const DescriptorBinding& a, const DescriptorBinding& b) { return a.binding < b.binding; });
  for (DescriptorBinding& binding : bindings_) {
    if (IsInlineUniformBlock(binding.type)) {
      binding.inlineOffset = inlineBytes_;
      inlineBytes_ += binding.descriptorCount;
    } else {
      binding.firstRecord = recordCount_;
      recordCount_ += binding.descriptorCount;
    }
  }
  if (!bindings_.empty() && (bindings_.back().flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0)
    variableBinding_ = &bindings_.back();
  const DescriptorBinding* variable = variableBinding_;
  for (const DescriptorBinding& binding : bindings_) {
    if (IsInlineUniformBlock(binding.type) && binding.descriptorCount > 0) ++inlineBindingCount_;
    auto it = std::find_if(typeCounts_.begin(), typeCounts_.end(),
                           [&](const TypeCount& t) { return t.type == binding.type; });
    if (it == typeCounts_.end()) it = typeCounts_.insert(typeCounts_.end(), TypeCount{binding.type, 0, false});
    if (&binding == variable)
      it->variable = true;
    else
      it->fixed += binding.descriptorCount;
  }
}

VkResult DescriptorSetLayout::Create(Device& device, const VkDescriptorSetLayoutCreateInfo& info,
                                     const VkAllocationCallbacks* allocator, VkDescriptorSetLayout* out) {
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    // VUID-VkDescriptorSetLayoutCreateInfo-binding-00279: "The VkDescriptorSetLayoutBinding::binding members of the
    // elements of the pBindings array must each have different values".
    for (uint32_t j = 0; j < i; ++j)
      if (info.pBindings[i].binding == info.pBindings[j].binding)
        return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                           "vkCreateDescriptorSetLayout: binding %u appears twice "
                           "(VUID-VkDescriptorSetLayoutCreateInfo-binding-00279)",
                           info.pBindings[i].binding);
    // VUID-VkDescriptorSetLayoutBindingFlagsCreateInfo-pBindingFlags-03004: the variable-count binding must be the
    // one with the largest binding number.
    if (BindingFlags(info, i) & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)
      for (uint32_t j = 0; j < info.bindingCount; ++j)
        if (info.pBindings[j].binding > info.pBindings[i].binding)
          return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                             "vkCreateDescriptorSetLayout: binding %u has VARIABLE_DESCRIPTOR_COUNT but is not the "
                             "highest-numbered binding (VUID-VkDescriptorSetLayoutBindingFlagsCreateInfo-"
                             "pBindingFlags-03004)",
                             info.pBindings[i].binding);
    if (info.pBindings[i].descriptorType == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR ||
        info.pBindings[i].descriptorType == VK_DESCRIPTOR_TYPE_MUTABLE_EXT)
      return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateDescriptorSetLayout: binding %u: descriptor type %d "
                         "is not supported", info.pBindings[i].binding, info.pBindings[i].descriptorType);
  }
  if (VkResult result = CheckUpdateAfterBind(info); result != VK_SUCCESS) return result;
  if (VkResult result = CheckPushDescriptorLayout(device, info); result != VK_SUCCESS) return result;
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* layout = NewObject<DescriptorSetLayout>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, info, callbacks);
  if (layout == nullptr)
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDescriptorSetLayout: allocation failed");
  *out = ToHandle(layout);
  return VK_SUCCESS;
}

const DescriptorBinding* DescriptorSetLayout::Find(uint32_t binding) const {
  auto it = std::lower_bound(bindings_.begin(), bindings_.end(), binding,
                             [](const DescriptorBinding& b, uint32_t n) { return b.binding < n; });
  return it != bindings_.end() && it->binding == binding ? &*it : nullptr;
}

uint32_t DescriptorSetLayout::RecordCount(uint32_t variableCount) const {
  const DescriptorBinding* variable = variableBinding();
  if (variable == nullptr || IsInlineUniformBlock(variable->type)) return recordCount_;
  return recordCount_ - variable->descriptorCount + variableCount;
}

uint32_t DescriptorSetLayout::InlineBytes(uint32_t variableCount) const {
  const DescriptorBinding* variable = variableBinding();
  if (variable == nullptr || !IsInlineUniformBlock(variable->type)) return inlineBytes_;
  return inlineBytes_ - variable->descriptorCount + variableCount;
}

uint32_t DescriptorSetLayout::DescriptorCount(VkDescriptorType type, uint32_t variableCount) const {
  for (const TypeCount& t : typeCounts_)
    if (t.type == type) return t.Count(variableCount);
  return 0;
}

void GetDescriptorSetLayoutSupport(const Device& device, const VkDescriptorSetLayoutCreateInfo& info,
                                   VkDescriptorSetLayoutSupport& support) {
  // maxPerSetDescriptors (Vulkan 1.1 / VK_KHR_maintenance3): "a soft limit ... descriptors in a single set";
  // 1024 is the spec's required minimum when the profile does not say.
  uint32_t maxPerSet = 1024;
  if (const StructBlob* props = device.physicalDevice().description().FindProperties(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES)) {
    VkPhysicalDeviceMaintenance3Properties m3;
    std::memcpy(&m3, props->data(), sizeof(m3));
    if (m3.maxPerSetDescriptors != 0) maxPerSet = m3.maxPerSetDescriptors;
  }
  uint64_t fixed = 0;
  bool hasVariable = false;
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    if (IsInlineUniformBlock(info.pBindings[i].descriptorType)) continue;  // bytes, limited separately
    if (BindingFlags(info, i) & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)
      hasVariable = true;
    else
      fixed += info.pBindings[i].descriptorCount;
  }
  support.supported = fixed <= maxPerSet ? VK_TRUE : VK_FALSE;
  if (auto* variable = FindInOutChain<VkDescriptorSetVariableDescriptorCountLayoutSupport>(support.pNext))
    variable->maxVariableDescriptorCount =
        hasVariable && fixed <= maxPerSet ? static_cast<uint32_t>(maxPerSet - fixed) : 0;
}

}  // namespace crashtest
