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

// Whether `text` is well-formed UTF-8 (no stray continuation bytes, overlong forms, surrogates or truncation).
bool IsValidUtf8(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    const auto second = static_cast<unsigned char>(text[i + 1 < text.size() ? i + 1 : i]);
    if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) || (c == 0xF0 && second < 0x90) ||
        (c == 0xF4 && second > 0x8F))
      return false;
    i += n;
  }
  return true;
}

// Issue 18: messages quote what the application gave (here the configuration's path); bytes that are not UTF-8
// arrive escaped, so the message stays decodable, and real UTF-8 is kept as it is.
TEST(DebugUtilsTest, MessagesStayValidUtf8WhateverTheApplicationsBytes) {
  ScopedConfig config("missing-\xff\xfe-\xc3\xa9-\xed\xa0\x80-\xe2\x82.json");
  Received received;
  VkDebugUtilsMessengerCreateInfoEXT messenger = MessengerInfo(&received);
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &messenger};
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  VkInstance instance = VK_NULL_HANDLE;
  ::testing::internal::CaptureStderr();
  EXPECT_NE(vkCreateInstance(&info, nullptr, &instance), VK_SUCCESS);
  const std::string log = ::testing::internal::GetCapturedStderr();
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
  std::lock_guard lock(received.mutex);
  bool quoted = false;
  for (const auto& [severity, text] : received.messages) {
    EXPECT_TRUE(IsValidUtf8(text)) << text;
    quoted |= text.find("missing-\\xff\\xfe-\xc3\xa9-\\xed\\xa0\\x80-\\xe2\\x82.json") != std::string::npos;
  }
  EXPECT_TRUE(quoted);
  EXPECT_FALSE(received.messages.empty());
  EXPECT_TRUE(IsValidUtf8(log));
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
