#include "startup_sequence.h"

#include <vulkan/vulkan.h>

#include <vector>

namespace crashtest::bench {

std::string run_startup_sequence() {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "crashtest-bench-startup";
  app.apiVersion = VK_API_VERSION_1_0;
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult result = vkCreateInstance(&instance_info, nullptr, &instance);
  if (result != VK_SUCCESS) return "error: vkCreateInstance returned " + std::to_string(result);

  std::string error;
  uint32_t count = 0;
  result = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (result == VK_SUCCESS && count > 0) result = vkEnumeratePhysicalDevices(instance, &count, devices.data());
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) {
    error = "error: vkEnumeratePhysicalDevices returned " + std::to_string(result) + " with " +
            std::to_string(count) + " devices";
  } else {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info{};
    queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue_info.queueFamilyIndex = 0;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    VkDevice device = VK_NULL_HANDLE;
    result = vkCreateDevice(devices[0], &device_info, nullptr, &device);
    if (result != VK_SUCCESS) {
      error = "error: vkCreateDevice returned " + std::to_string(result);
    } else {
      vkDestroyDevice(device, nullptr);
    }
  }
  vkDestroyInstance(instance, nullptr);
  return error;
}

}  // namespace crashtest::bench
