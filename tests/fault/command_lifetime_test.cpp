// Command buffers and pools freed, reset or destroyed the moment a loss is visible (docs/faults.md, "Device loss";
// docs/execution.md, "Command buffer lifetime"): the queue workers must never read a stream the application has
// already released. Many single-copy command buffers (some executing a secondary) are spread over every queue, a
// loss is injected while the queues are still running them, and the application releases everything at once
// while report readers drain the fault reports. Run under ASan and TSan (scripts/test): before the deferred
// release, ASan caught the workers reading freed command chunks in most runs.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fault_loader_fixture.h"

namespace {

using namespace crashtest::test;

constexpr uint32_t kCommandBuffers = 200;
constexpr VkDeviceSize kCopyBytes = 256 * 1024;

bool Advertises(VkPhysicalDevice gpu, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, extensions.data());
  for (const auto& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// How the application lets go of the command buffers once it has seen the loss.
enum class Release { FreeThenDestroyPools, DestroyPools, ResetBuffersAndRerecord, ResetPoolsAndTrim };

class CommandLifetimeTest : public FaultLoaderTest {
 protected:
  struct Family {
    uint32_t index = 0;
    std::vector<VkQueue> queues;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandPool secondaryPool = VK_NULL_HANDLE;
    std::vector<VkCommandBuffer> primaries;
    std::vector<VkCommandBuffer> secondaries;
  };

  // One round: a fresh device with every queue of every family, the loss injected after half the submits.
  void Round(Release release, uint32_t round) {
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpus_[0], &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> properties(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpus_[0], &familyCount, properties.data());
    std::vector<std::vector<float>> priorities(familyCount);
    std::vector<VkDeviceQueueCreateInfo> queueInfos;
    for (uint32_t f = 0; f < familyCount; ++f) {
      priorities[f].assign(properties[f].queueCount, 1.0f);
      VkDeviceQueueCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
      info.queueFamilyIndex = f;
      info.queueCount = properties[f].queueCount;
      info.pQueuePriorities = priorities[f].data();
      queueInfos.push_back(info);
    }
    const bool faultReports = Advertises(gpus_[0], VK_KHR_DEVICE_FAULT_EXTENSION_NAME);
    VkPhysicalDeviceFaultFeaturesKHR faultFeatures{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR};
    faultFeatures.deviceFault = VK_TRUE;
    const char* extension = VK_KHR_DEVICE_FAULT_EXTENSION_NAME;
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, faultReports ? &faultFeatures : nullptr};
    deviceInfo.queueCreateInfoCount = familyCount;
    deviceInfo.pQueueCreateInfos = queueInfos.data();
    deviceInfo.enabledExtensionCount = faultReports ? 1 : 0;
    deviceInfo.ppEnabledExtensionNames = &extension;
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(gpus_[0], &deviceInfo, nullptr, &device), VK_SUCCESS);
    auto inject = reinterpret_cast<PFN_crashtestInjectFault>(vkGetDeviceProcAddr(device, CRASHTEST_INJECT_FAULT_NAME));
    ASSERT_NE(inject, nullptr);

    uint32_t queueCount = 0;
    for (uint32_t f = 0; f < familyCount; ++f) queueCount += properties[f].queueCount;
    // Two host-visible buffers the copies go between; each queue copies into its own part of the destination (the
    // queues run at once, and unsynchronised writes to the same bytes would be the application's data race).
    VkPhysicalDeviceMemoryProperties memoryProperties{};
    vkGetPhysicalDeviceMemoryProperties(gpus_[0], &memoryProperties);
    uint32_t hostVisible = 0;
    while ((memoryProperties.memoryTypes[hostVisible].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0)
      ++hostVisible;
    VkBuffer buffers[2] = {};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.allocationSize = (1 + queueCount) * kCopyBytes;
    allocateInfo.memoryTypeIndex = hostVisible;
    ASSERT_EQ(vkAllocateMemory(device, &allocateInfo, nullptr, &memory), VK_SUCCESS);
    for (uint32_t i = 0; i < 2; ++i) {
      VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      info.size = i == 0 ? kCopyBytes : queueCount * kCopyBytes;
      info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
      ASSERT_EQ(vkCreateBuffer(device, &info, nullptr, &buffers[i]), VK_SUCCESS);
      ASSERT_EQ(vkBindBufferMemory(device, buffers[i], memory, i * kCopyBytes), VK_SUCCESS);
    }
    // `queue`: the global index of the queue that runs it, which picks the destination part.
    auto record = [&](VkCommandBuffer commandBuffer, VkCommandBufferLevel level, VkCommandBuffer secondary,
                      uint32_t queue) {
      VkBufferCopy region{0, queue * kCopyBytes, kCopyBytes};
      VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      if (level == VK_COMMAND_BUFFER_LEVEL_SECONDARY) begin.pInheritanceInfo = &inheritance;
      ASSERT_EQ(vkBeginCommandBuffer(commandBuffer, &begin), VK_SUCCESS);
      vkCmdCopyBuffer(commandBuffer, buffers[0], buffers[1], 1, &region);
      if (secondary != VK_NULL_HANDLE) vkCmdExecuteCommands(commandBuffer, 1, &secondary);
      ASSERT_EQ(vkEndCommandBuffer(commandBuffer), VK_SUCCESS);
    };

    // The command buffers, spread over the families by their queue counts; every 8th executes a secondary.
    std::vector<Family> families(familyCount);
    std::vector<std::pair<VkQueue, VkCommandBuffer>> work;
    uint32_t firstQueue = 0;  // global index of the family's first queue
    for (uint32_t f = 0; f < familyCount; firstQueue += properties[f].queueCount, ++f) {
      Family& family = families[f];
      family.index = f;
      for (uint32_t q = 0; q < properties[f].queueCount; ++q) {
        VkQueue queue = VK_NULL_HANDLE;
        vkGetDeviceQueue(device, f, q, &queue);
        family.queues.push_back(queue);
      }
      VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
      poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      poolInfo.queueFamilyIndex = f;
      ASSERT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &family.pool), VK_SUCCESS);
      ASSERT_EQ(vkCreateCommandPool(device, &poolInfo, nullptr, &family.secondaryPool), VK_SUCCESS);
      const uint32_t count = kCommandBuffers * properties[f].queueCount / queueCount;
      family.primaries.resize(count);
      family.secondaries.resize((count + 7) / 8);
      VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate.commandPool = family.pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = count;
      ASSERT_EQ(vkAllocateCommandBuffers(device, &allocate, family.primaries.data()), VK_SUCCESS);
      allocate.commandPool = family.secondaryPool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
      allocate.commandBufferCount = static_cast<uint32_t>(family.secondaries.size());
      ASSERT_EQ(vkAllocateCommandBuffers(device, &allocate, family.secondaries.data()), VK_SUCCESS);
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t q = i % static_cast<uint32_t>(family.queues.size());
        if (i % 8 == 0)
          record(family.secondaries[i / 8], VK_COMMAND_BUFFER_LEVEL_SECONDARY, VK_NULL_HANDLE, firstQueue + q);
        record(family.primaries[i], VK_COMMAND_BUFFER_LEVEL_PRIMARY,
               i % 8 == 0 ? family.secondaries[i / 8] : VK_NULL_HANDLE, firstQueue + q);
        work.emplace_back(family.queues[q], family.primaries[i]);
      }
    }
    // Interleave the families so every queue has work queued when the loss comes.
    std::vector<std::pair<VkQueue, VkCommandBuffer>> order;
    for (size_t i = 0; i < work.size(); ++i) order.push_back(work[(i * 7919) % work.size()]);

    // Report readers drain while the loss happens: the one loss is reported exactly once.
    std::atomic<bool> stop{false};
    std::atomic<uint32_t> lostReports{0};
    std::vector<std::thread> readers;
    auto getReports = faultReports ? reinterpret_cast<PFN_vkGetDeviceFaultReportsKHR>(
                                         vkGetDeviceProcAddr(device, "vkGetDeviceFaultReportsKHR"))
                                   : nullptr;
    for (int t = 0; getReports != nullptr && t < 2; ++t)
      readers.emplace_back([&] {
        while (!stop.load()) {
          VkDeviceFaultInfoKHR infos[4];
          for (auto& info : infos) info = {VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_KHR};
          uint32_t count = 4;
          if (getReports(device, 1000000, &count, infos) != VK_SUCCESS) continue;
          for (uint32_t i = 0; i < count; ++i)
            if (infos[i].flags & VK_DEVICE_FAULT_FLAG_DEVICE_LOST_BIT_KHR) lostReports.fetch_add(1);
        }
      });

    uint32_t submitted = 0;
    for (auto [queue, commandBuffer] : order) {
      if (submitted == order.size() / 2) {
        EXPECT_EQ(inject(device, R"({"id": "mid-submission", "effect": "device-lost"})"), VK_ERROR_DEVICE_LOST);
      }
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commandBuffer;
      VkResult result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
      EXPECT_EQ(result, submitted < order.size() / 2 ? VK_SUCCESS : VK_ERROR_DEVICE_LOST) << "submit " << submitted;
      ++submitted;
    }

    // The loss is visible: release everything at once, while the queues may still be in the middle of the work.
    for (Family& family : families) {
      switch (release) {
        case Release::FreeThenDestroyPools:
          vkFreeCommandBuffers(device, family.pool, static_cast<uint32_t>(family.primaries.size()),
                               family.primaries.data());
          vkFreeCommandBuffers(device, family.secondaryPool, static_cast<uint32_t>(family.secondaries.size()),
                               family.secondaries.data());
          break;
        case Release::DestroyPools:
          break;
        case Release::ResetBuffersAndRerecord:
          // Reset and record again: the new streams reuse the pool's chunks, the old ones must not be reused.
          for (VkCommandBuffer secondary : family.secondaries) {
            EXPECT_EQ(vkResetCommandBuffer(secondary, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT), VK_SUCCESS);
            record(secondary, VK_COMMAND_BUFFER_LEVEL_SECONDARY, VK_NULL_HANDLE, 0);
          }
          for (VkCommandBuffer primary : family.primaries) {
            EXPECT_EQ(vkResetCommandBuffer(primary, 0), VK_SUCCESS);
            record(primary, VK_COMMAND_BUFFER_LEVEL_PRIMARY, VK_NULL_HANDLE, 0);
          }
          break;
        case Release::ResetPoolsAndTrim:
          EXPECT_EQ(vkResetCommandPool(device, family.secondaryPool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT),
                    VK_SUCCESS);
          EXPECT_EQ(vkResetCommandPool(device, family.pool, 0), VK_SUCCESS);
          vkTrimCommandPool(device, family.pool, 0);
          break;
      }
      vkDestroyCommandPool(device, family.secondaryPool, nullptr);
      vkDestroyCommandPool(device, family.pool, nullptr);
    }

    // After vkDeviceWaitIdle, even on a lost device, no queue touches anything any more: the buffers and the
    // memory can go too.
    EXPECT_EQ(vkDeviceWaitIdle(device), VK_ERROR_DEVICE_LOST);
    vkDestroyBuffer(device, buffers[0], nullptr);
    vkDestroyBuffer(device, buffers[1], nullptr);
    vkFreeMemory(device, memory, nullptr);
    if (getReports != nullptr) {
      // Wait until a reader has drained the loss's report (or give up after a few seconds).
      for (int i = 0; i < 5000 && lostReports.load() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    stop.store(true);
    for (std::thread& reader : readers) reader.join();
    if (getReports != nullptr) {
      EXPECT_EQ(lostReports.load(), 1u) << "round " << round;
    }
    vkDestroyDevice(device, nullptr);
  }
};

TEST_F(CommandLifetimeTest, CommandBuffersReleasedRightAfterAnInjectedLoss) {
  ASSERT_NO_FATAL_FAILURE(Start("[]"));
  constexpr Release kReleases[] = {Release::FreeThenDestroyPools, Release::DestroyPools,
                                   Release::ResetBuffersAndRerecord, Release::ResetPoolsAndTrim};
  for (uint32_t round = 0; round < 48; ++round) {
    Round(kReleases[round % 4], round);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
