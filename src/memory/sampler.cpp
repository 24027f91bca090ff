#include "memory/sampler.h"

#include "common/allocation.h"
#include "common/live_objects.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/device.h"
#include "device/physical_device.h"
#include "memory/memory_accounting.h"

namespace crashtest {

Sampler::Sampler(const SamplerState& state) : Object(VK_OBJECT_TYPE_SAMPLER), state_(state) {}

VkResult Sampler::Create(Device& device, const VkSamplerCreateInfo& info, const VkAllocationCallbacks* allocator,
                         VkSampler* out) {
  const VkPhysicalDeviceLimits& limits = device.physicalDevice().description().properties.limits;
  // VUID-VkSamplerCreateInfo-anisotropyEnable-01071: maxAnisotropy between 1.0 and maxSamplerAnisotropy.
  if (info.anisotropyEnable && (info.maxAnisotropy < 1.0f || info.maxAnisotropy > limits.maxSamplerAnisotropy))
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT, "vkCreateSampler: maxAnisotropy %g is not in [1, %g] "
                       "(VUID-VkSamplerCreateInfo-anisotropyEnable-01071)",
                       static_cast<double>(info.maxAnisotropy), static_cast<double>(limits.maxSamplerAnisotropy));
  SamplerState state;
  state.info = info;
  state.info.pNext = nullptr;
  if (const auto* reduction = FindInChain<VkSamplerReductionModeCreateInfo>(info.pNext))
    state.reductionMode = reduction->reductionMode;
  if (const auto* border = FindInChain<VkSamplerCustomBorderColorCreateInfoEXT>(info.pNext)) {
    state.customBorderColor = border->customBorderColor;
    state.customBorderColorFormat = border->format;
  }
  if (FindInChain<VkSamplerYcbcrConversionInfo>(info.pNext) != nullptr)
    return ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateSampler: sampler Y'CbCr conversion is not supported");
  // "VK_ERROR_TOO_MANY_OBJECTS": more than maxSamplerAllocationCount samplers would exist (vkCreateSampler).
  if (!memory_accounting::ReserveSampler(device, limits.maxSamplerAllocationCount))
    return ReportError(VK_ERROR_TOO_MANY_OBJECTS, "vkCreateSampler: the device already has %u samplers "
                       "(maxSamplerAllocationCount)", limits.maxSamplerAllocationCount);
  auto* sampler = NewObject<Sampler>(ChooseAllocator(allocator, device.allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT,
                                     state);
  if (sampler == nullptr) {
    memory_accounting::ReleaseSampler(device);
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateSampler: allocation failed");
  }
  live_objects::Add(sampler, {VK_OBJECT_TYPE_SAMPLER, sampler->header.id, 0});
  *out = ToHandle(sampler);
  return VK_SUCCESS;
}

void Sampler::Destroy(Device& device, Sampler* sampler, const VkAllocationCallbacks* allocator) {
  if (sampler == nullptr) return;
  // "sampler must be a valid VkSampler handle" (VUID-vkDestroySampler-sampler-parameter): a second destruction
  // would free it twice.
  if (!live_objects::Remove(sampler, VK_OBJECT_TYPE_SAMPLER)) {
    CT_ERROR("vkDestroySampler: %p is not a live sampler (destroyed already?) "
             "(VUID-vkDestroySampler-sampler-parameter); ignored", static_cast<void*>(ToHandle(sampler)));
    return;
  }
  memory_accounting::ReleaseSampler(device);
  // Work in flight may still name it (VUID-vkDestroySampler-sampler-01082): the queues see it destroyed and fault
  // (queue/resource_liveness.h); its storage stays until that work is done.
  device.deferredDestruction().DestroyWhenIdle(
      sampler, [](void* object, const VkAllocationCallbacks* callbacks) {
        DeleteObject(callbacks, static_cast<Sampler*>(object));
      },
      ChooseAllocator(allocator, device.allocator()));
}

}  // namespace crashtest
