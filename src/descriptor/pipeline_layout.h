// VkPipelineLayout: the set layouts (referenced, so they may be destroyed first) and push-constant ranges, kept
// for the pipeline compiler to check shaders against and for vkCmdBindDescriptorSets / vkCmdPushConstants.
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "descriptor/ref_counted.h"

namespace crashtest {

class Device;
class DescriptorSetLayout;
CT_DEFINE_HANDLE(PipelineLayout, VkPipelineLayout, VK_OBJECT_TYPE_PIPELINE_LAYOUT);

class PipelineLayout : public Object, public RefCounted<PipelineLayout> {
 public:
  PipelineLayout(const VkPipelineLayoutCreateInfo& info, const VkAllocationCallbacks* allocator);
  ~PipelineLayout();
  PipelineLayout(const PipelineLayout&) = delete;
  PipelineLayout& operator=(const PipelineLayout&) = delete;
  static VkResult Create(Device& device, const VkPipelineLayoutCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkPipelineLayout* out);

  // Entries may be nullptr: VK_NULL_HANDLE set layouts are allowed with graphicsPipelineLibrary.
  std::span<DescriptorSetLayout* const> setLayouts() const { return setLayouts_; }
  std::span<const VkPushConstantRange> pushConstantRanges() const { return pushConstantRanges_; }
  VkPipelineLayoutCreateFlags flags() const { return flags_; }

 private:
  VkPipelineLayoutCreateFlags flags_;
  std::vector<DescriptorSetLayout*> setLayouts_;
  std::vector<VkPushConstantRange> pushConstantRanges_;
};

}  // namespace crashtest
