// VkDebugUtilsMessengerEXT (VK_EXT_debug_utils): delivers crashtest's own messages — configuration errors, misuse
// caught with its VUID, fault notices — to the application's callback, filtered by its severity and type masks.
// A messenger chained into VkInstanceCreateInfo covers vkCreateInstance and vkDestroyInstance.
#pragma once

#include <vulkan/vulkan.h>

#include "common/handle.h"
#include "common/log.h"
#include "common/object.h"

namespace crashtest {

CT_DEFINE_HANDLE(DebugMessenger, VkDebugUtilsMessengerEXT, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT);

class DebugMessenger : public Object {
 public:
  explicit DebugMessenger(const VkDebugUtilsMessengerCreateInfoEXT& info);
  ~DebugMessenger();
  DebugMessenger(const DebugMessenger&) = delete;
  DebugMessenger& operator=(const DebugMessenger&) = delete;

  // Calls the application's callback if the masks accept the message.
  void Submit(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
              const VkDebugUtilsMessengerCallbackDataEXT& data) const;

 private:
  static void OnLogMessage(void* context, LogLevel level, const char* message);

  VkDebugUtilsMessageSeverityFlagsEXT severities_;
  VkDebugUtilsMessageTypeFlagsEXT types_;
  PFN_vkDebugUtilsMessengerCallbackEXT callback_;
  void* userData_;
};

}  // namespace crashtest
