#include "wsi/surface.h"

namespace crashtest::wsi {
namespace {

// vk_icd.h declares these under VK_USE_PLATFORM_*_KHR only, which would pull in the X11 headers; the layouts are
// the loader's ABI (base, then the connection/display pointer, then the window id).
struct IcdSurfaceXcb {
  VkIcdSurfaceBase base;
  xcb_connection_t* connection;
  xcb_window_t window;
};
struct IcdSurfaceXlib {
  VkIcdSurfaceBase base;
  Display* dpy;
  Window window;
};

}  // namespace

SurfaceInfo ReadSurface(VkSurfaceKHR surface) {
  SurfaceInfo info;
  if (surface == VK_NULL_HANDLE) return info;
  const auto* base = reinterpret_cast<const VkIcdSurfaceBase*>(surface);
  info.platform = base->platform;
  switch (base->platform) {
    case VK_ICD_WSI_PLATFORM_HEADLESS:
      info.kind = SurfaceKind::Headless;
      break;
    case VK_ICD_WSI_PLATFORM_XCB: {
      const auto* xcb = reinterpret_cast<const IcdSurfaceXcb*>(surface);
      info.kind = SurfaceKind::Xcb;
      info.connection = xcb->connection;
      info.window = xcb->window;
      break;
    }
    case VK_ICD_WSI_PLATFORM_XLIB: {
      const auto* xlib = reinterpret_cast<const IcdSurfaceXlib*>(surface);
      info.kind = SurfaceKind::Xlib;
      info.display = xlib->dpy;
      info.window = static_cast<uint32_t>(xlib->window);
      break;
    }
    default:
      break;
  }
  return info;
}

const char* SurfaceKindName(SurfaceKind kind) {
  switch (kind) {
    case SurfaceKind::Headless: return "headless";
    case SurfaceKind::Xcb: return "xcb";
    case SurfaceKind::Xlib: return "xlib";
    case SurfaceKind::Unsupported: break;
  }
  return "unsupported";
}

}  // namespace crashtest::wsi
