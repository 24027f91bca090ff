// What a surface supports on a physical device (vkGetPhysicalDeviceSurface*KHR and their *2 forms,
// presentation support). The same answers back vkCreateSwapchainKHR's checks (swapchain_create.cpp).
#pragma once

#include <vulkan/vulkan.h>

#include <span>

#include "wsi/surface.h"

namespace crashtest {
class PhysicalDevice;
}

namespace crashtest::wsi {

// The formats a swapchain image may have, all in VK_COLOR_SPACE_SRGB_NONLINEAR_KHR: 4-byte RGBA / BGRA texels,
// which frame capture and the X11 put-image path read directly.
std::span<const VkSurfaceFormatKHR> SurfaceFormats();
std::span<const VkPresentModeKHR> PresentModes();
// The usages a swapchain image supports (supportedUsageFlags).
VkImageUsageFlags SwapchainUsage();

// Presentation is supported from queue families with VK_QUEUE_GRAPHICS_BIT (the devices that offer
// VK_KHR_swapchain).
bool FamilySupportsPresent(const PhysicalDevice& physicalDevice, uint32_t familyIndex);

// VK_ERROR_SURFACE_LOST_KHR when an X11 window is gone; VK_ERROR_VALIDATION_FAILED_EXT for a surface of another
// platform (crashtest advertises no other surface extension).
VkResult SurfaceCapabilities(const PhysicalDevice& physicalDevice, VkSurfaceKHR surface,
                             VkSurfaceCapabilitiesKHR& out);

}  // namespace crashtest::wsi
