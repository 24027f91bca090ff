// The loader boundary itself: the driver library is opened directly (as the loader does) and its three exported
// functions are exercised, including name gating that the loader would otherwise hide behind its trampolines.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <cstdlib>

namespace {

class IcdBoundary : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("CRASHTEST_CONFIG");
    library_ = dlopen(CRASHTEST_ICD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library_, nullptr) << dlerror();
    negotiate_ = reinterpret_cast<PFN_vkNegotiateLoaderICDInterfaceVersion>(
        dlsym(library_, "vk_icdNegotiateLoaderICDInterfaceVersion"));
    gipa_ = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library_, "vk_icdGetInstanceProcAddr"));
    gpdpa_ = reinterpret_cast<PFN_GetPhysicalDeviceProcAddr>(dlsym(library_, "vk_icdGetPhysicalDeviceProcAddr"));
    ASSERT_NE(negotiate_, nullptr);
    ASSERT_NE(gipa_, nullptr);
    ASSERT_NE(gpdpa_, nullptr);
    uint32_t version = 7;
    ASSERT_EQ(negotiate_(&version), VK_SUCCESS);
  }
  void TearDown() override {
    if (library_ != nullptr) dlclose(library_);
  }

  template <typename PFN>
  PFN Get(VkInstance instance, const char* name) {
    return reinterpret_cast<PFN>(gipa_(instance, name));
  }

  // Creates an instance directly in the driver; the dispatch slot holds the loader magic, as the loader expects.
  VkInstance Create(uint32_t apiVersion, std::vector<const char*> extensions = {}) {
    auto create = Get<PFN_vkCreateInstance>(VK_NULL_HANDLE, "vkCreateInstance");
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = apiVersion;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkInstance instance = VK_NULL_HANDLE;
    EXPECT_EQ(create(&info, nullptr, &instance), VK_SUCCESS);
    return instance;
  }
  void Destroy(VkInstance instance) { Get<PFN_vkDestroyInstance>(instance, "vkDestroyInstance")(instance, nullptr); }

  void* library_ = nullptr;
  PFN_vkNegotiateLoaderICDInterfaceVersion negotiate_ = nullptr;
  PFN_vkGetInstanceProcAddr gipa_ = nullptr;
  PFN_GetPhysicalDeviceProcAddr gpdpa_ = nullptr;
};

TEST_F(IcdBoundary, NegotiationClampsToSeven) {
  uint32_t version = 99;
  EXPECT_EQ(negotiate_(&version), VK_SUCCESS);
  EXPECT_EQ(version, 7u);
  version = 5;
  EXPECT_EQ(negotiate_(&version), VK_SUCCESS);
  EXPECT_EQ(version, 5u);
  version = 1;
  EXPECT_EQ(negotiate_(&version), VK_ERROR_INCOMPATIBLE_DRIVER);
}

TEST_F(IcdBoundary, ExportsAreAlsoReturnedByGetInstanceProcAddr) {
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vk_icdGetInstanceProcAddr"), reinterpret_cast<PFN_vkVoidFunction>(gipa_));
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vk_icdNegotiateLoaderICDInterfaceVersion"),
            reinterpret_cast<PFN_vkVoidFunction>(negotiate_));
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vk_icdGetPhysicalDeviceProcAddr"), reinterpret_cast<PFN_vkVoidFunction>(gpdpa_));
}

TEST_F(IcdBoundary, NullInstanceGivesOnlyGlobalCommands) {
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkCreateInstance"), nullptr);
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"), nullptr);
  EXPECT_NE(gipa_(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"), nullptr);
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vkEnumeratePhysicalDevices"), nullptr);
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vkCreateDevice"), nullptr);
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, "vkNoSuchCommand"), nullptr);
  EXPECT_EQ(gipa_(VK_NULL_HANDLE, nullptr), nullptr);
}

TEST_F(IcdBoundary, CoreCommandsFollowTheInstanceVersion) {
  VkInstance v10 = Create(VK_API_VERSION_1_0);
  EXPECT_NE(gipa_(v10, "vkGetPhysicalDeviceProperties"), nullptr);
  EXPECT_EQ(gipa_(v10, "vkGetPhysicalDeviceProperties2"), nullptr) << "1.1 command on a 1.0 instance";
  EXPECT_EQ(gipa_(v10, "vkGetPhysicalDeviceToolProperties"), nullptr) << "1.3 command on a 1.0 instance";
  Destroy(v10);
  VkInstance v13 = Create(VK_API_VERSION_1_3);
  EXPECT_NE(gipa_(v13, "vkGetPhysicalDeviceProperties2"), nullptr);
  EXPECT_NE(gipa_(v13, "vkGetPhysicalDeviceToolProperties"), nullptr);
  Destroy(v13);
}

TEST_F(IcdBoundary, ExtensionCommandsNeedTheExtensionEnabled) {
  VkInstance plain = Create(VK_API_VERSION_1_0);
  EXPECT_EQ(gipa_(plain, "vkGetPhysicalDeviceProperties2KHR"), nullptr);
  Destroy(plain);
  VkInstance with = Create(VK_API_VERSION_1_0, {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME});
  auto properties2 = Get<PFN_vkGetPhysicalDeviceProperties2KHR>(with, "vkGetPhysicalDeviceProperties2KHR");
  ASSERT_NE(properties2, nullptr);
  // The alias reaches the same implementation as the core name.
  auto enumerate = Get<PFN_vkEnumeratePhysicalDevices>(with, "vkEnumeratePhysicalDevices");
  uint32_t count = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  ASSERT_EQ(enumerate(with, &count, &physical), VK_SUCCESS);
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2(physical, &properties);
  EXPECT_STREQ(properties.properties.deviceName, "crashtest default GPU");
  Destroy(with);
}

TEST_F(IcdBoundary, PhysicalDeviceProcAddrReturnsOnlyPhysicalDeviceCommands) {
  VkInstance instance = Create(VK_API_VERSION_1_3, {VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME});
  EXPECT_NE(gpdpa_(instance, "vkGetPhysicalDeviceProperties2KHR"), nullptr);
  EXPECT_EQ(gpdpa_(instance, "vkCreateInstance"), nullptr);
  EXPECT_EQ(gpdpa_(instance, "vkGetDeviceQueue"), nullptr);
  EXPECT_EQ(gpdpa_(instance, "vkNoSuchCommand"), nullptr);
  Destroy(instance);
}

TEST_F(IcdBoundary, DeviceProcAddrFollowsTheDeviceVersionAndLevel) {
  VkInstance instance = Create(VK_API_VERSION_1_3);
  uint32_t count = 1;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  Get<PFN_vkEnumeratePhysicalDevices>(instance, "vkEnumeratePhysicalDevices")(instance, &count, &physical);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  VkDevice device = VK_NULL_HANDLE;
  ASSERT_EQ(Get<PFN_vkCreateDevice>(instance, "vkCreateDevice")(physical, &info, nullptr, &device), VK_SUCCESS);
  auto gdpa = Get<PFN_vkGetDeviceProcAddr>(instance, "vkGetDeviceProcAddr");
  ASSERT_NE(gdpa, nullptr);
  EXPECT_NE(gdpa(device, "vkGetDeviceQueue"), nullptr);
  EXPECT_NE(gdpa(device, "vkDestroyDevice"), nullptr);
  EXPECT_EQ(gdpa(device, "vkEnumeratePhysicalDevices"), nullptr) << "instance-level command";
  EXPECT_EQ(gdpa(device, "vkGetPhysicalDeviceProperties"), nullptr) << "physical-device-level command";
  EXPECT_EQ(gdpa(device, "vkNoSuchCommand"), nullptr);
  VkPhysicalDeviceProperties properties{};
  Get<PFN_vkGetPhysicalDeviceProperties>(instance, "vkGetPhysicalDeviceProperties")(physical, &properties);
  // vkGetDeviceQueue2 is Vulkan 1.1: returned exactly when the device's effective version has it.
  bool device11 = VK_API_VERSION_MINOR(properties.apiVersion) >= 1;
  EXPECT_EQ(gdpa(device, "vkGetDeviceQueue2") != nullptr, device11);
  Get<PFN_vkDestroyDevice>(instance, "vkDestroyDevice")(device, nullptr);
  Destroy(instance);
}

}  // namespace
