#include "pipeline/shader_module.h"

#include <string>

#include "common/allocation.h"
#include "common/result.h"
#include "device/device.h"
#include "pipeline/frontend/spirv_validator.h"
#include "pipeline/frontend/target_environment.h"

namespace crashtest {

VkResult ShaderModule::Create(Device& device, const VkShaderModuleCreateInfo& info,
                              const VkAllocationCallbacks* allocator, VkShaderModule* out) {
  const VkAllocationCallbacks* chosen = ChooseAllocator(allocator, device.allocator());
  // "codeSize must be a multiple of 4" (VUID-VkShaderModuleCreateInfo-codeSize-08735); a partial last word is
  // not copied, so the validator sees a truncated module rather than bytes past the end.
  size_t wordCount = info.pCode != nullptr ? info.codeSize / 4 : 0;
  auto* module = NewObject<ShaderModule>(chosen, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                         std::span<const uint32_t>(info.pCode, wordCount));
  if (module == nullptr)
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateShaderModule: out of host memory for the module");
  uint64_t id = module->header.id;
  std::string message;
  spv_target_env env = pipeline::TargetEnvironmentFor(device.apiVersion(), device.IsExtensionEnabled("VK_KHR_spirv_1_4"));
  bool valid = false;
  if (info.codeSize % 4 != 0 || info.codeSize == 0) {
    message = "codeSize " + std::to_string(info.codeSize) + " is not a positive multiple of 4";
  } else {
    valid = pipeline::ValidateSpirv(module->words(), env, &message);
  }
  if (!valid) {
    DeleteObject(chosen, module);
    return ReportError(VK_ERROR_UNKNOWN, "vkCreateShaderModule: shader module %llu: invalid SPIR-V for %s: %s",
                       static_cast<unsigned long long>(id), pipeline::TargetEnvironmentName(env), message.c_str());
  }
  *out = ToHandle(module);
  return VK_SUCCESS;
}

}  // namespace crashtest
