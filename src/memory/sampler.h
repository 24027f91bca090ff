// VkSampler: its create state, kept for the interpreter that samples images and for immutable samplers, which
// descriptor set layouts copy (src/descriptor/descriptor_set_layout.h).
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/object.h"

namespace crashtest {

class Device;
CT_DEFINE_HANDLE(Sampler, VkSampler, VK_OBJECT_TYPE_SAMPLER);

// The sampler's parameters: VkSamplerCreateInfo without pNext, plus the chained structs that change sampling.
struct SamplerState {
  VkSamplerCreateInfo info{};  // pNext cleared
  VkSamplerReductionMode reductionMode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  VkClearColorValue customBorderColor{};  // VK_EXT_custom_border_color
  VkFormat customBorderColorFormat = VK_FORMAT_UNDEFINED;
};

class Sampler : public Object {
 public:
  explicit Sampler(const SamplerState& state);
  // Counts against maxSamplerAllocationCount ("vkCreateSampler ... VK_ERROR_TOO_MANY_OBJECTS" when exceeded).
  static VkResult Create(Device& device, const VkSamplerCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkSampler* out);
  static void Destroy(Device& device, Sampler* sampler, const VkAllocationCallbacks* allocator);

  const SamplerState& state() const { return state_; }

 private:
  SamplerState state_;
};

}  // namespace crashtest
