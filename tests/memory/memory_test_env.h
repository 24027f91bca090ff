// Shared setup of the memory-area tests: an instance and a device through the real loader, with every device
// extension of the memory area that the device advertises enabled, and small helpers.
//
// Test-only accessors: non-dispatchable handles are crashtest object pointers (no layers run in these tests), so
// the tests read an object's state through its header (e.g. FromHandle(set)->Find(...)) to check what no Vulkan
// query returns. Only per-object state is read that way: process-wide state (the address registry) lives in the
// driver's own copy of the code.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../icd/vk_test_env.h"

namespace crashtest::test {

class MemoryTest : public ::testing::Test {
 protected:
  // The extensions tests use when the device advertises them (the lead enables them in driver_capabilities as
  // they land); tests of commands newer than the device's version skip without them.
  static constexpr const char* kWantedExtensions[] = {
      "VK_KHR_bind_memory2",         "VK_KHR_get_memory_requirements2", "VK_KHR_dedicated_allocation",
      "VK_KHR_buffer_device_address", "VK_KHR_maintenance1",            "VK_KHR_maintenance3",
      "VK_KHR_descriptor_update_template", "VK_EXT_memory_budget",     "VK_KHR_maintenance4",
      "VK_EXT_inline_uniform_block", "VK_EXT_descriptor_indexing",
  };

  void SetUp() override { Open(""); }
  void TearDown() override { Close(); }

  void Open(const std::string& configFile, const VkAllocationCallbacks* allocator = nullptr) {
    ScopedConfig config(configFile);
    instance_ = CreateInstance(VK_API_VERSION_1_3, {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    physical_ = PhysicalDevices(instance_).at(0);
    vkGetPhysicalDeviceProperties(physical_, &properties_);
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &count, available.data());
    for (const char* wanted : kWantedExtensions)
      for (const VkExtensionProperties& e : available)
        if (std::strcmp(e.extensionName, wanted) == 0) enabled_.push_back(wanted);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    // bufferDeviceAddress is enabled when the device supports it (the driver advertises it once it works).
    VkPhysicalDeviceBufferDeviceAddressFeatures bda{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &bda};
    vkGetPhysicalDeviceFeatures2(physical_, &features);
    bda.bufferDeviceAddressCaptureReplay = VK_FALSE;
    bda.bufferDeviceAddressMultiDevice = VK_FALSE;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    if (bda.bufferDeviceAddress) info.pNext = &bda;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<uint32_t>(enabled_.size());
    info.ppEnabledExtensionNames = enabled_.data();
    ASSERT_EQ(vkCreateDevice(physical_, &info, allocator, &device_), VK_SUCCESS);
  }

  void Close() {
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    device_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
    enabled_.clear();
  }

  bool HasExtension(const char* name) const {
    return std::any_of(enabled_.begin(), enabled_.end(), [&](const char* e) { return std::strcmp(e, name) == 0; });
  }

  // A device command by its core name, else by its alias of an enabled extension; nullptr when neither.
  template <typename Fn>
  Fn Proc(const char* core, const char* alias = nullptr) const {
    auto fn = vkGetDeviceProcAddr(device_, core);
    if (fn == nullptr && alias != nullptr) fn = vkGetDeviceProcAddr(device_, alias);
    return reinterpret_cast<Fn>(fn);
  }

  // The first memory type in `bits` with all of `flags`; UINT32_MAX when none.
  uint32_t FindType(uint32_t bits, VkMemoryPropertyFlags flags) const {
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return UINT32_MAX;
  }

  VkDeviceMemory Allocate(VkDeviceSize size, uint32_t type, const void* pNext = nullptr,
                          VkResult* result = nullptr) {
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, pNext, size, type};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkResult r = vkAllocateMemory(device_, &info, nullptr, &memory);
    if (result != nullptr) *result = r;
    return memory;
  }

  VkBuffer CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBuffer(device_, &info, nullptr, &buffer), VK_SUCCESS);
    return buffer;
  }

  VkImage CreateImage(VkFormat format, VkExtent3D extent, uint32_t mips = 1, uint32_t layers = 1,
                      VkImageTiling tiling = VK_IMAGE_TILING_LINEAR,
                      VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = extent.depth > 1 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = extent;
    info.mipLevels = mips;
    info.arrayLayers = layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = tiling;
    info.usage = usage;
    VkImage image = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImage(device_, &info, nullptr, &image), VK_SUCCESS);
    return image;
  }

  // Host-visible memory sized for the buffer, bound at offset 0.
  VkDeviceMemory BindNewMemory(VkBuffer buffer, VkMemoryPropertyFlags flags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device_, buffer, &requirements);
    VkDeviceMemory memory = Allocate(requirements.size, FindType(requirements.memoryTypeBits, flags));
    EXPECT_EQ(vkBindBufferMemory(device_, buffer, memory, 0), VK_SUCCESS);
    return memory;
  }
  VkDeviceMemory BindNewMemory(VkImage image) {
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device_, image, &requirements);
    VkDeviceMemory memory = Allocate(requirements.size, FindType(requirements.memoryTypeBits, 0));
    EXPECT_EQ(vkBindImageMemory(device_, image, memory, 0), VK_SUCCESS);
    return memory;
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  std::vector<const char*> enabled_;
};

// The small-heaps device of tests/memory/data: 1 MiB device-local heap, 2 MiB host heap, 8 allocations, 4 samplers.
class SmallHeapsTest : public MemoryTest {
 protected:
  void SetUp() override { Open("small_heaps_config.json"); }
};

}  // namespace crashtest::test
