// Shared setup of the window-system integration tests through the real loader: an instance with the surface
// extensions, a headless surface, a device with VK_KHR_swapchain and helpers to record clears and read PNGs.
#pragma once

#include <gtest/gtest.h>
#include <png.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../icd/vk_test_env.h"

namespace crashtest::test {

struct PngPixels {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgb;
};

inline bool ReadPng(const std::string& path, PngPixels& out) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, path.c_str()) == 0) return false;
  image.format = PNG_FORMAT_RGB;
  out.width = image.width;
  out.height = image.height;
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  return png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr) != 0;
}

// Sets an environment variable for the object's lifetime (unset when `value` is empty).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old, hadPrevious_ = true;
    if (value.empty())
      unsetenv(name);
    else
      setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (hadPrevious_)
      setenv(name_, previous_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string previous_;
  bool hadPrevious_ = false;
};

class WsiTest : public ::testing::Test {
 protected:
  // Subclasses may set a configuration file before SetUp runs.
  virtual const char* ConfigFile() const { return ""; }

  void SetUp() override {
    config_ = std::make_unique<ScopedConfig>(ConfigFile());
    instance_ = CreateInstance(VK_API_VERSION_1_3, {VK_KHR_SURFACE_EXTENSION_NAME,
                                                    VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME,
                                                    VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    physical_ = PhysicalDevices(instance_).at(0);
    auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateHeadlessSurfaceEXT"));
    ASSERT_NE(create, nullptr);
    VkHeadlessSurfaceCreateInfoEXT surfaceInfo{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
    ASSERT_EQ(create(instance_, &surfaceInfo, nullptr, &surface_), VK_SUCCESS);
    ASSERT_EQ(CreateDeviceWithOneQueue(physical_, &device_, {VK_KHR_SWAPCHAIN_EXTENSION_NAME}), VK_SUCCESS);
    vkGetDeviceQueue(device_, 0, 0, &queue_);
  }

  void TearDown() override {
    for (VkSwapchainKHR s : swapchains_) vkDestroySwapchainKHR(device_, s, nullptr);
    if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
    if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  VkSwapchainCreateInfoKHR SwapchainInfo(VkPresentModeKHR mode, uint32_t images, VkExtent2D extent = {64, 32}) {
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = images;
    info.imageFormat = VK_FORMAT_B8G8R8A8_UNORM;
    info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = mode;
    info.clipped = VK_TRUE;
    return info;
  }

  VkSwapchainKHR CreateSwapchain(VkPresentModeKHR mode, uint32_t images, VkExtent2D extent = {64, 32}) {
    VkSwapchainCreateInfoKHR info = SwapchainInfo(mode, images, extent);
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), VK_SUCCESS);
    if (swapchain != VK_NULL_HANDLE) swapchains_.push_back(swapchain);
    return swapchain;
  }

  VkResult Present(VkSwapchainKHR swapchain, uint32_t index, VkSemaphore wait = VK_NULL_HANDLE) {
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = wait != VK_NULL_HANDLE ? 1 : 0;
    info.pWaitSemaphores = &wait;
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain;
    info.pImageIndices = &index;
    return vkQueuePresentKHR(queue_, &info);
  }

  std::unique_ptr<ScopedConfig> config_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::vector<VkSwapchainKHR> swapchains_;
};

}  // namespace crashtest::test
