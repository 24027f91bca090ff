// VK_EXT_debug_utils instance commands: messengers that receive crashtest's messages. (The device-level label and
// object-name commands live with the queue and command-buffer thunks.)
#include "common/allocation.h"
#include "common/log_sink.h"
#include "device/debug_messenger.h"
#include "device/instance.h"
#include "entry_points.h"
#include "guard.h"

namespace crashtest::icd {

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
  return Guarded("vkCreateDebugUtilsMessengerEXT", [&] {
    auto* messenger = NewObject<DebugMessenger>(ChooseAllocator(pAllocator, FromHandle(instance)->allocator()),
                                                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *pCreateInfo);
    if (messenger == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
    *pMessenger = ToHandle(messenger);
    return VK_SUCCESS;
  });
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
  if (messenger == VK_NULL_HANDLE) return;
  DeleteObject(ChooseAllocator(pAllocator, FromHandle(instance)->allocator()), FromHandle(messenger));
}

// Through the loader this never arrives here (the loader delivers submitted messages to its own copy of each
// messenger); called directly, the message reaches every messenger through the same path as crashtest's own, with
// the caller's severity (its message types are reported as GENERAL).
VKAPI_ATTR void VKAPI_CALL SubmitDebugUtilsMessageEXT(VkInstance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* pCallbackData) {
  GuardedVoid("vkSubmitDebugUtilsMessageEXT", [&] {
    LogLevel level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT     ? LogLevel::Error
                     : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT ? LogLevel::Warn
                     : severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT    ? LogLevel::Info
                                                                                   : LogLevel::Debug;
    DeliverToLogSinks(level, pCallbackData->pMessage != nullptr ? pCallbackData->pMessage : "");
  });
}

}  // namespace crashtest::icd
