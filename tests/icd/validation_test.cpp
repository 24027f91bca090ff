// With VK_LAYER_KHRONOS_validation enabled, creating and destroying an instance and a device against crashtest
// must produce zero validation errors (the layer checks what the driver reports, e.g. queue families, features).
#include <atomic>
#include <string>

#include "vk_test_env.h"

namespace crashtest::test {
namespace {

std::atomic<int> errors{0};
std::string firstError;

VKAPI_ATTR VkBool32 VKAPI_CALL CountErrors(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                           VkDebugUtilsMessageTypeFlagsEXT,
                                           const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    if (errors.fetch_add(1) == 0) firstError = data->pMessage;
  }
  return VK_FALSE;
}

bool ValidationLayerPresent() {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers)
    if (std::string(layer.layerName) == "VK_LAYER_KHRONOS_validation") return true;
  return false;
}

TEST(Validation, InstanceAndDeviceCreationIsClean) {
  if (!ValidationLayerPresent()) GTEST_SKIP() << "VK_LAYER_KHRONOS_validation is not installed (vulkan-validationlayers)";
  ScopedConfig config("");
  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  messenger.pfnUserCallback = CountErrors;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &messenger};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = 1;
  info.ppEnabledLayerNames = &layer;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  VkInstance instance = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance), VK_SUCCESS);
  for (VkPhysicalDevice physical : PhysicalDevices(instance)) {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkDeviceQueueCreateInfo> queues(families, {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO});
    float priority = 1.0f;
    for (uint32_t i = 0; i < families; ++i) {
      queues[i].queueFamilyIndex = i;
      queues[i].queueCount = 1;
      queues[i].pQueuePriorities = &priority;
    }
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(physical, &features);
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = families;
    deviceInfo.pQueueCreateInfos = queues.data();
    deviceInfo.pEnabledFeatures = &features;
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(physical, &deviceInfo, nullptr, &device), VK_SUCCESS);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, families - 1, 0, &queue);
    EXPECT_NE(queue, VK_NULL_HANDLE);
    vkDestroyDevice(device, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
  EXPECT_EQ(errors.load(), 0) << firstError;
}

}  // namespace
}  // namespace crashtest::test
