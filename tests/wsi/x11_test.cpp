// X11 presentation through the real loader, on the X server named by DISPLAY (xvfb-run in the test suite:
// run_x11.py): an xcb window shows the cleared image — through MIT-SHM (Xvfb has it), through xcb_put_image with
// CRASHTEST_X11_SHM=0 and for R8G8B8A8 images — the MIT-SHM segments last as long as the swapchain, a resize makes
// the swapchain suboptimal then out of date and recreation works, and an Xlib surface reports its window's size.
// Without a display every test is skipped.
// gtest and vulkan_core.h first: Xlib's macros (None, Bool, ...) break gtest's headers.
#include "../icd/vk_test_env.h"

#include <X11/Xlib.h>
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>
#include <vulkan/vulkan_xlib.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace crashtest::test {
namespace {

// The SysV shared-memory segments this process created that still exist (/proc/sysvipc/shm, column cpid).
int LiveSegmentsOfThisProcess() {
  std::ifstream table("/proc/sysvipc/shm");
  std::string line;
  std::getline(table, line);  // the header
  int count = 0;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    long key = 0, id = 0, size = 0, creator = 0;
    std::string perms;
    if (fields >> key >> id >> perms >> size >> creator && creator == static_cast<long>(getpid())) ++count;
  }
  return count;
}

// Sets an environment variable for one scope (the driver reads CRASHTEST_X11_SHM at vkCreateSwapchainKHR).
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnvironment() { unsetenv(name_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
};

class X11Window : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* display = std::getenv("DISPLAY");
    if (display == nullptr || display[0] == '\0') GTEST_SKIP() << "no X server (DISPLAY unset): run under xvfb-run";
    connection_ = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(connection_)) GTEST_SKIP() << "cannot connect to the X server " << display;
    screen_ = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    window_ = xcb_generate_id(connection_);
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen_->root, 0, 0, 64, 48, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen_->root_visual, 0, nullptr);
    xcb_map_window(connection_, window_);
    xcb_flush(connection_);
    instance_ = CreateInstance(VK_API_VERSION_1_3, {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XCB_SURFACE_EXTENSION_NAME});
    ASSERT_NE(instance_, VK_NULL_HANDLE);
    physical_ = PhysicalDevices(instance_).at(0);
    VkXcbSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    info.connection = connection_;
    info.window = window_;
    ASSERT_EQ(vkCreateXcbSurfaceKHR(instance_, &info, nullptr, &surface_), VK_SUCCESS);
    ASSERT_EQ(CreateDeviceWithOneQueue(physical_, &device_, {VK_KHR_SWAPCHAIN_EXTENSION_NAME}), VK_SUCCESS);
    vkGetDeviceQueue(device_, 0, 0, &queue_);
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    ASSERT_EQ(vkCreateCommandPool(device_, &poolInfo, nullptr, &pool_), VK_SUCCESS);
    VkCommandBufferAllocateInfo allocInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocInfo.commandPool = pool_;
    allocInfo.commandBufferCount = 1;
    ASSERT_EQ(vkAllocateCommandBuffers(device_, &allocInfo, &commandBuffer_), VK_SUCCESS);
  }
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      for (VkSwapchainKHR s : swapchains_) vkDestroySwapchainKHR(device_, s, nullptr);
      vkDestroyCommandPool(device_, pool_, nullptr);
      vkDestroyDevice(device_, nullptr);
    }
    if (surface_ != VK_NULL_HANDLE) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
    if (connection_ != nullptr) xcb_disconnect(connection_);
  }

  VkSwapchainKHR CreateSwapchain(VkExtent2D extent, VkSwapchainKHR old = VK_NULL_HANDLE,
                                 VkFormat format = VK_FORMAT_B8G8R8A8_UNORM) {
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = 2;
    info.imageFormat = format;
    info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    info.oldSwapchain = old;
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &swapchain), VK_SUCCESS);
    if (swapchain != VK_NULL_HANDLE) swapchains_.push_back(swapchain);
    return swapchain;
  }

  // Acquires, clears to `color` and presents; returns the present's result (or the acquire's failure).
  VkResult ClearAndPresent(VkSwapchainKHR swapchain, VkClearColorValue color, VkResult* acquireResult = nullptr) {
    uint32_t index = 0;
    VkResult acquired = vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, VK_NULL_HANDLE, VK_NULL_HANDLE, &index);
    if (acquireResult != nullptr) *acquireResult = acquired;
    if (acquired != VK_SUCCESS) return acquired;
    uint32_t count = 0;
    vkGetSwapchainImagesKHR(device_, swapchain, &count, nullptr);
    std::vector<VkImage> images(count);
    vkGetSwapchainImagesKHR(device_, swapchain, &count, images.data());
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(commandBuffer_, &begin), VK_SUCCESS);
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(commandBuffer_, images[index], VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
    EXPECT_EQ(vkEndCommandBuffer(commandBuffer_), VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer_;
    EXPECT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &index;
    VkResult result = vkQueuePresentKHR(queue_, &present);
    vkQueueWaitIdle(queue_);
    return result;
  }

  // Destroys `swapchain` (created by CreateSwapchain) and waits until the server has handled every request sent.
  void DestroySwapchain(VkSwapchainKHR swapchain) {
    vkDeviceWaitIdle(device_);
    vkDestroySwapchainKHR(device_, swapchain, nullptr);
    std::erase(swapchains_, swapchain);
    std::free(xcb_get_input_focus_reply(connection_, xcb_get_input_focus(connection_), nullptr));
  }

  bool ServerHasMitShm() {
    xcb_query_extension_reply_t* reply = xcb_query_extension_reply(
        connection_, xcb_query_extension(connection_, 7, "MIT-SHM"), nullptr);
    const bool present = reply != nullptr && reply->present;
    std::free(reply);
    return present;
  }

  // The window's pixel at (x, y) as 0xRRGGBB.
  uint32_t Pixel(int16_t x, int16_t y) {
    xcb_get_image_reply_t* reply = xcb_get_image_reply(
        connection_, xcb_get_image(connection_, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, x, y, 1, 1, ~0u), nullptr);
    if (reply == nullptr) return 0xFFFFFFFFu;
    const uint8_t* data = xcb_get_image_data(reply);
    const uint32_t pixel = (uint32_t{data[2]} << 16) | (uint32_t{data[1]} << 8) | data[0];
    std::free(reply);
    return pixel & 0xFFFFFFu;
  }

  xcb_connection_t* connection_ = nullptr;
  xcb_screen_t* screen_ = nullptr;
  xcb_window_t window_ = 0;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  std::vector<VkSwapchainKHR> swapchains_;
};

TEST_F(X11Window, SurfaceHasTheWindowSizeAndTheVisualIsSupported) {
  VkSurfaceCapabilitiesKHR caps{};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps), VK_SUCCESS);
  EXPECT_EQ(caps.currentExtent.width, 64u);
  EXPECT_EQ(caps.currentExtent.height, 48u);
  EXPECT_EQ(caps.maxImageExtent.width, 64u);
  EXPECT_TRUE(vkGetPhysicalDeviceXcbPresentationSupportKHR(physical_, 0, connection_, screen_->root_visual));
}

TEST_F(X11Window, PresentShowsTheImage) {
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48});
  ASSERT_EQ(ClearAndPresent(swapchain, {{1.0f, 128 / 255.0f, 0.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(0, 0), 0xFF8000u);
  EXPECT_EQ(Pixel(63, 47), 0xFF8000u);
}

// Xvfb has MIT-SHM: the swapchain's images are attached segments (one per image) while it lives, frames after the
// first show too (the images go round), and destroying the swapchain leaves no segment behind.
TEST_F(X11Window, MitShmSegmentsLiveAsLongAsTheSwapchain) {
  if (!ServerHasMitShm()) GTEST_SKIP() << "the X server has no MIT-SHM extension";
  ASSERT_EQ(LiveSegmentsOfThisProcess(), 0);
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48});
  uint32_t count = 0;
  ASSERT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, nullptr), VK_SUCCESS);
  EXPECT_EQ(LiveSegmentsOfThisProcess(), static_cast<int>(count));
  const VkClearColorValue colors[] = {{{1.0f, 0.0f, 0.0f, 1.0f}}, {{0.0f, 1.0f, 0.0f, 1.0f}},
                                      {{0.0f, 0.0f, 1.0f, 1.0f}}, {{1.0f, 1.0f, 1.0f, 1.0f}}};
  const uint32_t expected[] = {0xFF0000u, 0x00FF00u, 0x0000FFu, 0xFFFFFFu};
  for (int frame = 0; frame < 4; ++frame) {
    ASSERT_EQ(ClearAndPresent(swapchain, colors[frame]), VK_SUCCESS);
    EXPECT_EQ(Pixel(10, 10), expected[frame]) << "frame " << frame;
    EXPECT_EQ(Pixel(63, 47), expected[frame]) << "frame " << frame;
  }
  DestroySwapchain(swapchain);
  EXPECT_EQ(LiveSegmentsOfThisProcess(), 0);
}

// CRASHTEST_X11_SHM=0: every frame goes through xcb_put_image, which shows it just as well, and no segment is made.
TEST_F(X11Window, WithoutMitShmThePutImagePathPresents) {
  ScopedEnvironment noShm("CRASHTEST_X11_SHM", "0");
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48});
  EXPECT_EQ(LiveSegmentsOfThisProcess(), 0);
  ASSERT_EQ(ClearAndPresent(swapchain, {{0.0f, 128 / 255.0f, 1.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(0, 0), 0x0080FFu);
  EXPECT_EQ(Pixel(63, 47), 0x0080FFu);
  ASSERT_EQ(ClearAndPresent(swapchain, {{1.0f, 1.0f, 0.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(32, 24), 0xFFFF00u);
  DestroySwapchain(swapchain);
  EXPECT_EQ(LiveSegmentsOfThisProcess(), 0);
}

// R8G8B8A8 images are converted to the window's B,G,R order (the put-image path): red stays red.
TEST_F(X11Window, RgbaImagesShowTheirColours) {
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48}, VK_NULL_HANDLE, VK_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(ClearAndPresent(swapchain, {{1.0f, 128 / 255.0f, 0.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(0, 0), 0xFF8000u);
  EXPECT_EQ(Pixel(63, 47), 0xFF8000u);
}

TEST_F(X11Window, AResizeMakesTheSwapchainOutOfDateAndRecreationWorks) {
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48});
  ASSERT_EQ(ClearAndPresent(swapchain, {{0.0f, 0.0f, 1.0f, 1.0f}}), VK_SUCCESS);
  const uint32_t size[] = {80, 60};
  xcb_configure_window(connection_, window_, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
  xcb_flush(connection_);
  std::free(xcb_get_geometry_reply(connection_, xcb_get_geometry(connection_, window_), nullptr));  // round trip
  // The next frame: the window is asked for its size at present, so the present notices.
  VkResult acquired = VK_ERROR_UNKNOWN;
  EXPECT_EQ(ClearAndPresent(swapchain, {{0.0f, 1.0f, 0.0f, 1.0f}}, &acquired), VK_SUBOPTIMAL_KHR);
  EXPECT_EQ(acquired, VK_SUCCESS);
  uint32_t index = 0;
  EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
            VK_ERROR_OUT_OF_DATE_KHR);
  VkSurfaceCapabilitiesKHR caps{};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps), VK_SUCCESS);
  ASSERT_EQ(caps.currentExtent.width, 80u);
  VkSwapchainKHR fresh = CreateSwapchain(caps.currentExtent, swapchain);
  ASSERT_EQ(ClearAndPresent(fresh, {{1.0f, 0.0f, 0.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(79, 59), 0xFF0000u);
}

// The window changes size between an acquire and its present: the present still shows the frame but says
// VK_SUBOPTIMAL_KHR, every acquire after it VK_ERROR_OUT_OF_DATE_KHR, and a swapchain of the new size presents.
TEST_F(X11Window, AResizeAfterTheAcquireMakesThePresentSuboptimal) {
  VkSwapchainKHR swapchain = CreateSwapchain({64, 48});
  uint32_t index = 0;
  ASSERT_EQ(vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
            VK_SUCCESS);
  const uint32_t size[] = {96, 72};
  xcb_configure_window(connection_, window_, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
  xcb_flush(connection_);
  std::free(xcb_get_geometry_reply(connection_, xcb_get_geometry(connection_, window_), nullptr));  // round trip
  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  VkResult result = VK_ERROR_UNKNOWN;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  present.pResults = &result;
  EXPECT_EQ(vkQueuePresentKHR(queue_, &present), VK_SUBOPTIMAL_KHR);
  EXPECT_EQ(result, VK_SUBOPTIMAL_KHR);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
              VK_ERROR_OUT_OF_DATE_KHR);
  VkSurfaceCapabilitiesKHR caps{};
  ASSERT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps), VK_SUCCESS);
  EXPECT_EQ(caps.currentExtent.width, 96u);
  EXPECT_EQ(caps.currentExtent.height, 72u);
  VkSwapchainKHR fresh = CreateSwapchain(caps.currentExtent, swapchain);
  ASSERT_EQ(ClearAndPresent(fresh, {{0.0f, 1.0f, 0.0f, 1.0f}}), VK_SUCCESS);
  EXPECT_EQ(Pixel(95, 71), 0x00FF00u);
  // The retired swapchain stays out of date.
  EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
            VK_ERROR_OUT_OF_DATE_KHR);
}

TEST(X11Xlib, SurfaceHasTheWindowSize) {
  const char* name = std::getenv("DISPLAY");
  if (name == nullptr || name[0] == '\0') GTEST_SKIP() << "no X server (DISPLAY unset): run under xvfb-run";
  Display* display = XOpenDisplay(nullptr);
  if (display == nullptr) GTEST_SKIP() << "cannot open the X display " << name;
  Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 33, 22, 0, 0, 0);
  XMapWindow(display, window);
  XSync(display, False);
  VkInstance instance =
      CreateInstance(VK_API_VERSION_1_3, {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XLIB_SURFACE_EXTENSION_NAME});
  ASSERT_NE(instance, VK_NULL_HANDLE);
  VkPhysicalDevice physical = PhysicalDevices(instance).at(0);
  VkXlibSurfaceCreateInfoKHR info{VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR};
  info.dpy = display;
  info.window = window;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateXlibSurfaceKHR(instance, &info, nullptr, &surface), VK_SUCCESS);
  VkSurfaceCapabilitiesKHR caps{};
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface, &caps), VK_SUCCESS);
  EXPECT_EQ(caps.currentExtent.width, 33u);
  EXPECT_EQ(caps.currentExtent.height, 22u);
  EXPECT_TRUE(vkGetPhysicalDeviceXlibPresentationSupportKHR(physical, 0, display,
                                                            XVisualIDFromVisual(DefaultVisual(display, 0))));
  vkDestroySurfaceKHR(instance, surface, nullptr);
  vkDestroyInstance(instance, nullptr);
  XDestroyWindow(display, window);
  XCloseDisplay(display);
}

}  // namespace
}  // namespace crashtest::test
