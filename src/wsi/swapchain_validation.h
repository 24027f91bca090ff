// vkCreateSwapchainKHR's valid-usage rules that depend on the surface (VkSwapchainCreateInfoKHR VUIDs): checked
// against the same answers vkGetPhysicalDeviceSurface*KHR give, so a misuse is a logged error, never a crash.
#pragma once

#include <vulkan/vulkan.h>

namespace crashtest {
class PhysicalDevice;
}

namespace crashtest::wsi {

VkResult ValidateSwapchainCreateInfo(const PhysicalDevice& physicalDevice, const VkSwapchainCreateInfoKHR& info);

}  // namespace crashtest::wsi
