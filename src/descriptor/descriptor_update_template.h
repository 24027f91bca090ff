// VkDescriptorUpdateTemplate: the entries, kept for vkUpdateDescriptorSetWithTemplate and (for PUSH_DESCRIPTORS
// templates) vkCmdPushDescriptorSetWithTemplate, which the execution area records.
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
class DescriptorSet;
CT_DEFINE_HANDLE(DescriptorUpdateTemplate, VkDescriptorUpdateTemplate, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE);

class DescriptorUpdateTemplate : public Object {
 public:
  explicit DescriptorUpdateTemplate(const VkDescriptorUpdateTemplateCreateInfo& info);
  static VkResult Create(Device& device, const VkDescriptorUpdateTemplateCreateInfo& info,
                         const VkAllocationCallbacks* allocator, VkDescriptorUpdateTemplate* out);

  VkDescriptorUpdateTemplateType templateType() const { return type_; }
  const std::vector<VkDescriptorUpdateTemplateEntry>& entries() const { return entries_; }
  VkPipelineBindPoint bindPoint() const { return bindPoint_; }
  VkPipelineLayout pipelineLayout() const { return pipelineLayout_; }
  uint32_t set() const { return set_; }

  VkResult Apply(DescriptorSet& set, const void* data) const;

 private:
  VkDescriptorUpdateTemplateType type_;
  std::vector<VkDescriptorUpdateTemplateEntry> entries_;
  VkPipelineBindPoint bindPoint_;
  VkPipelineLayout pipelineLayout_;  // only for PUSH_DESCRIPTORS templates
  uint32_t set_;
};

}  // namespace crashtest
