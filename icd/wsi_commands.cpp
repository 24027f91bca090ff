// Thunks of surface queries: VK_KHR_surface, VK_KHR_get_surface_capabilities2 and the X11 presentation-support
// queries. Surfaces are the loader's VkIcdSurface* structs (src/wsi/surface.h).
#include "common/count_array.h"
#include "common/result.h"
#include "device/physical_device.h"
#include "entry_points.h"
#include "guard.h"
#include "wsi/surface_queries.h"
#include "wsi/x11_window.h"

namespace crashtest::icd {

namespace {

VkResult CheckSurfaceKind(const char* command, VkSurfaceKHR surface) {
  if (wsi::ReadSurface(surface).kind != wsi::SurfaceKind::Unsupported) return VK_SUCCESS;
  return ReportError(VK_ERROR_SURFACE_LOST_KHR, "%s: the surface is not a headless, xcb or xlib surface", command);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice physicalDevice,
                                                                  uint32_t queueFamilyIndex, VkSurfaceKHR surface,
                                                                  VkBool32* pSupported) {
  return Guarded("vkGetPhysicalDeviceSurfaceSupportKHR", [&] {
    *pSupported = VK_FALSE;
    if (VkResult r = CheckSurfaceKind("vkGetPhysicalDeviceSurfaceSupportKHR", surface); r != VK_SUCCESS) return r;
    *pSupported = wsi::FamilySupportsPresent(*FromHandle(physicalDevice), queueFamilyIndex) ? VK_TRUE : VK_FALSE;
    return VK_SUCCESS;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice physicalDevice,
                                                                       VkSurfaceKHR surface,
                                                                       VkSurfaceCapabilitiesKHR* pSurfaceCapabilities) {
  return Guarded("vkGetPhysicalDeviceSurfaceCapabilitiesKHR",
                 [&] { return wsi::SurfaceCapabilities(*FromHandle(physicalDevice), surface, *pSurfaceCapabilities); });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo,
    VkSurfaceCapabilities2KHR* pSurfaceCapabilities) {
  // No extension that extends VkSurfaceCapabilities2KHR is advertised; unknown chained structs are left alone.
  return Guarded("vkGetPhysicalDeviceSurfaceCapabilities2KHR", [&] {
    return wsi::SurfaceCapabilities(*FromHandle(physicalDevice), pSurfaceInfo->surface,
                                    pSurfaceCapabilities->surfaceCapabilities);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                  uint32_t* pSurfaceFormatCount,
                                                                  VkSurfaceFormatKHR* pSurfaceFormats) {
  return Guarded("vkGetPhysicalDeviceSurfaceFormatsKHR", [&] {
    if (VkResult r = CheckSurfaceKind("vkGetPhysicalDeviceSurfaceFormatsKHR", surface); r != VK_SUCCESS) return r;
    const auto formats = wsi::SurfaceFormats();
    return FillCountArray(pSurfaceFormatCount, pSurfaceFormats, static_cast<uint32_t>(formats.size()),
                          [&](uint32_t i, VkSurfaceFormatKHR* out) { *out = formats[i]; });
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormats2KHR(VkPhysicalDevice,
                                                                   const VkPhysicalDeviceSurfaceInfo2KHR* pSurfaceInfo,
                                                                   uint32_t* pSurfaceFormatCount,
                                                                   VkSurfaceFormat2KHR* pSurfaceFormats) {
  return Guarded("vkGetPhysicalDeviceSurfaceFormats2KHR", [&] {
    if (VkResult r = CheckSurfaceKind("vkGetPhysicalDeviceSurfaceFormats2KHR", pSurfaceInfo->surface);
        r != VK_SUCCESS)
      return r;
    const auto formats = wsi::SurfaceFormats();
    return FillCountArray(pSurfaceFormatCount, pSurfaceFormats, static_cast<uint32_t>(formats.size()),
                          [&](uint32_t i, VkSurfaceFormat2KHR* out) { out->surfaceFormat = formats[i]; });
  });
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice, VkSurfaceKHR surface,
                                                                       uint32_t* pPresentModeCount,
                                                                       VkPresentModeKHR* pPresentModes) {
  return Guarded("vkGetPhysicalDeviceSurfacePresentModesKHR", [&] {
    if (VkResult r = CheckSurfaceKind("vkGetPhysicalDeviceSurfacePresentModesKHR", surface); r != VK_SUCCESS)
      return r;
    const auto modes = wsi::PresentModes();
    return FillCountArray(pPresentModeCount, pPresentModes, static_cast<uint32_t>(modes.size()),
                          [&](uint32_t i, VkPresentModeKHR* out) { *out = modes[i]; });
  });
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice physicalDevice,
                                                                          uint32_t queueFamilyIndex,
                                                                          xcb_connection_t* connection,
                                                                          xcb_visualid_t visual_id) {
  return wsi::FamilySupportsPresent(*FromHandle(physicalDevice), queueFamilyIndex) &&
                 wsi::X11VisualSupported(connection, visual_id)
             ? VK_TRUE
             : VK_FALSE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice physicalDevice,
                                                                           uint32_t queueFamilyIndex, Display* dpy,
                                                                           VisualID visualID) {
  return wsi::FamilySupportsPresent(*FromHandle(physicalDevice), queueFamilyIndex) &&
                 wsi::X11VisualSupported(wsi::XcbConnectionOf(dpy), static_cast<xcb_visualid_t>(visualID))
             ? VK_TRUE
             : VK_FALSE;
}

}  // namespace crashtest::icd
