#include "descriptor/pipeline_layout.h"

#include "common/result.h"
#include "descriptor/descriptor_set_layout.h"
#include "device/device.h"
#include "device/physical_device.h"

namespace crashtest {

PipelineLayout::PipelineLayout(const VkPipelineLayoutCreateInfo& info, const VkAllocationCallbacks* allocator)
    : Object(VK_OBJECT_TYPE_PIPELINE_LAYOUT),
      RefCounted(allocator),
      flags_(info.flags),
      pushConstantRanges_(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount) {
  setLayouts_.reserve(info.setLayoutCount);
  for (uint32_t i = 0; i < info.setLayoutCount; ++i) {
    DescriptorSetLayout* layout = FromHandle(info.pSetLayouts[i]);
    if (layout != nullptr) layout->Ref();
    setLayouts_.push_back(layout);
  }
}

PipelineLayout::~PipelineLayout() {
  for (DescriptorSetLayout* layout : setLayouts_)
    if (layout != nullptr) layout->Unref();
}

VkResult PipelineLayout::Create(Device& device, const VkPipelineLayoutCreateInfo& info,
                                const VkAllocationCallbacks* allocator, VkPipelineLayout* out) {
  const VkPhysicalDeviceLimits& limits = device.physicalDevice().description().properties.limits;
  // VUID-VkPipelineLayoutCreateInfo-setLayoutCount-00286: at most maxBoundDescriptorSets set layouts.
  if (info.setLayoutCount > limits.maxBoundDescriptorSets)
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkCreatePipelineLayout: %u set layouts exceed "
                       "maxBoundDescriptorSets %u (VUID-VkPipelineLayoutCreateInfo-setLayoutCount-00286)",
                       info.setLayoutCount, limits.maxBoundDescriptorSets);
  for (uint32_t i = 0; i < info.pushConstantRangeCount; ++i) {
    const VkPushConstantRange& range = info.pPushConstantRanges[i];
    // VUID-VkPushConstantRange-offset-00294/00295, -size-00296/00297/00298: multiples of 4 within
    // maxPushConstantsSize, size > 0.
    if (range.offset % 4 != 0 || range.size == 0 || range.size % 4 != 0 ||
        range.offset >= limits.maxPushConstantsSize || range.size > limits.maxPushConstantsSize - range.offset)
      return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkCreatePipelineLayout: push constant range %u (offset %u, "
                         "size %u) is not 4-byte aligned within maxPushConstantsSize %u (VUID-VkPushConstantRange-"
                         "offset-00294)", i, range.offset, range.size, limits.maxPushConstantsSize);
  }
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* layout = NewObject<PipelineLayout>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, info, callbacks);
  if (layout == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreatePipelineLayout: allocation failed");
  *out = ToHandle(layout);
  return VK_SUCCESS;
}

}  // namespace crashtest
