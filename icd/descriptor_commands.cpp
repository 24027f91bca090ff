// Descriptor set layouts, pools, sets, updates, update templates and pipeline layouts.
#include "common/allocation.h"
#include "common/live_objects.h"
#include "descriptor/descriptor_pool.h"
#include "descriptor/descriptor_set.h"
#include "descriptor/descriptor_set_layout.h"
#include "descriptor/descriptor_update_template.h"
#include "descriptor/pipeline_layout.h"
#include "device/device.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device,
                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         const VkAllocationCallbacks* pAllocator,
                                                         VkDescriptorSetLayout* pSetLayout) {
  return Guarded("vkCreateDescriptorSetLayout", [&] {
    return DescriptorSetLayout::Create(*FromHandle(device), *pCreateInfo, pAllocator, pSetLayout);
  });
}

// The layout stays alive while sets and pipeline layouts still use it; its storage returns to the callbacks it
// was created with, which VUID-vkDestroyDescriptorSetLayout-descriptorSetLayout-00284 makes compatible with these.
VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice, VkDescriptorSetLayout descriptorSetLayout,
                                                      const VkAllocationCallbacks*) {
  if (descriptorSetLayout != VK_NULL_HANDLE) FromHandle(descriptorSetLayout)->Unref();
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSupport(VkDevice device,
                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         VkDescriptorSetLayoutSupport* pSupport) {
  GetDescriptorSetLayoutSupport(*FromHandle(device), *pCreateInfo, *pSupport);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkDescriptorPool* pDescriptorPool) {
  return Guarded("vkCreateDescriptorPool", [&] {
    return DescriptorPool::Create(*FromHandle(device), *pCreateInfo, pAllocator, pDescriptorPool);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                                                 const VkAllocationCallbacks* pAllocator) {
  GuardedVoid("vkDestroyDescriptorPool",
              [&] { DescriptorPool::Destroy(*FromHandle(device), FromHandle(descriptorPool), pAllocator); });
}

namespace {

// "descriptorPool must be a valid VkDescriptorPool handle" (VUID-vkResetDescriptorPool-descriptorPool-parameter,
// VUID-VkDescriptorSetAllocateInfo-descriptorPool-parameter, VUID-vkFreeDescriptorSets-descriptorPool-parameter):
// a destroyed pool's memory is gone once its pending work is done, so nothing of it may be read. Null, with the
// error logged, for a handle that is not a live pool.
DescriptorPool* LivePool(VkDescriptorPool handle, const char* command, const char* vuid) {
  DescriptorPool* pool = FromHandle(handle);
  return live_objects::RequireLive(pool, handle, VK_OBJECT_TYPE_DESCRIPTOR_POOL, command, "descriptor pool", vuid)
             ? pool
             : nullptr;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL ResetDescriptorPool(VkDevice, VkDescriptorPool descriptorPool,
                                                   VkDescriptorPoolResetFlags) {
  return Guarded("vkResetDescriptorPool", [&] {
    DescriptorPool* pool =
        LivePool(descriptorPool, "vkResetDescriptorPool", "VUID-vkResetDescriptorPool-descriptorPool-parameter");
    if (pool == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
    pool->Reset();
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                      VkDescriptorSet* pDescriptorSets) {
  return Guarded("vkAllocateDescriptorSets", [&] {
    DescriptorPool* pool = LivePool(pAllocateInfo->descriptorPool, "vkAllocateDescriptorSets",
                                    "VUID-VkDescriptorSetAllocateInfo-descriptorPool-parameter");
    if (pool == nullptr) {
      for (uint32_t i = 0; i < pAllocateInfo->descriptorSetCount; ++i) pDescriptorSets[i] = VK_NULL_HANDLE;
      return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    return pool->Allocate(*pAllocateInfo, pDescriptorSets);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL FreeDescriptorSets(VkDevice, VkDescriptorPool descriptorPool,
                                                  uint32_t descriptorSetCount, const VkDescriptorSet* pDescriptorSets) {
  return Guarded("vkFreeDescriptorSets", [&] {
    DescriptorPool* pool =
        LivePool(descriptorPool, "vkFreeDescriptorSets", "VUID-vkFreeDescriptorSets-descriptorPool-parameter");
    if (pool == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
    return pool->Free(descriptorSetCount, pDescriptorSets);
  });
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice, uint32_t descriptorWriteCount,
                                                const VkWriteDescriptorSet* pDescriptorWrites,
                                                uint32_t descriptorCopyCount,
                                                const VkCopyDescriptorSet* pDescriptorCopies) {
  // "The operations described by pDescriptorWrites are performed first, followed by ... pDescriptorCopies".
  GuardedVoid("vkUpdateDescriptorSets", [&] {
    for (uint32_t i = 0; i < descriptorWriteCount; ++i)
      FromHandle(pDescriptorWrites[i].dstSet)->Write(pDescriptorWrites[i]);
    for (uint32_t i = 0; i < descriptorCopyCount; ++i)
      FromHandle(pDescriptorCopies[i].dstSet)->Copy(pDescriptorCopies[i]);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkDescriptorUpdateTemplate* pDescriptorUpdateTemplate) {
  return Guarded("vkCreateDescriptorUpdateTemplate", [&] {
    return DescriptorUpdateTemplate::Create(*FromHandle(device), *pCreateInfo, pAllocator, pDescriptorUpdateTemplate);
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const VkAllocationCallbacks* pAllocator) {
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(device)->allocator()), FromHandle(descriptorUpdateTemplate));
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                           VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                           const void* pData) {
  GuardedVoid("vkUpdateDescriptorSetWithTemplate",
              [&] { FromHandle(descriptorUpdateTemplate)->Apply(*FromHandle(descriptorSet), pData); });
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkPipelineLayout* pPipelineLayout) {
  return Guarded("vkCreatePipelineLayout", [&] {
    return PipelineLayout::Create(*FromHandle(device), *pCreateInfo, pAllocator, pPipelineLayout);
  });
}

// Pipelines keep their layout referenced, as sets keep their set layout.
VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks*) {
  if (pipelineLayout != VK_NULL_HANDLE) FromHandle(pipelineLayout)->Unref();
}

}  // namespace crashtest::icd
