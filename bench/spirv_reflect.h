// A tiny SPIR-V reader: just enough reflection to build descriptor set layouts, push constant ranges and vertex
// input state that match a corpus shader. It reads the module's declarations only (no validation: the driver under
// test does that), and rejects what it cannot describe with a message rather than guessing.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace crashtest::bench {

struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  uint32_t count = 1;
};

struct VertexInput {
  uint32_t location = 0;
  VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
};

struct ShaderInterface {
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  std::string entry_point;
  std::vector<DescriptorBinding> bindings;   // sorted by (set, binding)
  bool uses_push_constants = false;
  std::vector<VertexInput> vertex_inputs;    // vertex stage only, sorted by location
  std::vector<uint32_t> capabilities;        // SPIR-V Capability enumerants as declared
  bool runtime_descriptor_array = false;     // needs descriptor indexing
};

// Reflects the first entry point. Returns nullopt and fills *error ("<what> at word N") on a malformed module.
std::optional<ShaderInterface> reflect_spirv(const std::vector<uint32_t>& words, std::string* error);

// "Float64" for 10 etc.; the number for capabilities this table does not name.
std::string capability_name(uint32_t capability);

}  // namespace crashtest::bench
