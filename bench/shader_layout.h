// Descriptor set layouts and a pipeline layout that match reflected shader interfaces, plus the feature checks
// that decide whether a shader can run on the device at all.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spirv_reflect.h"
#include "vk_context.h"

namespace crashtest::bench {

class ShaderLayout {
 public:
  // One layout for all `stages` (a compute shader, or a vertex + fragment pair). Errors start with "unsupported:"
  // or "error:".
  static std::unique_ptr<ShaderLayout> Create(const VkContext& ctx, const std::vector<const ShaderInterface*>& stages,
                                              std::string* error);
  ~ShaderLayout();
  ShaderLayout(const ShaderLayout&) = delete;
  ShaderLayout& operator=(const ShaderLayout&) = delete;

  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  const std::vector<VkDescriptorSetLayout>& set_layouts() const { return set_layouts_; }
  const std::vector<DescriptorBinding>& bindings() const { return bindings_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }
  VkShaderStageFlags stages() const { return stage_flags_; }

 private:
  explicit ShaderLayout(const VkContext& ctx) : ctx_(ctx) {}
  const VkContext& ctx_;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  std::vector<DescriptorBinding> bindings_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  uint32_t push_constant_bytes_ = 0;
  VkShaderStageFlags stage_flags_ = 0;
};

// "" when the device's enabled features cover the shader's capabilities, else "unsupported: …".
std::string unsupported_capability(const VkContext& ctx, const ShaderInterface& shader);

// Pipeline-creation results that mean "the driver declines this shader" rather than "the driver broke".
bool is_shader_rejection(VkResult result);

// A copy of `words` whose generator word (header word 2, free for tools to set) is `salt`, so every pipeline built
// from it has a SPIR-V hash no driver cache has seen.
std::vector<uint32_t> salted_spirv(const std::vector<uint32_t>& words, uint32_t salt);

}  // namespace crashtest::bench
