// Shared setup for the tests that go through the real Vulkan loader (libvulkan) with VK_ICD_FILENAMES naming the
// build tree's manifest (set by meson for every test in tests/icd/).
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace crashtest::test {

// Points CRASHTEST_CONFIG at a file of tests/icd/data for the lifetime of the object (the driver reads it at
// vkCreateInstance), or unsets it.
class ScopedConfig {
 public:
  explicit ScopedConfig(const std::string& dataFile) {
    if (const char* old = std::getenv("CRASHTEST_CONFIG")) previous_ = old, hadPrevious_ = true;
    if (dataFile.empty())
      unsetenv("CRASHTEST_CONFIG");
    else
      setenv("CRASHTEST_CONFIG", (std::string(CRASHTEST_TEST_DATA_DIR) + "/" + dataFile).c_str(), 1);
  }
  ~ScopedConfig() {
    if (hadPrevious_)
      setenv("CRASHTEST_CONFIG", previous_.c_str(), 1);
    else
      unsetenv("CRASHTEST_CONFIG");
  }

 private:
  std::string previous_;
  bool hadPrevious_ = false;
};

inline VkInstance CreateInstance(uint32_t apiVersion = VK_API_VERSION_1_3, std::vector<const char*> extensions = {},
                                 const VkAllocationCallbacks* allocator = nullptr, VkResult* result = nullptr) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "crashtest-tests";
  app.pEngineName = "gtest";
  app.apiVersion = apiVersion;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&info, allocator, &instance);
  if (result != nullptr) *result = r;
  return r == VK_SUCCESS ? instance : VK_NULL_HANDLE;
}

inline std::vector<VkPhysicalDevice> PhysicalDevices(VkInstance instance) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  return devices;
}

// A device with one queue of family 0, the given extensions enabled and `pNext` chained (feature structs).
inline VkResult CreateDeviceWithOneQueue(VkPhysicalDevice physical, VkDevice* device,
                                         std::vector<const char*> extensions = {}, const void* pNext = nullptr) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pNext};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  return vkCreateDevice(physical, &info, nullptr, device);
}

// An instance of the default configuration and its first physical device.
class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = CreateInstance(VK_API_VERSION_1_3, {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    auto devices = PhysicalDevices(instance_);
    ASSERT_FALSE(devices.empty());
    physical_ = devices[0];
  }
  void TearDown() override {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }
  ScopedConfig config_{""};
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
};

}  // namespace crashtest::test
