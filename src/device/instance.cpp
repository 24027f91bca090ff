#include "device/instance.h"

#include <algorithm>
#include <cstring>

#include "common/allocation.h"
#include "common/api_coverage.h"
#include "common/log.h"
#include "common/result.h"
#include "device/driver_capabilities.h"
#include "device/physical_device.h"
#include "profile/config.h"

namespace crashtest {

namespace {

std::string CopyString(const char* text) { return text != nullptr ? std::string(text) : std::string(); }

}  // namespace

std::span<const VkExtensionProperties> InstanceExtensions() { return Driver().instanceExtensions; }

Instance::Instance(const VkInstanceCreateInfo& createInfo, const VkAllocationCallbacks* allocator)
    : DispatchableObject(VK_OBJECT_TYPE_INSTANCE) {
  if (allocator != nullptr) {
    allocator_ = true;
    allocatorStorage_ = *allocator;
  }
  if (const VkApplicationInfo* app = createInfo.pApplicationInfo) {
    applicationName_ = CopyString(app->pApplicationName);
    engineName_ = CopyString(app->pEngineName);
    applicationVersion_ = app->applicationVersion;
    engineVersion_ = app->engineVersion;
    requestedApiVersion_ = app->apiVersion;
  }
}

Instance::~Instance() {
  for (PhysicalDevice* device : physicalDevices_) DeleteObject(allocator(), device);
}

VkResult Instance::Create(const VkInstanceCreateInfo* createInfo, const VkAllocationCallbacks* allocator,
                          VkInstance* out) {
  auto* instance = NewObject<Instance>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, *createInfo, allocator);
  if (instance == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateInstance: allocation failed");
  VkResult result = VK_SUCCESS;
  try {
    result = instance->Initialize(*createInfo);
  } catch (...) {
    DeleteObject(allocator, instance);
    throw;
  }
  if (result != VK_SUCCESS) {
    DeleteObject(allocator, instance);
    return result;
  }
  *out = ToHandle(instance);
  return VK_SUCCESS;
}

void Instance::Destroy() {
  const VkAllocationCallbacks* callbacks = allocator();
  VkAllocationCallbacks copy{};
  if (callbacks != nullptr) copy = *callbacks;
  DeleteObject(callbacks != nullptr ? &copy : nullptr, this);
}

VkResult Instance::Initialize(const VkInstanceCreateInfo& createInfo) {
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount; ++i) {
    const char* name = createInfo.ppEnabledExtensionNames[i];
    std::span<const VkExtensionProperties> known = InstanceExtensions();
    if (std::none_of(known.begin(), known.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; }))
      return ReportError(VK_ERROR_EXTENSION_NOT_PRESENT, "vkCreateInstance: instance extension %s is not supported",
                         name);
    enabledExtensions_.emplace_back(name);
  }
  // "If apiVersion is 0 the implementation must ignore it" and treat it as 1.0 (VkApplicationInfo). Since loader
  // interface 5 the driver must accept any version; it then behaves as the lower of the two.
  uint32_t requested = requestedApiVersion_ == 0 ? VK_API_VERSION_1_0 : requestedApiVersion_;
  apiVersion_ = std::min(VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(requested), VK_API_VERSION_MINOR(requested), 0),
                         kCompleteInstanceApiVersion);

  ConfigurationResult config;
  bool loaded = LoadConfiguration(config);
  config.diagnostics.Log();
  if (!loaded)
    return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                       "vkCreateInstance: the configuration could not be loaded (see the messages above)");
  faultPlan_ = std::move(config.plan);
  executionOptions_ = config.execution;
  dumpOptions_ = config.dump;
  presentationOptions_ = config.presentation;
  physicalDevices_.reserve(config.devices.size());
  for (size_t i = 0; i < config.devices.size(); ++i) {
    auto* device = NewObject<PhysicalDevice>(allocator(), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE, *this,
                                             std::move(config.devices[i]), static_cast<uint32_t>(i));
    if (device == nullptr)
      return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateInstance: allocation of a physical device failed");
    physicalDevices_.push_back(device);
  }
  CT_INFO("instance created: application '%s', API %u.%u, %zu physical device(s)", applicationName_.c_str(),
          VK_API_VERSION_MAJOR(apiVersion_), VK_API_VERSION_MINOR(apiVersion_), physicalDevices_.size());
  return VK_SUCCESS;
}

bool Instance::IsExtensionEnabled(std::string_view name) const {
  return std::find(enabledExtensions_.begin(), enabledExtensions_.end(), name) != enabledExtensions_.end();
}

}  // namespace crashtest
