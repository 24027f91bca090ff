// VkDevice: a logical device of one emulated physical device, with the extensions and features the app enabled
// (checked against what the emulated device reports) and its queues.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "device/deferred_destruction.h"
#include "device/device_description.h"

namespace crashtest {

CT_DEFINE_HANDLE(Device, VkDevice, VK_OBJECT_TYPE_DEVICE);
class FaultEngine;
class PhysicalDevice;
class Queue;
namespace wsi {
class LossCaptures;
}

class Device : public DispatchableObject {
 public:
  static VkResult Create(PhysicalDevice& physicalDevice, const VkDeviceCreateInfo& createInfo,
                         const VkAllocationCallbacks* allocator, VkDevice* out);
  void Destroy(const VkAllocationCallbacks* allocator);

  PhysicalDevice& physicalDevice() const { return physicalDevice_; }
  // min(instance API version, device API version): "the effective API version" that gates core device commands.
  uint32_t apiVersion() const { return apiVersion_; }
  bool IsExtensionEnabled(std::string_view name) const;
  const VkPhysicalDeviceFeatures& enabledFeatures() const { return enabledFeatures_; }
  // Enabled feature structs chained at creation, keyed by sType, as the app gave them (pNext cleared).
  const StructBlob* FindEnabledFeatures(VkStructureType sType) const;
  std::span<Queue* const> queues() const { return queues_; }
  // nullptr when (family, index) was not created with flags `flags`.
  Queue* FindQueue(uint32_t familyIndex, uint32_t index, VkDeviceQueueCreateFlags flags) const;
  const VkAllocationCallbacks* allocator() const { return hasAllocator_ ? &allocator_ : nullptr; }
  // The fault engine of this device (triggers, effects, lost state, fault reports); never null.
  FaultEngine& faults() const { return *faults_; }
  // The swapchains' frames kept for a loss, which the crash dump writes and names (src/wsi/loss_captures.h).
  wsi::LossCaptures& lossCaptures() const { return *lossCaptures_; }
  // Buffers, memory objects and fences destroyed while work is in flight (device/deferred_destruction.h).
  DeferredDestruction& deferredDestruction() { return deferred_; }

  Device(PhysicalDevice& physicalDevice, const VkAllocationCallbacks* allocator);
  ~Device();


 private:
  VkResult Initialize(const VkDeviceCreateInfo& createInfo);
  VkResult EnableExtensions(const VkDeviceCreateInfo& createInfo);
  VkResult EnableFeatures(const VkDeviceCreateInfo& createInfo);
  VkResult CreateQueues(const VkDeviceCreateInfo& createInfo);
  void CreateFaultEngine(const VkDeviceCreateInfo& createInfo);

  PhysicalDevice& physicalDevice_;
  bool hasAllocator_ = false;
  VkAllocationCallbacks allocator_{};
  uint32_t apiVersion_ = VK_API_VERSION_1_0;
  std::vector<std::string> enabledExtensions_;
  VkPhysicalDeviceFeatures enabledFeatures_{};
  std::map<VkStructureType, StructBlob> enabledFeatureStructs_;
  std::vector<Queue*> queues_;
  std::unique_ptr<FaultEngine> faults_;
  std::unique_ptr<wsi::LossCaptures> lossCaptures_;
  DeferredDestruction deferred_;
};

}  // namespace crashtest
