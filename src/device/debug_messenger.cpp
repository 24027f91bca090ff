#include "device/debug_messenger.h"

#include "common/log_sink.h"

namespace crashtest {
namespace {

VkDebugUtilsMessageSeverityFlagBitsEXT SeverityOf(LogLevel level) {
  switch (level) {
    case LogLevel::Error: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    case LogLevel::Warn: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    case LogLevel::Info: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    case LogLevel::Debug: return VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
  }
  return VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
}

}  // namespace

DebugMessenger::DebugMessenger(const VkDebugUtilsMessengerCreateInfoEXT& info)
    : Object(VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT),
      severities_(info.messageSeverity),
      types_(info.messageType),
      callback_(info.pfnUserCallback),
      userData_(info.pUserData) {
  AddLogSink(this, &DebugMessenger::OnLogMessage);
}

DebugMessenger::~DebugMessenger() { RemoveLogSink(this); }

void DebugMessenger::Submit(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                            const VkDebugUtilsMessengerCallbackDataEXT& data) const {
  if ((severities_ & severity) == 0 || (types_ & types) == 0 || callback_ == nullptr) return;
  callback_(severity, types, &data, userData_);
}

void DebugMessenger::OnLogMessage(void* context, LogLevel level, const char* message) {
  const auto* self = static_cast<const DebugMessenger*>(context);
  VkDebugUtilsMessengerCallbackDataEXT data{};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessageIdName = "crashtest";
  data.pMessage = message;
  // crashtest's messages are about the driver's own state and the app's input, not validation in the layer sense.
  self->Submit(SeverityOf(level), VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, data);
}

}  // namespace crashtest
