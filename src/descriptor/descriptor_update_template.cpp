#include "descriptor/descriptor_update_template.h"

#include "common/allocation.h"
#include "common/result.h"
#include "descriptor/descriptor_set.h"
#include "device/device.h"

namespace crashtest {

DescriptorUpdateTemplate::DescriptorUpdateTemplate(const VkDescriptorUpdateTemplateCreateInfo& info)
    : Object(VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE),
      type_(info.templateType),
      entries_(info.pDescriptorUpdateEntries, info.pDescriptorUpdateEntries + info.descriptorUpdateEntryCount),
      bindPoint_(info.pipelineBindPoint),
      pipelineLayout_(info.pipelineLayout),
      set_(info.set) {}

VkResult DescriptorUpdateTemplate::Create(Device& device, const VkDescriptorUpdateTemplateCreateInfo& info,
                                          const VkAllocationCallbacks* allocator, VkDescriptorUpdateTemplate* out) {
  auto* object = NewObject<DescriptorUpdateTemplate>(ChooseAllocator(allocator, device.allocator()),
                                                     VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, info);
  if (object == nullptr)
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDescriptorUpdateTemplate: allocation failed");
  *out = ToHandle(object);
  return VK_SUCCESS;
}

VkResult DescriptorUpdateTemplate::Apply(DescriptorSet& set, const void* data) const {
  for (const VkDescriptorUpdateTemplateEntry& entry : entries_) {
    VkResult result = set.WriteFromTemplate(entry, data);
    if (result != VK_SUCCESS) return result;
  }
  return VK_SUCCESS;
}

}  // namespace crashtest
