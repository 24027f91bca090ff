#include "shader_layout.h"

#include <algorithm>
#include <map>

namespace crashtest::bench {

std::unique_ptr<ShaderLayout> ShaderLayout::Create(const VkContext& ctx,
                                                   const std::vector<const ShaderInterface*>& stages,
                                                   std::string* error) {
  *error = ctx.missing({"vkCreateDescriptorSetLayout", "vkDestroyDescriptorSetLayout", "vkCreatePipelineLayout",
                        "vkDestroyPipelineLayout"});
  if (!error->empty()) return nullptr;
  std::unique_ptr<ShaderLayout> layout(new ShaderLayout(ctx));
  // Merge the stages' bindings: the same (set, binding) seen by two stages is one binding visible to both.
  std::map<std::pair<uint32_t, uint32_t>, std::pair<DescriptorBinding, VkShaderStageFlags>> merged;
  bool push_constants = false;
  for (const ShaderInterface* stage : stages) {
    layout->stage_flags_ |= stage->stage;
    push_constants = push_constants || stage->uses_push_constants;
    if (stage->runtime_descriptor_array) {
      *error = "unsupported: the shader uses a runtime descriptor array (needs descriptor indexing)";
      return nullptr;
    }
    for (const DescriptorBinding& binding : stage->bindings) {
      auto& slot = merged[{binding.set, binding.binding}];
      slot.first = binding;
      slot.second |= stage->stage;
    }
  }
  uint32_t set_count = 0;
  for (const auto& [key, value] : merged) set_count = std::max(set_count, key.first + 1);
  if (set_count > ctx.properties().limits.maxBoundDescriptorSets) {
    *error = "unsupported: the shader uses " + std::to_string(set_count) + " descriptor sets, the device allows " +
             std::to_string(ctx.properties().limits.maxBoundDescriptorSets);
    return nullptr;
  }
  const DeviceCommands& vk = ctx.vk();
  for (uint32_t set = 0; set < set_count; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const auto& [key, value] : merged) {
      if (key.first != set) continue;
      bindings.push_back({value.first.binding, value.first.type, value.first.count, value.second, nullptr});
      layout->bindings_.push_back(value.first);
    }
    VkDescriptorSetLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    const VkResult result = vk.vkCreateDescriptorSetLayout(ctx.device(), &info, nullptr, &set_layout);
    if (result != VK_SUCCESS) {
      *error = call_failed("vkCreateDescriptorSetLayout", result);
      return nullptr;
    }
    layout->set_layouts_.push_back(set_layout);
  }
  // The reflection does not size push-constant blocks; a range covering the guaranteed minimum (128 bytes) is
  // valid for any block that fits the device.
  layout->push_constant_bytes_ = push_constants ? std::min(128u, ctx.properties().limits.maxPushConstantsSize) : 0;
  const VkPushConstantRange range{layout->stage_flags_, 0, layout->push_constant_bytes_};
  VkPipelineLayoutCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  info.setLayoutCount = static_cast<uint32_t>(layout->set_layouts_.size());
  info.pSetLayouts = layout->set_layouts_.data();
  info.pushConstantRangeCount = push_constants ? 1 : 0;
  info.pPushConstantRanges = &range;
  const VkResult result = vk.vkCreatePipelineLayout(ctx.device(), &info, nullptr, &layout->pipeline_layout_);
  if (result != VK_SUCCESS) {
    layout->pipeline_layout_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreatePipelineLayout", result);
    return nullptr;
  }
  return layout;
}

ShaderLayout::~ShaderLayout() {
  const DeviceCommands& vk = ctx_.vk();
  if (pipeline_layout_ != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(ctx_.device(), pipeline_layout_, nullptr);
  for (VkDescriptorSetLayout set_layout : set_layouts_) {
    vk.vkDestroyDescriptorSetLayout(ctx_.device(), set_layout, nullptr);
  }
}

std::string unsupported_capability(const VkContext& ctx, const ShaderInterface& shader) {
  const VkPhysicalDeviceFeatures& features = ctx.features();
  for (uint32_t capability : shader.capabilities) {
    bool available = true;
    switch (capability) {
      case 10: available = features.shaderFloat64; break;  // Float64
      case 11: available = features.shaderInt64; break;    // Int64
      case 22: available = features.shaderInt16; break;    // Int16
      default: break;  // others: left to the driver, which may decline the shader at pipeline creation
    }
    if (!available) return "unsupported: the shader needs SPIR-V capability " + capability_name(capability);
  }
  return {};
}

bool is_shader_rejection(VkResult result) {
  return result == VK_ERROR_UNKNOWN || result == VK_ERROR_INVALID_SHADER_NV ||
         result == VK_ERROR_FEATURE_NOT_PRESENT;
}

std::vector<uint32_t> salted_spirv(const std::vector<uint32_t>& words, uint32_t salt) {
  std::vector<uint32_t> copy = words;
  if (copy.size() > 2) copy[2] = salt;
  return copy;
}

}  // namespace crashtest::bench
