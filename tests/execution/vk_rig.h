// A device of crashtest or lavapipe with VK_KHR_push_descriptor enabled, host-visible buffers and storage images,
// for execution tests that record their own command buffers (push_descriptor_test.cpp,
// storage_multisample_test.cpp).
#pragma once

#include <vulkan/vulkan.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace crashtest::test {

inline constexpr uint32_t kRigWords = 4;

// One device (crashtest or lavapipe) with VK_KHR_push_descriptor enabled, and the objects of the test.
class VkRig {
 public:
  // crashtest: a device offering VK_KHR_device_fault (only crashtest does); else lavapipe. `features`: core features
  // to enable.
  explicit VkRig(VkInstance instance, bool crashtest, const VkPhysicalDeviceFeatures& features = {}) {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties props{};
      vkGetPhysicalDeviceProperties(d, &props);
      uint32_t n = 0;
      vkEnumerateDeviceExtensionProperties(d, nullptr, &n, nullptr);
      std::vector<VkExtensionProperties> exts(n);
      vkEnumerateDeviceExtensionProperties(d, nullptr, &n, exts.data());
      bool fault = false;
      for (const VkExtensionProperties& e : exts) {
        fault = fault || std::string(e.extensionName) == "VK_KHR_device_fault";
        hasPush = hasPush || std::string(e.extensionName) == VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
      }
      if (fault != crashtest || (!crashtest && std::string(props.deviceName).find("llvmpipe") == std::string::npos)) {
        hasPush = false;
        continue;
      }
      physical = d;
      break;
    }
    if (physical == VK_NULL_HANDLE || !hasPush) return;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory_);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = 0;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    const char* extension = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
    info.pEnabledFeatures = &features;
    if (vkCreateDevice(physical, &info, nullptr, &device) != VK_SUCCESS) return;
    vkGetDeviceQueue(device, 0, 0, &queue);
    push = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetKHR"));
    pushTemplate = reinterpret_cast<PFN_vkCmdPushDescriptorSetWithTemplateKHR>(
        vkGetDeviceProcAddr(device, "vkCmdPushDescriptorSetWithTemplateKHR"));
  }
  ~VkRig() {
    if (device == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(device);
    for (auto& [buffer, mem] : buffers_) {
      if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
      vkFreeMemory(device, mem, nullptr);
    }
    for (auto& [image, mem] : images_) {
      vkDestroyImage(device, image, nullptr);
      vkFreeMemory(device, mem, nullptr);
    }
    for (VkImageView v : views_) vkDestroyImageView(device, v, nullptr);
    vkDestroyDevice(device, nullptr);
  }

  uint32_t MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((bits & (1u << i)) != 0 && (memory_.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return 0;
  }
  // A host-visible buffer holding `words`; its memory is mapped into *mapped.
  VkBuffer Buffer(VkBufferUsageFlags usage, const std::vector<uint32_t>& words, uint32_t** mapped) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = words.size() * 4;
    info.usage = usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    vkCreateBuffer(device, &info, nullptr, &buffer);
    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        MemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    vkAllocateMemory(device, &alloc, nullptr, &mem);
    vkBindBufferMemory(device, buffer, mem, 0);
    void* p = nullptr;
    vkMapMemory(device, mem, 0, VK_WHOLE_SIZE, 0, &p);
    std::memcpy(p, words.data(), words.size() * 4);
    *mapped = static_cast<uint32_t*>(p);
    buffers_.push_back({buffer, mem});
    return buffer;
  }
  // Destroys one of the rig's buffers now (its memory stays until the rig goes).
  void DestroyBuffer(VkBuffer buffer) {
    vkDestroyBuffer(device, buffer, nullptr);
    for (auto& [b, mem] : buffers_)
      if (b == buffer) b = VK_NULL_HANDLE;
  }
  // A width x height RGBA32F storage image of `samples` samples and its view.
  VkImage Image(VkImageView* view, uint32_t width = kRigWords, uint32_t height = 1,
                VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_R32G32B32A32_SFLOAT;
    info.extent = {width, height, 1};
    info.mipLevels = info.arrayLayers = 1;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = samples == VK_SAMPLE_COUNT_1_BIT
                     ? VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                     : VK_IMAGE_USAGE_STORAGE_BIT;
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(device, &info, nullptr, &image) != VK_SUCCESS) return VK_NULL_HANDLE;
    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(device, image, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = MemoryType(req.memoryTypeBits, 0);
    VkDeviceMemory mem = VK_NULL_HANDLE;
    vkAllocateMemory(device, &alloc, nullptr, &mem);
    vkBindImageMemory(device, image, mem, 0);
    images_.push_back({image, mem});
    VkImageViewCreateInfo v{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    v.image = image;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = info.format;
    v.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCreateImageView(device, &v, nullptr, view);
    views_.push_back(*view);
    return image;
  }

  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  bool hasPush = false;
  PFN_vkCmdPushDescriptorSetKHR push = nullptr;
  PFN_vkCmdPushDescriptorSetWithTemplateKHR pushTemplate = nullptr;

 private:
  VkPhysicalDeviceMemoryProperties memory_{};
  std::vector<std::pair<VkBuffer, VkDeviceMemory>> buffers_;
  std::vector<std::pair<VkImage, VkDeviceMemory>> images_;
  std::vector<VkImageView> views_;
};

}  // namespace crashtest::test
