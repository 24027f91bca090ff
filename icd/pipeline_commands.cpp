// Thunks of the pipeline area: shader modules (pipelines follow with the descriptor and pipeline layouts).
#include "common/allocation.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"
#include "pipeline/shader_module.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule) {
  return Guarded("vkCreateShaderModule",
                 [&] { return ShaderModule::Create(*FromHandle(device), *pCreateInfo, pAllocator, pShaderModule); });
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator) {
  if (shaderModule == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(shaderModule));
}

}  // namespace crashtest::icd
