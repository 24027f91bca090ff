// The fixture of the fault tests through the real loader: a configuration file with a fault plan (written by
// each test, named by CRASHTEST_CONFIG while the test runs), an instance on it, and a logical device with every
// queue of family 0.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <crashtest/crashtest.h>
#include <crashtest/vulkan_compat.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace crashtest::test {

// Writes `json` to a temporary configuration file and points CRASHTEST_CONFIG at it while alive.
class TempConfig {
 public:
  explicit TempConfig(const std::string& json) {
    char name[] = "/tmp/crashtest-fault-config-XXXXXX";
    int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    path_ = name;
    std::ofstream(path_) << json;
    setenv("CRASHTEST_CONFIG", path_.c_str(), 1);
  }
  ~TempConfig() {
    unsetenv("CRASHTEST_CONFIG");
    std::remove(path_.c_str());
  }

 private:
  std::string path_;
};

// `apiVersion`: VkApplicationInfo's, which caps the version of every device the instance creates.
inline VkInstance MakeInstance(VkResult* result = nullptr, const std::vector<const char*>& extensions = {},
                               uint32_t apiVersion = VK_API_VERSION_1_3) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fault-tests";
  app.pEngineName = "gtest";
  app.apiVersion = apiVersion;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&info, nullptr, &instance);
  if (result != nullptr) *result = r;
  return r == VK_SUCCESS ? instance : VK_NULL_HANDLE;
}

// One logical device with every queue of family 0 (or of `family`), timeline semaphores when reported, and (optionally) the
// VK_KHR_device_fault features chained.
struct TestDevice {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::vector<VkQueue> queues;
  bool timeline = false;
  VkPhysicalDeviceMemoryProperties memory{};

  // `extensions` are enabled and `moreFeatures` (a pNext chain of feature structs) chained as given.
  TestDevice(VkPhysicalDevice gpu, const VkPhysicalDeviceFaultFeaturesKHR* faultFeatures = nullptr,
             const std::vector<const char*>& extensions = {}, void* moreFeatures = nullptr, uint32_t family = 0)
      : physical(gpu) {
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, families.data());
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    VkPhysicalDeviceTimelineSemaphoreFeatures timelineFeatures{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &timelineFeatures};
    vkGetPhysicalDeviceFeatures2(physical, &features);
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(physical, &properties);
    // vkWaitSemaphores / vkGetSemaphoreCounterValue are core 1.2 commands: only on a 1.2 device.
    timeline = timelineFeatures.timelineSemaphore == VK_TRUE && properties.apiVersion >= VK_API_VERSION_1_2;
    VkPhysicalDeviceFaultFeaturesKHR fault{};
    if (faultFeatures != nullptr) {
      fault = *faultFeatures;
      fault.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_KHR;
      fault.pNext = nullptr;
      timelineFeatures.pNext = &fault;
    }
    (faultFeatures != nullptr ? fault.pNext : timelineFeatures.pNext) = moreFeatures;
    std::vector<float> priorities(families[family].queueCount, 1.0f);
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = families[family].queueCount;
    queueInfo.pQueuePriorities = priorities.data();
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    info.queueCreateInfoCount = 1;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pQueueCreateInfos = &queueInfo;
    timelineFeatures.timelineSemaphore = timeline ? VK_TRUE : VK_FALSE;
    features.features = {};
    EXPECT_EQ(vkCreateDevice(physical, &info, nullptr, &device), VK_SUCCESS);
    for (uint32_t i = 0; i < queueInfo.queueCount; ++i) {
      VkQueue queue = VK_NULL_HANDLE;
      vkGetDeviceQueue(device, family, i, &queue);
      queues.push_back(queue);
    }
  }
  ~TestDevice() {
    if (device != VK_NULL_HANDLE) vkDestroyDevice(device, nullptr);
  }

  VkFence Fence(bool signaled = false) const {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (signaled) info.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    VkFence fence = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateFence(device, &info, nullptr, &fence), VK_SUCCESS);
    return fence;
  }
  VkSemaphore Semaphore(bool isTimeline) const {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = isTimeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
    VkSemaphore semaphore = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device, &info, nullptr, &semaphore), VK_SUCCESS);
    return semaphore;
  }
  VkResult Submit(uint32_t queue, VkFence fence = VK_NULL_HANDLE, const VkSemaphore* wait = nullptr) const {
    VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    if (wait != nullptr) {
      info.waitSemaphoreCount = 1;
      info.pWaitSemaphores = wait;
      info.pWaitDstStageMask = &stage;
    }
    return vkQueueSubmit(queues[queue], 1, &info, fence);
  }
  VkResult Allocate(VkDeviceSize size, VkDeviceMemory* out) const {
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = size;
    info.memoryTypeIndex = HostVisibleType();
    return vkAllocateMemory(device, &info, nullptr, out);
  }
  uint32_t HostVisibleType() const {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) return i;
    return 0;
  }
};

class FaultLoaderTest : public ::testing::Test {
 protected:
  // Creates the instance from a configuration whose "faults" member is `faults`.
  void Start(const std::string& faults, const std::string& devices = R"(["builtin:default"])",
             const std::vector<const char*>& instanceExtensions = {}) {
    config_ = std::make_unique<TempConfig>("{\"devices\": " + devices + ", \"faults\": " + faults + "}");
    instance_ = MakeInstance(nullptr, instanceExtensions);
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    gpus_.resize(count);
    vkEnumeratePhysicalDevices(instance_, &count, gpus_.data());
    ASSERT_FALSE(gpus_.empty());
  }
  void TearDown() override {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }
  std::unique_ptr<TempConfig> config_;
  VkInstance instance_ = VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> gpus_;
};

}  // namespace crashtest::test
