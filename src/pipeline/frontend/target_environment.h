// The SPIR-V environment a device accepts: "A SPIR-V module passed into vkCreateShaderModule ... must be valid as
// described by the SPIR-V Specification" for the SPIR-V versions of the device's Vulkan version (Vulkan 1.3,
// appendix "Vulkan Environment for SPIR-V": 1.0 accepts SPIR-V 1.0; 1.1 up to 1.3, or 1.4 with
// VK_KHR_spirv_1_4; 1.2 up to 1.5; 1.3 up to 1.6).
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>

namespace crashtest::pipeline {

spv_target_env TargetEnvironmentFor(uint32_t vulkanApiVersion, bool spirv14Enabled);
const char* TargetEnvironmentName(spv_target_env env);

}  // namespace crashtest::pipeline
