#include "pipeline/frontend/target_environment.h"

#include <vulkan/vulkan.h>

namespace crashtest::pipeline {

spv_target_env TargetEnvironmentFor(uint32_t vulkanApiVersion, bool spirv14Enabled) {
  uint32_t minor = VK_API_VERSION_MINOR(vulkanApiVersion);
  if (VK_API_VERSION_MAJOR(vulkanApiVersion) > 1 || minor >= 3) return SPV_ENV_VULKAN_1_3;
  if (minor == 2) return SPV_ENV_VULKAN_1_2;
  if (minor == 1) return spirv14Enabled ? SPV_ENV_VULKAN_1_1_SPIRV_1_4 : SPV_ENV_VULKAN_1_1;
  return SPV_ENV_VULKAN_1_0;
}

const char* TargetEnvironmentName(spv_target_env env) {
  switch (env) {
    case SPV_ENV_VULKAN_1_0: return "Vulkan 1.0 (SPIR-V 1.0)";
    case SPV_ENV_VULKAN_1_1: return "Vulkan 1.1 (SPIR-V 1.3)";
    case SPV_ENV_VULKAN_1_1_SPIRV_1_4: return "Vulkan 1.1 with VK_KHR_spirv_1_4 (SPIR-V 1.4)";
    case SPV_ENV_VULKAN_1_2: return "Vulkan 1.2 (SPIR-V 1.5)";
    case SPV_ENV_VULKAN_1_3: return "Vulkan 1.3 (SPIR-V 1.6)";
    default: return "SPIR-V environment";
  }
}

}  // namespace crashtest::pipeline
