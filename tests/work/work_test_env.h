// Shared setup of the work-area tests through the real loader: a device with every queue of every family, the
// optional features crashtest may advertise (timeline semaphores, synchronization2, host query reset, dynamic
// rendering, descriptor indexing) enabled when the device reports them, host-visible buffers, and one-shot command
// buffers.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "vk_test_env.h"

namespace crashtest::test {

// A buffer bound to host-visible, coherent memory that stays mapped.
struct HostBuffer {
  VkDevice device = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  std::byte* mapped = nullptr;
  ~HostBuffer() {
    if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
    if (memory != VK_NULL_HANDLE) vkFreeMemory(device, memory, nullptr);
  }
  template <typename T>
  T At(VkDeviceSize offset) const {
    T value;
    std::memcpy(&value, mapped + offset, sizeof(T));
    return value;
  }
};

class WorkTest : public LoaderTest {
 protected:
  void SetUp() override {
    LoaderTest::SetUp();
    if (HasFatalFailure()) return;
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, nullptr);
    families_.resize(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, families_.data());
    vkGetPhysicalDeviceMemoryProperties(physical_, &memoryProperties_);
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physical_, &properties);
    deviceApiVersion_ = properties.apiVersion;
    limits_ = properties.limits;

    // Ask for every optional feature the device reports.
    timeline_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES;
    sync2_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES;
    sync2_.pNext = &timeline_;
    hostReset_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
    hostReset_.pNext = &sync2_;
    dynamicRendering_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
    dynamicRendering_.pNext = &hostReset_;
    descriptorIndexing_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES;
    descriptorIndexing_.pNext = &dynamicRendering_;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &descriptorIndexing_};
    vkGetPhysicalDeviceFeatures2(physical_, &features);
    features_ = features.features;

    std::vector<std::vector<float>> priorities(familyCount);
    std::vector<VkDeviceQueueCreateInfo> queueInfos;
    for (uint32_t f = 0; f < familyCount; ++f) {
      priorities[f].assign(families_[f].queueCount, 1.0f);
      VkDeviceQueueCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
      info.queueFamilyIndex = f;
      info.queueCount = families_[f].queueCount;
      info.pQueuePriorities = priorities[f].data();
      queueInfos.push_back(info);
    }
    // The extensions that bring the newer commands to a device whose API version is older.
    uint32_t extensionCount = 0;
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extensionCount, nullptr);
    std::vector<VkExtensionProperties> available(extensionCount);
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extensionCount, available.data());
    std::vector<const char*> extensions;
    for (const char* wanted : {VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME,
                               VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME,
                               VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME, VK_KHR_MAINTENANCE1_EXTENSION_NAME,
                               VK_KHR_CREATE_RENDERPASS_2_EXTENSION_NAME, VK_KHR_MULTIVIEW_EXTENSION_NAME,
                               VK_KHR_MAINTENANCE2_EXTENSION_NAME, VK_KHR_DEPTH_STENCIL_RESOLVE_EXTENSION_NAME,
                               VK_AMD_BUFFER_MARKER_EXTENSION_NAME})
      for (const VkExtensionProperties& extension : available)
        if (std::strcmp(extension.extensionName, wanted) == 0) extensions.push_back(wanted);
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.queueCreateInfoCount = familyCount;
    info.pQueueCreateInfos = queueInfos.data();
    ASSERT_EQ(vkCreateDevice(physical_, &info, nullptr, &device_), VK_SUCCESS);
    for (uint32_t f = 0; f < familyCount; ++f)
      for (uint32_t i = 0; i < families_[f].queueCount; ++i) {
        VkQueue queue = VK_NULL_HANDLE;
        vkGetDeviceQueue(device_, f, i, &queue);
        ASSERT_NE(queue, VK_NULL_HANDLE);
        queues_.push_back({queue, f});
      }
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    for (uint32_t f = 0; f < familyCount; ++f) {
      poolInfo.queueFamilyIndex = f;
      VkCommandPool pool = VK_NULL_HANDLE;
      ASSERT_EQ(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool), VK_SUCCESS);
      pools_.push_back(pool);
    }
  }

  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (VkCommandPool pool : pools_) vkDestroyCommandPool(device_, pool, nullptr);
      buffers_.clear();
      vkDestroyDevice(device_, nullptr);
    }
    LoaderTest::TearDown();
  }

  // A device command by its core name or, failing that, its KHR/EXT alias; nullptr when the device offers neither.
  PFN_vkVoidFunction DeviceCommand(const char* name) const {
    if (PFN_vkVoidFunction function = vkGetDeviceProcAddr(device_, name)) return function;
    for (const char* suffix : {"KHR", "EXT"})
      if (PFN_vkVoidFunction function = vkGetDeviceProcAddr(device_, (std::string(name) + suffix).c_str()))
        return function;
    return nullptr;
  }

  bool timelineSupported() const { return timeline_.timelineSemaphore == VK_TRUE && timelineCommandsPresent(); }
  bool timelineCommandsPresent() const {
    return DeviceCommand("vkWaitSemaphores") != nullptr && DeviceCommand("vkSignalSemaphore") != nullptr &&
           DeviceCommand("vkGetSemaphoreCounterValue") != nullptr;
  }

  uint32_t HostMemoryType() const {
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
      if ((memoryProperties_.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    return UINT32_MAX;
  }

  // Binds `memoryRequirements`-sized host-visible memory and maps it.
  HostBuffer* CreateHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT) {
    auto buffer = std::make_unique<HostBuffer>();
    buffer->device = device_;
    buffer->size = size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    EXPECT_EQ(vkCreateBuffer(device_, &info, nullptr, &buffer->buffer), VK_SUCCESS);
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device_, buffer->buffer, &requirements);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = HostMemoryType();
    EXPECT_EQ(vkAllocateMemory(device_, &allocate, nullptr, &buffer->memory), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device_, buffer->buffer, buffer->memory, 0), VK_SUCCESS);
    void* mapped = nullptr;
    EXPECT_EQ(vkMapMemory(device_, buffer->memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
    buffer->mapped = static_cast<std::byte*>(mapped);
    buffers_.push_back(std::move(buffer));
    return buffers_.back().get();
  }

  VkCommandBuffer AllocateCommandBuffer(uint32_t family = 0,
                                        VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pools_[family];
    info.level = level;
    info.commandBufferCount = 1;
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device_, &info, &commandBuffer), VK_SUCCESS);
    return commandBuffer;
  }

  static void Begin(VkCommandBuffer commandBuffer, VkCommandBufferUsageFlags flags = 0) {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = flags;
    ASSERT_EQ(vkBeginCommandBuffer(commandBuffer, &begin), VK_SUCCESS);
  }

  // Submits one command buffer to `queue` with a fence and waits for it.
  VkResult SubmitAndWait(VkQueue queue, VkCommandBuffer commandBuffer) {
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    vkCreateFence(device_, &fenceInfo, nullptr, &fence);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer;
    VkResult result = vkQueueSubmit(queue, 1, &submit, fence);
    if (result == VK_SUCCESS) result = vkWaitForFences(device_, 1, &fence, VK_TRUE, 10'000'000'000ull);
    vkDestroyFence(device_, fence, nullptr);
    return result;
  }

  // Records `record(commandBuffer)` into a fresh command buffer of family 0 and runs it on the first queue.
  template <typename Record>
  void Run(Record&& record) {
    VkCommandBuffer commandBuffer = AllocateCommandBuffer();
    Begin(commandBuffer, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    record(commandBuffer);
    ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
    ASSERT_EQ(SubmitAndWait(queues_[0].queue, commandBuffer), VK_SUCCESS);
    vkFreeCommandBuffers(device_, pools_[0], 1, &commandBuffer);
  }

  struct QueueRef {
    VkQueue queue;
    uint32_t family;
  };

  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t deviceApiVersion_ = 0;
  VkPhysicalDeviceLimits limits_{};
  VkPhysicalDeviceFeatures features_{};
  std::vector<VkQueueFamilyProperties> families_;
  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline_{};
  VkPhysicalDeviceSynchronization2Features sync2_{};
  VkPhysicalDeviceHostQueryResetFeatures hostReset_{};
  VkPhysicalDeviceDynamicRenderingFeatures dynamicRendering_{};
  VkPhysicalDeviceDescriptorIndexingFeatures descriptorIndexing_{};
  std::vector<QueueRef> queues_;
  std::vector<VkCommandPool> pools_;
  std::vector<std::unique_ptr<HostBuffer>> buffers_;
};

}  // namespace crashtest::test
