#include "wsi/surface_queries.h"

#include "common/result.h"
#include "device/physical_device.h"
#include "wsi/x11_window.h"

namespace crashtest::wsi {
namespace {

constexpr VkSurfaceFormatKHR kFormats[] = {
    {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
    {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
};
// "VK_PRESENT_MODE_FIFO_KHR ... This is the only value of presentMode that is required to be supported."
constexpr VkPresentModeKHR kPresentModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR,
                                              VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR};

// Images are plain memory: three are enough for MAILBOX to never block, eight is plenty for any engine.
constexpr uint32_t kMinImageCount = 2;
constexpr uint32_t kMaxImageCount = 8;

}  // namespace

std::span<const VkSurfaceFormatKHR> SurfaceFormats() { return kFormats; }
std::span<const VkPresentModeKHR> PresentModes() { return kPresentModes; }

VkImageUsageFlags SwapchainUsage() {
  // "VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT must be included in the set" (VkSurfaceCapabilitiesKHR). Storage is left
  // out: not every profile gives the BGRA formats VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT.
  return VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
}

bool FamilySupportsPresent(const PhysicalDevice& physicalDevice, uint32_t familyIndex) {
  const auto& families = physicalDevice.description().queueFamilies;
  return familyIndex < families.size() && (families[familyIndex].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
}

VkResult SurfaceCapabilities(const PhysicalDevice& physicalDevice, VkSurfaceKHR surface,
                             VkSurfaceCapabilitiesKHR& out) {
  const SurfaceInfo info = ReadSurface(surface);
  const uint32_t maxDimension = physicalDevice.description().properties.limits.maxImageDimension2D;
  out = {};
  out.minImageCount = kMinImageCount;
  out.maxImageCount = kMaxImageCount;
  out.maxImageArrayLayers = 1;
  out.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  out.currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  out.supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  out.supportedUsageFlags = SwapchainUsage();
  switch (info.kind) {
    case SurfaceKind::Headless:
      // A headless surface has no size of its own: "the special value (0xFFFFFFFF, 0xFFFFFFFF) indicating that the
      // surface size will be determined by the extent of a swapchain targeting the surface".
      out.currentExtent = {0xFFFFFFFFu, 0xFFFFFFFFu};
      out.minImageExtent = {1, 1};
      out.maxImageExtent = {maxDimension, maxDimension};
      return VK_SUCCESS;
    case SurfaceKind::Xcb:
    case SurfaceKind::Xlib: {
      auto extent = X11WindowExtent(info);
      if (!extent)
        return ReportError(VK_ERROR_SURFACE_LOST_KHR, "surface capabilities: X11 window 0x%x is gone (%s surface)",
                           info.window, SurfaceKindName(info.kind));
      // An X11 window's images have the window's size (as Mesa's X11 WSI reports).
      out.currentExtent = *extent;
      out.minImageExtent = *extent;
      out.maxImageExtent = *extent;
      out.supportedCompositeAlpha |= VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
      return VK_SUCCESS;
    }
    case SurfaceKind::Unsupported:
      break;
  }
  return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                     "surface capabilities: the surface's platform (%d) is not one crashtest supports (headless, "
                     "xcb, xlib)",
                     static_cast<int>(info.platform));
}

}  // namespace crashtest::wsi
