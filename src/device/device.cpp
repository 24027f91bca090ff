#include "device/device.h"

#include <algorithm>
#include <cstring>

#include "common/allocation.h"
#include "common/log.h"
#include "common/pnext.h"
#include "common/result.h"
#include "common/struct_types.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "fault/dump/dump_file.h"
#include "fault/fault_engine.h"
#include "queue/device_execution.h"
#include "queue/loss_description.h"
#include "queue/queue.h"
#include "profile/struct_table.h"
#include "wsi/loss_captures.h"

namespace crashtest {

namespace {

bool ReadBool32(const void* structBytes, const MemberInfo& member) {
  VkBool32 value;
  std::memcpy(&value, static_cast<const std::byte*>(structBytes) + member.offset, sizeof(value));
  return value != VK_FALSE;
}

// Returns the first VkBool32 member requested but not supported, or nullptr. `supported` may be nullptr (the
// device does not know the struct at all: nothing in it is supported).
const MemberInfo* FirstUnsupportedFeature(const StructInfo& info, const void* requested, const void* supported) {
  for (const MemberInfo& member : info.members) {
    if (member.kind != MemberKind::Bool32 || member.arrayLength != 0) continue;
    if (ReadBool32(requested, member) && (supported == nullptr || !ReadBool32(supported, member))) return &member;
  }
  return nullptr;
}

}  // namespace

Device::Device(PhysicalDevice& physicalDevice, const VkAllocationCallbacks* allocator)
    : DispatchableObject(VK_OBJECT_TYPE_DEVICE),
      physicalDevice_(physicalDevice),
      faults_(std::make_unique<FaultEngine>()),
      lossCaptures_(std::make_unique<wsi::LossCaptures>()) {
  if (allocator != nullptr) {
    hasAllocator_ = true;
    allocator_ = *allocator;
  }
}

Device::~Device() {
  // The engine's timer may lose the device, which wakes the queues' waiters: stop it before the queues go.
  faults_->Shutdown();
  for (Queue* queue : queues_) DeleteObject(allocator(), queue);
  // The workers are gone: nothing reads what the application destroyed while they ran.
  deferred_.DestroyAll();
}

VkResult Device::Create(PhysicalDevice& physicalDevice, const VkDeviceCreateInfo& createInfo,
                        const VkAllocationCallbacks* allocator, VkDevice* out) {
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, physicalDevice.instance().allocator());
  auto* device = NewObject<Device>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, physicalDevice, callbacks);
  if (device == nullptr) return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDevice: allocation failed");
  VkResult result;
  try {
    result = device->Initialize(createInfo);
  } catch (...) {
    DeleteObject(callbacks, device);
    throw;
  }
  if (result != VK_SUCCESS) {
    DeleteObject(callbacks, device);
    return result;
  }
  *out = ToHandle(device);
  return VK_SUCCESS;
}

void Device::Destroy(const VkAllocationCallbacks* allocator) {
  VkAllocationCallbacks copy{};
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, this->allocator());
  if (callbacks != nullptr) {
    copy = *callbacks;
    callbacks = &copy;
  }
  DeleteObject(callbacks, this);
}

VkResult Device::Initialize(const VkDeviceCreateInfo& createInfo) {
  apiVersion_ = std::min(physicalDevice_.instance().apiVersion(),
                         VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(physicalDevice_.apiVersion()),
                                             VK_API_VERSION_MINOR(physicalDevice_.apiVersion()), 0));
  VkResult result = EnableExtensions(createInfo);
  if (result == VK_SUCCESS) result = EnableFeatures(createInfo);
  if (result == VK_SUCCESS) CreateFaultEngine(createInfo);
  if (result == VK_SUCCESS) result = CreateQueues(createInfo);
  if (result == VK_SUCCESS) faults_->Start();  // "afterMs" counts from here
  if (result == VK_SUCCESS)
    CT_INFO("device created on '%s': %zu extension(s), %zu queue(s)",
            physicalDevice_.description().properties.deviceName, enabledExtensions_.size(), queues_.size());
  return result;
}

VkResult Device::EnableExtensions(const VkDeviceCreateInfo& createInfo) {
  const DeviceDescription& description = physicalDevice_.description();
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount; ++i) {
    const char* name = createInfo.ppEnabledExtensionNames[i];
    if (!description.HasExtension(name))
      return ReportError(VK_ERROR_EXTENSION_NOT_PRESENT,
                         "vkCreateDevice: device extension %s is not supported by '%s' (see `crashtest devices "
                         "--verbose` for what this device advertises)",
                         name, description.properties.deviceName);
    enabledExtensions_.emplace_back(name);
  }
  return VK_SUCCESS;
}

VkResult Device::EnableFeatures(const VkDeviceCreateInfo& createInfo) {
  const DeviceDescription& description = physicalDevice_.description();
  const VkPhysicalDeviceFeatures* base = createInfo.pEnabledFeatures;
  if (const auto* features2 = FindInChain<VkPhysicalDeviceFeatures2>(createInfo.pNext)) base = &features2->features;
  if (base != nullptr) {
    const StructInfo* info = FindStruct("VkPhysicalDeviceFeatures");
    if (const MemberInfo* missing = FirstUnsupportedFeature(*info, base, &description.features))
      return ReportError(VK_ERROR_FEATURE_NOT_PRESENT,
                         "vkCreateDevice: feature VkPhysicalDeviceFeatures.%.*s is not supported by '%s'",
                         static_cast<int>(missing->name.size()), missing->name.data(),
                         description.properties.deviceName);
    enabledFeatures_ = *base;
  }
  VkResult result = VK_SUCCESS;
  ForEachInChain(createInfo.pNext, [&](const VkBaseInStructure* s) {
    if (result != VK_SUCCESS || s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) return;
    const StructInfo* info = FindStruct(s->sType);
    if (info == nullptr || info->role != StructRole::Features) return;  // not a feature struct
    const StructBlob* supported = description.FindFeatures(s->sType);
    if (const MemberInfo* missing = FirstUnsupportedFeature(*info, s, supported ? supported->data() : nullptr)) {
      result = ReportError(VK_ERROR_FEATURE_NOT_PRESENT, "vkCreateDevice: feature %.*s.%.*s is not supported by '%s'",
                           static_cast<int>(info->name.size()), info->name.data(),
                           static_cast<int>(missing->name.size()), missing->name.data(),
                           description.properties.deviceName);
      return;
    }
    StructBlob blob;
    blob.bytes.assign(reinterpret_cast<const std::byte*>(s), reinterpret_cast<const std::byte*>(s) + info->size);
    reinterpret_cast<VkBaseOutStructure*>(blob.data())->pNext = nullptr;
    enabledFeatureStructs_[s->sType] = std::move(blob);
  });
  return result;
}

VkResult Device::CreateQueues(const VkDeviceCreateInfo& createInfo) {
  const auto& families = physicalDevice_.description().queueFamilies;
  for (uint32_t i = 0; i < createInfo.queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = createInfo.pQueueCreateInfos[i];
    // VUID-VkDeviceQueueCreateInfo-queueFamilyIndex-00381 / -queueCount-00382: misuse the driver can detect.
    if (q.queueFamilyIndex >= families.size())
      return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                         "vkCreateDevice: pQueueCreateInfos[%u].queueFamilyIndex %u is out of range (%zu families)", i,
                         q.queueFamilyIndex, families.size());
    const VkQueueFamilyProperties& family = families[q.queueFamilyIndex];
    if (q.queueCount == 0 || q.queueCount > family.queueCount)
      return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                         "vkCreateDevice: pQueueCreateInfos[%u].queueCount %u is not in 1..%u for family %u", i,
                         q.queueCount, family.queueCount, q.queueFamilyIndex);
    if ((q.flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT) != 0 && (family.queueFlags & VK_QUEUE_PROTECTED_BIT) == 0)
      return ReportError(VK_ERROR_INITIALIZATION_FAILED,
                         "vkCreateDevice: pQueueCreateInfos[%u] asks for protected queues of family %u, which has "
                         "none",
                         i, q.queueFamilyIndex);
    for (uint32_t index = 0; index < q.queueCount; ++index) {
      float priority = q.pQueuePriorities != nullptr ? q.pQueuePriorities[index] : 1.0f;
      auto* queue = NewObject<Queue>(allocator(), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, *this, q.queueFamilyIndex,
                                     index, q.flags, priority);
      if (queue == nullptr)
        return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDevice: allocation of a queue failed");
      queues_.push_back(queue);
    }
  }
  return VK_SUCCESS;
}

void Device::CreateFaultEngine(const VkDeviceCreateInfo& createInfo) {
  FaultEngine::Setup setup;
  const Instance& instance = physicalDevice_.instance();
  setup.faults = instance.faultPlan().ForDevice(physicalDevice_.index());
  setup.capacity = physicalDevice_.description().maxDeviceFaultCount;
  // VkPhysicalDeviceFaultFeaturesKHR is not in the 1.3.239 registry, so the generic feature code skips it: read
  // it here (and deviceFaultVendorBinary of the EXT struct, which VK_EXT_device_fault uses alone).
  ForEachInChain(createInfo.pNext, [&](const VkBaseInStructure* s) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR) {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceFaultFeaturesKHR*>(s);
      setup.features.reportMasked = f->deviceFaultReportMasked != VK_FALSE;
      setup.features.lostOnMasked = f->deviceFaultDeviceLostOnMasked != VK_FALSE;
      setup.features.vendorBinary |= f->deviceFaultVendorBinary != VK_FALSE;
    } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT) {
      const auto* f = reinterpret_cast<const VkPhysicalDeviceFaultFeaturesEXT*>(s);
      setup.features.vendorBinary |= f->deviceFaultVendorBinary != VK_FALSE;
    }
  });
  const VkPhysicalDeviceProperties& properties = physicalDevice_.description().properties;
  setup.identity.vendorID = properties.vendorID;
  setup.identity.deviceID = properties.deviceID;
  setup.identity.driverVersion = properties.driverVersion;
  std::memcpy(setup.identity.pipelineCacheUUID.data(), properties.pipelineCacheUUID, VK_UUID_SIZE);
  setup.identity.applicationName = instance.applicationName();
  setup.identity.engineName = instance.engineName();
  setup.identity.applicationVersion = instance.applicationVersion();
  setup.identity.engineVersion = instance.engineVersion();
  setup.identity.apiVersion = instance.requestedApiVersion();
  // Every waiter of the device (fences, semaphores, events, queries, idle waits) wakes and sees the loss.
  setup.onLost = [this](const std::function<void()>& publish) {
    if (queues_.empty()) {
      publish();
    } else {
      ExecutionOf(*this).MarkLost(publish);
    }
  };
  setup.describe = [this](std::span<const FaultReport> reports, const std::string& faultId, dump::Content& content) {
    DescribeLoss(*this, reports, faultId, content);
  };
  setup.dumpDirectory = dump::DumpDirectory(instance.dumpOptions().directory);
  setup.dumpSizeLimit = instance.dumpOptions().sizeLimit;
  setup.deviceIndex = physicalDevice_.index();
  faults_ = std::make_unique<FaultEngine>(std::move(setup));
}

bool Device::IsExtensionEnabled(std::string_view name) const {
  return std::find(enabledExtensions_.begin(), enabledExtensions_.end(), name) != enabledExtensions_.end();
}

const StructBlob* Device::FindEnabledFeatures(VkStructureType sType) const {
  auto it = enabledFeatureStructs_.find(sType);
  return it == enabledFeatureStructs_.end() ? nullptr : &it->second;
}

Queue* Device::FindQueue(uint32_t familyIndex, uint32_t index, VkDeviceQueueCreateFlags flags) const {
  for (Queue* queue : queues_)
    if (queue->familyIndex() == familyIndex && queue->index() == index && queue->flags() == flags) return queue;
  return nullptr;
}

}  // namespace crashtest
