// VkInstance: the application's identity, the enabled instance extensions and the emulated physical devices,
// built once from the configuration (CRASHTEST_CONFIG, else the built-in default device).
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "fault/fault_plan.h"
#include "profile/dump_options.h"
#include "profile/execution_options.h"
#include "profile/presentation_options.h"

namespace crashtest {

CT_DEFINE_HANDLE(Instance, VkInstance, VK_OBJECT_TYPE_INSTANCE);
class PhysicalDevice;

class Instance : public DispatchableObject {
 public:
  static VkResult Create(const VkInstanceCreateInfo* createInfo, const VkAllocationCallbacks* allocator,
                         VkInstance* out);
  void Destroy();

  // The version the application asked for (1.0 when it gave none), capped at what the driver implements:
  // core instance-level commands newer than this are not returned by vkGetInstanceProcAddr.
  uint32_t apiVersion() const { return apiVersion_; }
  bool IsExtensionEnabled(std::string_view name) const;
  std::span<PhysicalDevice* const> physicalDevices() const { return physicalDevices_; }
  const VkAllocationCallbacks* allocator() const { return allocator_ ? &allocatorStorage_ : nullptr; }

  const std::string& applicationName() const { return applicationName_; }
  const std::string& engineName() const { return engineName_; }
  uint32_t applicationVersion() const { return applicationVersion_; }
  uint32_t engineVersion() const { return engineVersion_; }
  uint32_t requestedApiVersion() const { return requestedApiVersion_; }
  // The configuration's fault plan (docs/faults.md); each device takes the faults that watch it.
  const FaultPlan& faultPlan() const { return faultPlan_; }
  // The configuration's execution options (threads, shader faults, budgets).
  const ExecutionOptions& executionOptions() const { return executionOptions_; }
  // The configuration's crash-dump options (folder, size cap).
  const DumpOptions& dumpOptions() const { return dumpOptions_; }
  const PresentationOptions& presentationOptions() const { return presentationOptions_; }

  Instance(const VkInstanceCreateInfo& createInfo, const VkAllocationCallbacks* allocator);
  ~Instance();

 private:
  VkResult Initialize(const VkInstanceCreateInfo& createInfo);

  bool allocator_ = false;
  VkAllocationCallbacks allocatorStorage_{};
  uint32_t apiVersion_ = VK_API_VERSION_1_0;
  uint32_t requestedApiVersion_ = 0;
  std::string applicationName_;
  std::string engineName_;
  uint32_t applicationVersion_ = 0;
  uint32_t engineVersion_ = 0;
  std::vector<std::string> enabledExtensions_;
  std::vector<PhysicalDevice*> physicalDevices_;
  FaultPlan faultPlan_;
  ExecutionOptions executionOptions_;
  DumpOptions dumpOptions_;
  PresentationOptions presentationOptions_;
};

// The instance extensions crashtest implements (vkEnumerateInstanceExtensionProperties).
std::span<const VkExtensionProperties> InstanceExtensions();

}  // namespace crashtest
