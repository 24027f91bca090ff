// Presentation: the per-frame overhead of vkAcquireNextImageKHR + vkQueuePresentKHR on a 1280x720 swapchain
// (docs/wsi.md), with nothing rendered, so the figure is the window-system path alone: the acquire, the present's
// semaphore wait and putting the image on the window.
//
// BM_AcquirePresentX11: an X11 window (xcb) on the server DISPLAY names; every ICD that presents to X11 runs it, so
// bench/compare shows crashtest beside lavapipe. Run it under Xvfb when there is no display:
//   xvfb-run -a -s "-screen 0 1280x720x24 -noreset" bench/compare --build build --filter AcquirePresent
// BM_AcquirePresentHeadless: VK_EXT_headless_surface (crashtest has it, Debian's lavapipe does not: "skip").
//
// Both use VK_PRESENT_MODE_IMMEDIATE_KHR (else MAILBOX, else FIFO; the label names it) so no refresh rate paces
// the loop, and have their own instance and device: the shared contexts enable no surface extension.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#ifdef CRASHTEST_HAVE_X11
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>
#endif

#include "bench_common.h"

namespace crashtest::bench {
namespace {

constexpr VkExtent2D kExtent{1280, 720};

struct Wsi {
  PFN_vkDestroySurfaceKHR destroySurface = nullptr;
  PFN_vkGetPhysicalDeviceSurfaceSupportKHR surfaceSupport = nullptr;
  PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR capabilities = nullptr;
  PFN_vkGetPhysicalDeviceSurfaceFormatsKHR formats = nullptr;
  PFN_vkGetPhysicalDeviceSurfacePresentModesKHR presentModes = nullptr;
  PFN_vkCreateSwapchainKHR createSwapchain = nullptr;
  PFN_vkDestroySwapchainKHR destroySwapchain = nullptr;
  PFN_vkAcquireNextImageKHR acquire = nullptr;
  PFN_vkQueuePresentKHR present = nullptr;
  PFN_vkCreateSemaphore createSemaphore = nullptr;
  PFN_vkDestroySemaphore destroySemaphore = nullptr;
  PFN_vkDeviceWaitIdle waitIdle = nullptr;
  PFN_vkDestroyDevice destroyDevice = nullptr;
};

// Instance, surface, device, swapchain and one semaphore per image; the destructor releases what was made.
class PresentRig {
 public:
  enum class Kind { kX11, kHeadless };

  // nullptr with *error set ("unsupported: …" when the driver or the machine lacks something).
  static std::unique_ptr<PresentRig> Create(Kind kind, std::string* error) {
    std::unique_ptr<PresentRig> rig(new PresentRig());
    *error = rig->Init(kind);
    if (!error->empty()) return nullptr;
    return rig;
  }

  ~PresentRig() {
    if (device_ != VK_NULL_HANDLE) {
      wsi_.waitIdle(device_);
      for (VkSemaphore s : semaphores_) wsi_.destroySemaphore(device_, s, nullptr);
      if (swapchain_ != VK_NULL_HANDLE) wsi_.destroySwapchain(device_, swapchain_, nullptr);
      wsi_.destroyDevice(device_, nullptr);
    }
    if (surface_ != VK_NULL_HANDLE) wsi_.destroySurface(instance_, surface_, nullptr);
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
#ifdef CRASHTEST_HAVE_X11
    if (connection_ != nullptr) {
      if (window_ != 0) xcb_destroy_window(connection_, window_);
      xcb_disconnect(connection_);
    }
#endif
  }

  // One frame: acquire (signalling a semaphore), present waiting on it.
  VkResult Frame() {
    VkSemaphore semaphore = semaphores_[next_];
    next_ = (next_ + 1) % semaphores_.size();
    uint32_t index = 0;
    VkResult result = wsi_.acquire(device_, swapchain_, UINT64_MAX, semaphore, VK_NULL_HANDLE, &index);
    if (result != VK_SUCCESS) return result;
    VkPresentInfoKHR present{};
    present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &semaphore;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain_;
    present.pImageIndices = &index;
    return wsi_.present(queue_, &present);
  }

  const char* modeName() const {
    switch (mode_) {
      case VK_PRESENT_MODE_IMMEDIATE_KHR: return "IMMEDIATE";
      case VK_PRESENT_MODE_MAILBOX_KHR: return "MAILBOX";
      default: return "FIFO";
    }
  }

 private:
  PresentRig() = default;

  std::string Init(Kind kind) {
    const char* surfaceExtension =
        kind == Kind::kX11 ? "VK_KHR_xcb_surface" : "VK_EXT_headless_surface";
#ifndef CRASHTEST_HAVE_X11
    if (kind == Kind::kX11) return "unsupported: the bench was built without libxcb";
#endif
    if (kind == Kind::kX11) {
      const char* display = std::getenv("DISPLAY");
      if (display == nullptr || display[0] == '\0')
        return "unsupported: no X server (DISPLAY is not set; run under xvfb-run)";
    }
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> offered(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, offered.data());
    bool haveSurface = false, haveKind = false;
    for (const VkExtensionProperties& e : offered) {
      haveSurface = haveSurface || std::string(e.extensionName) == "VK_KHR_surface";
      haveKind = haveKind || std::string(e.extensionName) == surfaceExtension;
    }
    if (!haveSurface || !haveKind) return std::string("unsupported: ") + surfaceExtension + " is not offered";
    const char* extensions[] = {"VK_KHR_surface", surfaceExtension};
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "crashtest-bench present";
    app.apiVersion = VK_API_VERSION_1_0;
    VkInstanceCreateInfo instanceInfo{};
    instanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instanceInfo.pApplicationInfo = &app;
    instanceInfo.enabledExtensionCount = 2;
    instanceInfo.ppEnabledExtensionNames = extensions;
    if (VkResult r = vkCreateInstance(&instanceInfo, nullptr, &instance_); r != VK_SUCCESS)
      return call_failed("vkCreateInstance", r);
    auto instanceProc = [&](const char* name) { return vkGetInstanceProcAddr(instance_, name); };
    wsi_.destroySurface = reinterpret_cast<PFN_vkDestroySurfaceKHR>(instanceProc("vkDestroySurfaceKHR"));
    wsi_.surfaceSupport =
        reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceSupportKHR>(instanceProc("vkGetPhysicalDeviceSurfaceSupportKHR"));
    wsi_.capabilities = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR>(
        instanceProc("vkGetPhysicalDeviceSurfaceCapabilitiesKHR"));
    wsi_.formats =
        reinterpret_cast<PFN_vkGetPhysicalDeviceSurfaceFormatsKHR>(instanceProc("vkGetPhysicalDeviceSurfaceFormatsKHR"));
    wsi_.presentModes = reinterpret_cast<PFN_vkGetPhysicalDeviceSurfacePresentModesKHR>(
        instanceProc("vkGetPhysicalDeviceSurfacePresentModesKHR"));
    if (std::string e = CreateSurface(kind); !e.empty()) return e;

    uint32_t gpuCount = 1;
    VkPhysicalDevice gpu = VK_NULL_HANDLE;
    if (VkResult r = vkEnumeratePhysicalDevices(instance_, &gpuCount, &gpu); (r != VK_SUCCESS && r != VK_INCOMPLETE) ||
                                                                          gpuCount == 0)
      return "error: no physical device";
    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(gpu, &familyCount, families.data());
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < familyCount && family == UINT32_MAX; ++i) {
      VkBool32 supported = VK_FALSE;
      if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
          wsi_.surfaceSupport(gpu, i, surface_, &supported) == VK_SUCCESS && supported)
        family = i;
    }
    if (family == UINT32_MAX) return "unsupported: no graphics queue family presents to the surface";
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{};
    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queueInfo.queueFamilyIndex = family;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    const char* swapchainExtension = "VK_KHR_swapchain";
    VkDeviceCreateInfo deviceInfo{};
    deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = 1;
    deviceInfo.ppEnabledExtensionNames = &swapchainExtension;
    if (VkResult r = vkCreateDevice(gpu, &deviceInfo, nullptr, &device_); r != VK_SUCCESS)
      return call_failed("vkCreateDevice(VK_KHR_swapchain)", r);
    auto deviceProc = [&](const char* name) { return vkGetDeviceProcAddr(device_, name); };
    wsi_.destroyDevice = reinterpret_cast<PFN_vkDestroyDevice>(deviceProc("vkDestroyDevice"));
    wsi_.createSwapchain = reinterpret_cast<PFN_vkCreateSwapchainKHR>(deviceProc("vkCreateSwapchainKHR"));
    wsi_.destroySwapchain = reinterpret_cast<PFN_vkDestroySwapchainKHR>(deviceProc("vkDestroySwapchainKHR"));
    wsi_.acquire = reinterpret_cast<PFN_vkAcquireNextImageKHR>(deviceProc("vkAcquireNextImageKHR"));
    wsi_.present = reinterpret_cast<PFN_vkQueuePresentKHR>(deviceProc("vkQueuePresentKHR"));
    wsi_.createSemaphore = reinterpret_cast<PFN_vkCreateSemaphore>(deviceProc("vkCreateSemaphore"));
    wsi_.destroySemaphore = reinterpret_cast<PFN_vkDestroySemaphore>(deviceProc("vkDestroySemaphore"));
    wsi_.waitIdle = reinterpret_cast<PFN_vkDeviceWaitIdle>(deviceProc("vkDeviceWaitIdle"));
    auto getQueue = reinterpret_cast<PFN_vkGetDeviceQueue>(deviceProc("vkGetDeviceQueue"));
    if (!wsi_.createSwapchain || !wsi_.destroySwapchain || !wsi_.acquire || !wsi_.present || !getQueue ||
        !wsi_.createSemaphore || !wsi_.destroySemaphore || !wsi_.waitIdle)
      return "unsupported: a VK_KHR_swapchain command is not provided";
    getQueue(device_, family, 0, &queue_);
    return CreateSwapchain(gpu);
  }

  std::string CreateSurface(Kind kind) {
    if (kind == Kind::kHeadless) {
      auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateHeadlessSurfaceEXT"));
      if (create == nullptr) return "unsupported: vkCreateHeadlessSurfaceEXT is not provided";
      VkHeadlessSurfaceCreateInfoEXT info{};
      info.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT;
      if (VkResult r = create(instance_, &info, nullptr, &surface_); r != VK_SUCCESS)
        return call_failed("vkCreateHeadlessSurfaceEXT", r);
      return "";
    }
#ifdef CRASHTEST_HAVE_X11
    connection_ = xcb_connect(nullptr, nullptr);
    if (xcb_connection_has_error(connection_)) return "unsupported: cannot connect to the X server";
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(connection_)).data;
    window_ = xcb_generate_id(connection_);
    xcb_create_window(connection_, XCB_COPY_FROM_PARENT, window_, screen->root, 0, 0, kExtent.width, kExtent.height,
                      0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
    xcb_map_window(connection_, window_);
    xcb_flush(connection_);
    auto create =
        reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance_, "vkCreateXcbSurfaceKHR"));
    if (create == nullptr) return "unsupported: vkCreateXcbSurfaceKHR is not provided";
    VkXcbSurfaceCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR;
    info.connection = connection_;
    info.window = window_;
    if (VkResult r = create(instance_, &info, nullptr, &surface_); r != VK_SUCCESS)
      return call_failed("vkCreateXcbSurfaceKHR", r);
    return "";
#else
    return "unsupported: the bench was built without libxcb";
#endif
  }

  std::string CreateSwapchain(VkPhysicalDevice gpu) {
    VkSurfaceCapabilitiesKHR caps{};
    if (VkResult r = wsi_.capabilities(gpu, surface_, &caps); r != VK_SUCCESS)
      return call_failed("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", r);
    if (caps.currentExtent.width != UINT32_MAX &&
        (caps.currentExtent.width != kExtent.width || caps.currentExtent.height != kExtent.height))
      return "unsupported: the window is " + std::to_string(caps.currentExtent.width) + "x" +
             std::to_string(caps.currentExtent.height) + ", not 1280x720 (a screen too small?)";
    uint32_t count = 0;
    wsi_.formats(gpu, surface_, &count, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(count);
    wsi_.formats(gpu, surface_, &count, formats.data());
    if (formats.empty()) return "error: the surface has no format";
    VkSurfaceFormatKHR format = formats[0];
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == VK_FORMAT_B8G8R8A8_UNORM) format = f;
    wsi_.presentModes(gpu, surface_, &count, nullptr);
    std::vector<VkPresentModeKHR> modes(count);
    wsi_.presentModes(gpu, surface_, &count, modes.data());
    mode_ = VK_PRESENT_MODE_FIFO_KHR;
    for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
      for (VkPresentModeKHR m : modes)
        if (m == wanted) mode_ = m;
    VkSwapchainCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    info.surface = surface_;
    info.minImageCount = caps.maxImageCount == 0 ? caps.minImageCount + 1
                                                 : std::min(caps.minImageCount + 1, caps.maxImageCount);
    info.imageFormat = format.format;
    info.imageColorSpace = format.colorSpace;
    info.imageExtent = kExtent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = mode_;
    info.clipped = VK_TRUE;
    if (VkResult r = wsi_.createSwapchain(device_, &info, nullptr, &swapchain_); r != VK_SUCCESS)
      return call_failed("vkCreateSwapchainKHR(1280x720)", r);
    // One semaphore more than images: a semaphore is reused only after the present that waited on it.
    semaphores_.resize(info.minImageCount + 1, VK_NULL_HANDLE);
    VkSemaphoreCreateInfo semaphoreInfo{};
    semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    for (VkSemaphore& s : semaphores_)
      if (VkResult r = wsi_.createSemaphore(device_, &semaphoreInfo, nullptr, &s); r != VK_SUCCESS)
        return call_failed("vkCreateSemaphore", r);
    return "";
  }

  Wsi wsi_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkPresentModeKHR mode_ = VK_PRESENT_MODE_FIFO_KHR;
  std::vector<VkSemaphore> semaphores_;
  size_t next_ = 0;
#ifdef CRASHTEST_HAVE_X11
  xcb_connection_t* connection_ = nullptr;
  xcb_window_t window_ = 0;
#endif
};

void RunAcquirePresent(benchmark::State& state, PresentRig::Kind kind) {
  std::string error;
  std::unique_ptr<PresentRig> rig = PresentRig::Create(kind, &error);
  if (!ok_or_skip(state, error)) return;
  state.SetLabel(rig->modeName());
  for (auto _ : state) {
    VkResult result = rig->Frame();
    if (result != VK_SUCCESS) {
      ok_or_skip(state, call_failed("vkAcquireNextImageKHR/vkQueuePresentKHR", result));
      break;
    }
  }
}

void BM_AcquirePresentX11(benchmark::State& state) { RunAcquirePresent(state, PresentRig::Kind::kX11); }
void BM_AcquirePresentHeadless(benchmark::State& state) { RunAcquirePresent(state, PresentRig::Kind::kHeadless); }
BENCHMARK(BM_AcquirePresentX11)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_AcquirePresentHeadless)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace crashtest::bench
