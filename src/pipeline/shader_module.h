// VkShaderModule: the SPIR-V words, kept after validation for the pipelines that compile them later.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(ShaderModule, VkShaderModule, VK_OBJECT_TYPE_SHADER_MODULE);

class ShaderModule : public Object {
 public:
  // Invalid SPIR-V fails with VK_ERROR_UNKNOWN: without VK_NV_glsl_shader (VK_ERROR_INVALID_SHADER_NV) it is the
  // only result the command may return for input the implementation rejects. The log names the module's id and
  // the validator's message.
  static VkResult Create(Device& device, const VkShaderModuleCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkShaderModule* out);

  explicit ShaderModule(std::span<const uint32_t> words) : Object(VK_OBJECT_TYPE_SHADER_MODULE),
                                                           words_(words.begin(), words.end()) {}
  std::span<const uint32_t> words() const { return words_; }

 private:
  std::vector<uint32_t> words_;
};

}  // namespace crashtest
