// Surfaces through the real loader: the instance extensions, a headless surface's capabilities, formats, present
// modes and presentation support, and the *2 queries of VK_KHR_get_surface_capabilities2.
#include <algorithm>
#include <cstring>

#include "wsi_env.h"

namespace crashtest::test {
namespace {

TEST(WsiInstanceExtensions, SurfaceExtensionsAreReported) {
  ScopedConfig config("");
  uint32_t count = 0;
  ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr), VK_SUCCESS);
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()), VK_SUCCESS);
  auto has = [&](const char* name) {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
  };
  EXPECT_TRUE(has(VK_KHR_SURFACE_EXTENSION_NAME));
  EXPECT_TRUE(has(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME));
  EXPECT_TRUE(has(VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME));
#ifdef CRASHTEST_TEST_HAVE_X11
  EXPECT_TRUE(has("VK_KHR_xcb_surface"));
  EXPECT_TRUE(has("VK_KHR_xlib_surface"));
#endif
}

using HeadlessSurface = WsiTest;

TEST_F(HeadlessSurface, CapabilitiesLetTheSwapchainChooseTheSize) {
  VkSurfaceCapabilitiesKHR caps{};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps), VK_SUCCESS);
  EXPECT_EQ(caps.currentExtent.width, 0xFFFFFFFFu);
  EXPECT_EQ(caps.currentExtent.height, 0xFFFFFFFFu);
  EXPECT_GE(caps.minImageCount, 1u);
  EXPECT_GE(caps.maxImageCount, caps.minImageCount);
  EXPECT_EQ(caps.minImageExtent.width, 1u);
  EXPECT_GE(caps.maxImageExtent.width, 4096u);
  EXPECT_TRUE(caps.supportedUsageFlags & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  EXPECT_TRUE(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR);
  EXPECT_EQ(caps.currentTransform, VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR);

  VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR};
  info.surface = surface_;
  VkSurfaceCapabilities2KHR caps2{VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilities2KHR(physical_, &info, &caps2), VK_SUCCESS);
  EXPECT_EQ(std::memcmp(&caps2.surfaceCapabilities, &caps, sizeof caps), 0);
}

TEST_F(HeadlessSurface, FormatsAndPresentModesWithIncomplete) {
  uint32_t count = 0;
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, nullptr), VK_SUCCESS);
  ASSERT_GE(count, 2u);
  std::vector<VkSurfaceFormatKHR> formats(count);
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &count, formats.data()), VK_SUCCESS);
  EXPECT_TRUE(std::any_of(formats.begin(), formats.end(), [](const VkSurfaceFormatKHR& f) {
    return f.format == VK_FORMAT_B8G8R8A8_SRGB && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  }));
  uint32_t one = 1;
  VkSurfaceFormatKHR first{};
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &one, &first), VK_INCOMPLETE);
  EXPECT_EQ(first.format, formats[0].format);

  VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR};
  info.surface = surface_;
  uint32_t count2 = 0;
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormats2KHR(physical_, &info, &count2, nullptr), VK_SUCCESS);
  ASSERT_EQ(count2, count);
  std::vector<VkSurfaceFormat2KHR> formats2(count2, {VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR});
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceFormats2KHR(physical_, &info, &count2, formats2.data()), VK_SUCCESS);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(formats2[i].sType, VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR);
    EXPECT_EQ(formats2[i].surfaceFormat.format, formats[i].format);
  }

  uint32_t modeCount = 0;
  ASSERT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &modeCount, nullptr), VK_SUCCESS);
  std::vector<VkPresentModeKHR> modes(modeCount);
  ASSERT_EQ(vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &modeCount, modes.data()), VK_SUCCESS);
  for (VkPresentModeKHR m : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                             VK_PRESENT_MODE_IMMEDIATE_KHR})
    EXPECT_NE(std::find(modes.begin(), modes.end(), m), modes.end()) << m;
}

TEST_F(HeadlessSurface, GraphicsFamiliesSupportPresentation) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &count, families.data());
  bool any = false;
  for (uint32_t i = 0; i < count; ++i) {
    VkBool32 supported = VK_FALSE;
    ASSERT_EQ(vkGetPhysicalDeviceSurfaceSupportKHR(physical_, i, surface_, &supported), VK_SUCCESS);
    EXPECT_EQ(supported == VK_TRUE, (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0) << "family " << i;
    any = any || supported;
  }
  EXPECT_TRUE(any);
}

TEST_F(HeadlessSurface, SwapchainCreationChecksTheCreateInfo) {
  VkSwapchainCreateInfoKHR info = SwapchainInfo(VK_PRESENT_MODE_FIFO_KHR, 2);
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  info.imageFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
  EXPECT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), VK_ERROR_VALIDATION_FAILED_EXT);
  info = SwapchainInfo(VK_PRESENT_MODE_FIFO_KHR, 100);
  EXPECT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), VK_ERROR_VALIDATION_FAILED_EXT);
  info = SwapchainInfo(VK_PRESENT_MODE_FIFO_KHR, 2, {0, 16});
  EXPECT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), VK_ERROR_VALIDATION_FAILED_EXT);
  EXPECT_EQ(swapchain, VK_NULL_HANDLE);
}

TEST_F(HeadlessSurface, SwapchainImagesAreRealImages) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3, {40, 20});
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  uint32_t count = 0;
  ASSERT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(count, 3u);
  std::vector<VkImage> images(count);
  uint32_t two = 2;
  EXPECT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &two, images.data()), VK_INCOMPLETE);
  ASSERT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, images.data()), VK_SUCCESS);
  VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout{};
  vkGetImageSubresourceLayout(device_, images[0], &sub, &layout);
  EXPECT_GE(layout.rowPitch, 40u * 4);
  EXPECT_NE(images[0], images[1]);
}

}  // namespace
}  // namespace crashtest::test
