#include "vk_context.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "device_fault_khr.h"

namespace crashtest::bench {
namespace {

constexpr const char* kProperties2Extension = "VK_KHR_get_physical_device_properties2";
constexpr const char* kPipelineExecutableExtension = "VK_KHR_pipeline_executable_properties";

bool has_instance_extension(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()) < VK_SUCCESS) return false;
  return std::any_of(extensions.begin(), extensions.begin() + count,
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<std::string> device_extensions(VkPhysicalDevice physical_device) {
  uint32_t count = 0;
  std::vector<std::string> names;
  if (vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) return names;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()) < VK_SUCCESS) {
    return names;
  }
  for (uint32_t i = 0; i < count; ++i) names.emplace_back(extensions[i].extensionName);
  return names;
}

// Picks the first family that can run compute work, preferring one that also does graphics (pipeline suite).
std::optional<uint32_t> pick_queue_family(VkPhysicalDevice physical_device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device, &count, families.data());
  std::optional<uint32_t> compute_only;
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueCount == 0) continue;
    const VkQueueFlags flags = families[i].queueFlags;
    if ((flags & VK_QUEUE_GRAPHICS_BIT) && (flags & VK_QUEUE_COMPUTE_BIT)) return i;
    if ((flags & VK_QUEUE_COMPUTE_BIT) && !compute_only) compute_only = i;
  }
  return compute_only;
}

// Shader features corpus kernels commonly rely on; enabled only where supported. robustBufferAccess stays off on
// purpose: it slows real drivers' shaders and no workload here needs it.
VkPhysicalDeviceFeatures shader_features(const VkPhysicalDeviceFeatures& supported) {
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = supported.shaderInt64;
  enabled.shaderInt16 = supported.shaderInt16;
  enabled.shaderFloat64 = supported.shaderFloat64;
  enabled.fragmentStoresAndAtomics = supported.fragmentStoresAndAtomics;
  enabled.vertexPipelineStoresAndAtomics = supported.vertexPipelineStoresAndAtomics;
  enabled.shaderStorageImageReadWithoutFormat = supported.shaderStorageImageReadWithoutFormat;
  enabled.shaderStorageImageWriteWithoutFormat = supported.shaderStorageImageWriteWithoutFormat;
  enabled.shaderImageGatherExtended = supported.shaderImageGatherExtended;
  return enabled;
}

}  // namespace

std::string result_name(VkResult result) {
  switch (result) {
#define CRASHTEST_BENCH_RESULT(name) \
  case name:                         \
    return #name;
    CRASHTEST_BENCH_RESULT(VK_SUCCESS)
    CRASHTEST_BENCH_RESULT(VK_NOT_READY)
    CRASHTEST_BENCH_RESULT(VK_TIMEOUT)
    CRASHTEST_BENCH_RESULT(VK_INCOMPLETE)
    CRASHTEST_BENCH_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    CRASHTEST_BENCH_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CRASHTEST_BENCH_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    CRASHTEST_BENCH_RESULT(VK_ERROR_DEVICE_LOST)
    CRASHTEST_BENCH_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    CRASHTEST_BENCH_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    CRASHTEST_BENCH_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    CRASHTEST_BENCH_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    CRASHTEST_BENCH_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    CRASHTEST_BENCH_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    CRASHTEST_BENCH_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CRASHTEST_BENCH_RESULT(VK_ERROR_FRAGMENTED_POOL)
    CRASHTEST_BENCH_RESULT(VK_ERROR_UNKNOWN)
    CRASHTEST_BENCH_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    CRASHTEST_BENCH_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef CRASHTEST_BENCH_RESULT
    default:
      return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  }
}

std::string call_failed(const char* call, VkResult result) {
  return std::string("error: ") + call + " returned " + result_name(result);
}

std::unique_ptr<VkContext> VkContext::Create(DeviceFlavor flavor, std::string* error) {
  std::unique_ptr<VkContext> ctx(new VkContext());

  // Ask for the loader's version (capped at the headers' 1.3) so corpus SPIR-V targeting Vulkan 1.1+ is legal where
  // the device allows it; the loader hands a 1.0-only ICD apiVersion 1.0. Only 1.0 entry points are called.
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS) loader_version = VK_API_VERSION_1_0;
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "crashtest-bench";
  app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  const bool have_properties2 = has_instance_extension(kProperties2Extension);
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pApplicationInfo = &app;
  instance_info.enabledExtensionCount = have_properties2 ? 1 : 0;
  instance_info.ppEnabledExtensionNames = &kProperties2Extension;
  VkResult result = vkCreateInstance(&instance_info, nullptr, &ctx->instance_);
  if (result != VK_SUCCESS) {
    ctx->instance_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateInstance", result) + " (is VK_ICD_FILENAMES a loadable manifest?)";
    return nullptr;
  }

  uint32_t count = 1;
  result = vkEnumeratePhysicalDevices(ctx->instance_, &count, &ctx->physical_device_);
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) {
    *error = count == 0 ? std::string("error: vkEnumeratePhysicalDevices found no device")
                        : call_failed("vkEnumeratePhysicalDevices", result);
    return nullptr;
  }
  vkGetPhysicalDeviceProperties(ctx->physical_device_, &ctx->properties_);
  vkGetPhysicalDeviceFeatures(ctx->physical_device_, &ctx->features_);
  vkGetPhysicalDeviceMemoryProperties(ctx->physical_device_, &ctx->memory_properties_);
  const std::optional<uint32_t> family = pick_queue_family(ctx->physical_device_);
  if (!family) {
    *error = "error: the device has no queue family with VK_QUEUE_COMPUTE_BIT";
    return nullptr;
  }
  ctx->queue_family_ = *family;

  const std::vector<std::string> available = device_extensions(ctx->physical_device_);
  auto offered = [&](const char* name) { return std::find(available.begin(), available.end(), name) != available.end(); };
  auto features2 = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2KHR>(
      have_properties2 ? vkGetInstanceProcAddr(ctx->instance_, "vkGetPhysicalDeviceFeatures2KHR") : nullptr);

  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_features{};
  executable_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  PhysicalDeviceFaultFeatures fault_features{};
  fault_features.sType = kStructurePhysicalDeviceFaultFeatures;
  void* device_pnext = nullptr;
  std::vector<const char*> extensions;
  if (flavor == DeviceFlavor::kPipelineStatistics && features2 && offered(kPipelineExecutableExtension)) {
    VkPhysicalDeviceFeatures2 query{};
    query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    query.pNext = &executable_features;
    features2(ctx->physical_device_, &query);
    if (executable_features.pipelineExecutableInfo) {
      executable_features.pNext = nullptr;
      device_pnext = &executable_features;
      extensions.push_back(kPipelineExecutableExtension);
    }
  }
  if (flavor == DeviceFlavor::kDeviceFault && features2 && offered(kDeviceFaultExtensionName)) {
    VkPhysicalDeviceFeatures2 query{};
    query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    query.pNext = &fault_features;
    features2(ctx->physical_device_, &query);
    if (fault_features.deviceFault) {
      // Masked faults keep the device alive, which is what lets a benchmark inject many of them.
      fault_features.pNext = nullptr;
      fault_features.deviceFaultVendorBinary = VK_FALSE;
      fault_features.deviceFaultDeviceLostOnMasked = VK_FALSE;
      ctx->masked_fault_reports_ = fault_features.deviceFaultReportMasked == VK_TRUE;
      device_pnext = &fault_features;
      extensions.push_back(kDeviceFaultExtensionName);
    }
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = ctx->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  const VkPhysicalDeviceFeatures enabled_features = shader_features(ctx->features_);
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.pNext = device_pnext;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  device_info.ppEnabledExtensionNames = extensions.data();
  device_info.pEnabledFeatures = &enabled_features;
  result = vkCreateDevice(ctx->physical_device_, &device_info, nullptr, &ctx->device_);
  if (result != VK_SUCCESS) {
    ctx->device_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateDevice", result);
    return nullptr;
  }
  for (const char* name : extensions) ctx->enabled_extensions_.emplace_back(name);

  // Resolve through the driver, not the loader's trampolines, so NULL means "not implemented" and calls measure the
  // driver rather than one extra indirection. Caveat: the loader answers vkGetDeviceQueue, vkAllocateCommandBuffers
  // and vkDestroyDevice itself (it must patch dispatch pointers), so those are never NULL here; suites check a
  // sibling command the driver does answer (vkCreateCommandPool, vkBeginCommandBuffer) before using them.
#define CRASHTEST_BENCH_LOAD(name) \
  ctx->commands_.name = reinterpret_cast<PFN_##name>(ctx->proc(#name));
  CRASHTEST_BENCH_DEVICE_COMMANDS(CRASHTEST_BENCH_LOAD)
#undef CRASHTEST_BENCH_LOAD
  ctx->destroy_device_ = reinterpret_cast<PFN_vkDestroyDevice>(vkGetDeviceProcAddr(ctx->device_, "vkDestroyDevice"));
  if (!ctx->commands_.vkGetDeviceQueue) {
    *error = "error: vkGetDeviceProcAddr(vkGetDeviceQueue) returned NULL";
    return nullptr;
  }
  ctx->commands_.vkGetDeviceQueue(ctx->device_, ctx->queue_family_, 0, &ctx->queue_);
  return ctx;
}

VkContext::~VkContext() {
  if (device_ != VK_NULL_HANDLE) {
    // No vkDeviceWaitIdle: every suite waits for its submission's fence, so nothing is pending here, and RADV's
    // GPU-less null device (RADV_FORCE_FAMILY) crashes in it.
    if (destroy_device_) destroy_device_(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

bool VkContext::extension_enabled(std::string_view name) const {
  return std::find(enabled_extensions_.begin(), enabled_extensions_.end(), name) != enabled_extensions_.end();
}

PFN_vkVoidFunction VkContext::proc(const char* name) const {
  return vkGetDeviceProcAddr(device_, name);
}

std::string VkContext::missing(std::initializer_list<const char*> names) const {
  for (const char* name : names) {
    if (!proc(name)) return std::string("unsupported: ") + name + " is not provided by the driver";
  }
  return {};
}

std::optional<uint32_t> VkContext::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory_properties_.memoryTypes[i].propertyFlags & required) == required) return i;
  }
  return std::nullopt;
}

namespace {
std::array<std::unique_ptr<ContextCache::Entry>, 3>& cached_entries() {
  static std::array<std::unique_ptr<ContextCache::Entry>, 3> entries;
  return entries;
}
}  // namespace

const ContextCache::Entry& ContextCache::get(DeviceFlavor flavor) {
  std::unique_ptr<Entry>& slot = cached_entries()[static_cast<size_t>(flavor)];
  if (!slot) {
    slot = std::make_unique<Entry>();
    slot->context = VkContext::Create(flavor, &slot->error);
  }
  return *slot;
}

void ContextCache::release_all() {
  for (std::unique_ptr<Entry>& slot : cached_entries()) slot.reset();
}

std::unique_ptr<HostBuffer> HostBuffer::Create(const VkContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage,
                                               std::string* error) {
  *error = ctx.missing({"vkCreateBuffer", "vkGetBufferMemoryRequirements", "vkAllocateMemory", "vkBindBufferMemory",
                        "vkMapMemory", "vkDestroyBuffer", "vkFreeMemory"});
  if (!error->empty()) return nullptr;
  const DeviceCommands& vk = ctx.vk();
  std::unique_ptr<HostBuffer> buffer(new HostBuffer(ctx));
  buffer->size_ = size;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult result = vk.vkCreateBuffer(ctx.device(), &info, nullptr, &buffer->buffer_);
  if (result != VK_SUCCESS) {
    buffer->buffer_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateBuffer", result);
    return nullptr;
  }
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(ctx.device(), buffer->buffer_, &requirements);
  const auto type = ctx.find_memory_type(requirements.memoryTypeBits,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (!type) {
    *error = "unsupported: no host-visible, host-coherent memory type for a buffer";
    return nullptr;
  }
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  result = vk.vkAllocateMemory(ctx.device(), &allocate, nullptr, &buffer->memory_);
  if (result != VK_SUCCESS) {
    buffer->memory_ = VK_NULL_HANDLE;
    *error = call_failed("vkAllocateMemory", result);
    return nullptr;
  }
  result = vk.vkBindBufferMemory(ctx.device(), buffer->buffer_, buffer->memory_, 0);
  if (result != VK_SUCCESS) {
    *error = call_failed("vkBindBufferMemory", result);
    return nullptr;
  }
  result = vk.vkMapMemory(ctx.device(), buffer->memory_, 0, VK_WHOLE_SIZE, 0, &buffer->mapped_);
  if (result != VK_SUCCESS) {
    buffer->mapped_ = nullptr;
    *error = call_failed("vkMapMemory", result);
    return nullptr;
  }
  return buffer;
}

HostBuffer::~HostBuffer() {
  const DeviceCommands& vk = ctx_.vk();
  if (buffer_ != VK_NULL_HANDLE) vk.vkDestroyBuffer(ctx_.device(), buffer_, nullptr);
  // Freeing mapped memory implicitly unmaps it (vkFreeMemory), so vkUnmapMemory is not required.
  if (memory_ != VK_NULL_HANDLE) vk.vkFreeMemory(ctx_.device(), memory_, nullptr);
}

std::unique_ptr<CommandRig> CommandRig::Create(const VkContext& ctx, std::string* error) {
  // vkAllocateCommandBuffers is answered by the loader (see VkContext::Create), so its driver siblings stand in.
  *error = ctx.missing({"vkCreateCommandPool", "vkDestroyCommandPool", "vkBeginCommandBuffer", "vkEndCommandBuffer",
                        "vkCreateFence", "vkDestroyFence", "vkResetFences", "vkWaitForFences", "vkQueueSubmit"});
  if (!error->empty()) return nullptr;
  const DeviceCommands& vk = ctx.vk();
  std::unique_ptr<CommandRig> rig(new CommandRig(ctx));
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = ctx.queue_family();
  VkResult result = vk.vkCreateCommandPool(ctx.device(), &pool_info, nullptr, &rig->pool_);
  if (result != VK_SUCCESS) {
    rig->pool_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateCommandPool", result);
    return nullptr;
  }
  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = rig->pool_;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  result = vk.vkAllocateCommandBuffers(ctx.device(), &allocate, &rig->command_buffer_);
  if (result != VK_SUCCESS) {
    *error = call_failed("vkAllocateCommandBuffers", result);
    return nullptr;
  }
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  result = vk.vkCreateFence(ctx.device(), &fence_info, nullptr, &rig->fence_);
  if (result != VK_SUCCESS) {
    rig->fence_ = VK_NULL_HANDLE;
    *error = call_failed("vkCreateFence", result);
    return nullptr;
  }
  return rig;
}

CommandRig::~CommandRig() {
  const DeviceCommands& vk = ctx_.vk();
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(ctx_.device(), fence_, nullptr);
  // Destroying the pool frees its command buffers.
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(ctx_.device(), pool_, nullptr);
}

VkResult CommandRig::submit_and_wait() const {
  const DeviceCommands& vk = ctx_.vk();
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer_;
  VkResult result = vk.vkQueueSubmit(ctx_.queue(), 1, &submit, fence_);
  if (result != VK_SUCCESS) return result;
  result = vk.vkWaitForFences(ctx_.device(), 1, &fence_, VK_TRUE, UINT64_MAX);
  if (result != VK_SUCCESS) return result;
  return vk.vkResetFences(ctx_.device(), 1, &fence_);
}

}  // namespace crashtest::bench
