// VK_EXT_debug_utils messengers through the real loader: crashtest's messages reach the application's callback,
// also during vkCreateInstance (a messenger chained into VkInstanceCreateInfo).
#include <mutex>
#include <string>
#include <vector>

#include "vk_test_env.h"

namespace crashtest::test {
namespace {

struct Received {
  std::mutex mutex;
  std::vector<std::pair<VkDebugUtilsMessageSeverityFlagBitsEXT, std::string>> messages;

  bool Contains(VkDebugUtilsMessageSeverityFlagBitsEXT severity, const std::string& part) {
    std::lock_guard lock(mutex);
    for (auto& [s, text] : messages)
      if (s == severity && text.find(part) != std::string::npos) return true;
    return false;
  }
};

VKAPI_ATTR VkBool32 VKAPI_CALL Collect(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                       VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT* data,
                                       void* user) {
  // The loader reports its own messages through the same callback; keep crashtest's.
  if (data->pMessageIdName == nullptr || std::string(data->pMessageIdName) != "crashtest") return VK_FALSE;
  auto* received = static_cast<Received*>(user);
  std::lock_guard lock(received->mutex);
  received->messages.emplace_back(severity, data->pMessage);
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT MessengerInfo(Received* received) {
  VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  info.pfnUserCallback = Collect;
  info.pUserData = received;
  return info;
}

TEST(DebugUtilsTest, TheDriverAdvertisesTheInstanceExtension) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  bool found = false;
  for (const auto& e : extensions) found |= std::string(e.extensionName) == VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  EXPECT_TRUE(found);
}

TEST(DebugUtilsTest, ConfigurationErrorsReachAMessengerChainedIntoInstanceCreation) {
  ScopedConfig config("malformed.json");
  Received received;
  VkDebugUtilsMessengerCreateInfoEXT messenger = MessengerInfo(&received);
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &messenger};
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  VkInstance instance = VK_NULL_HANDLE;
  // The loader may report an ICD that failed to create its instance as "incompatible driver".
  VkResult result = vkCreateInstance(&info, nullptr, &instance);
  EXPECT_NE(result, VK_SUCCESS);
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
  EXPECT_TRUE(received.Contains(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "malformed.json"));
}

TEST(DebugUtilsTest, AMessengerHearsMisuseAndStopsAfterDestruction) {
  ScopedConfig config("");
  VkInstance instance = CreateInstance(VK_API_VERSION_1_1, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME});
  ASSERT_NE(instance, VK_NULL_HANDLE);
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  ASSERT_NE(create, nullptr);
  Received received;
  VkDebugUtilsMessengerCreateInfoEXT info = MessengerInfo(&received);
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  ASSERT_EQ(create(instance, &info, nullptr, &messenger), VK_SUCCESS);

  VkPhysicalDevice physical = PhysicalDevices(instance).at(0);
  VkDevice device = VK_NULL_HANDLE;
  ASSERT_EQ(CreateDeviceWithOneQueue(physical, &device), VK_SUCCESS);
  // Misuse the driver detects (the loader passes it through): a queue index that was never created.
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 99, &queue);
  EXPECT_EQ(queue, VK_NULL_HANDLE);
  EXPECT_TRUE(received.Contains(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "no queue 99 of family 0"));

  destroy(instance, messenger, nullptr);
  size_t before = received.messages.size();
  vkGetDeviceQueue(device, 0, 98, &queue);
  EXPECT_EQ(received.messages.size(), before);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
}

}  // namespace
}  // namespace crashtest::test
