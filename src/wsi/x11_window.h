// The X11 side of presentation, through XCB (an Xlib surface's Display gives its XCB connection): the window's
// size (for currentExtent and OUT_OF_DATE) and a plain put-image of a presented frame. Without libxcb at build
// time (CRASHTEST_HAVE_X11 unset) the X11 surface extensions are not advertised and these report failure.
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "wsi/surface.h"

namespace crashtest::wsi {

// Whether this build can present to X11 (VK_KHR_xcb_surface / VK_KHR_xlib_surface are advertised).
bool X11Supported();

struct X11Geometry {
  VkExtent2D extent;
  uint8_t depth;
};

// The window's current size and depth (one round trip); nullopt when the window or the connection is gone
// (VK_ERROR_SURFACE_LOST_KHR).
std::optional<X11Geometry> X11WindowGeometry(const SurfaceInfo& surface);
inline std::optional<VkExtent2D> X11WindowExtent(const SurfaceInfo& surface) {
  auto geometry = X11WindowGeometry(surface);
  return geometry ? std::optional<VkExtent2D>(geometry->extent) : std::nullopt;
}

// The window's root depth-24/32 TrueColor visual check for presentation support: true when `visual` is one the
// put-image path can draw into (24 or 32 bits, 8 bits per channel), or when it is unknown to the screen list.
bool X11VisualSupported(xcb_connection_t* connection, xcb_visualid_t visual);

// The XCB connection under an Xlib Display (nullptr without X11 support).
xcb_connection_t* XcbConnectionOf(Display* display);
// The XCB connection an X11 surface presents through (an Xlib surface's Display gives its own); nullptr for other
// surfaces or without X11 support.
xcb_connection_t* X11ConnectionOf(const SurfaceInfo& surface);

// Draws a frame into the window at (0, 0), cropped to `window` (the geometry the caller just queried, so a present
// costs one round trip). `pixels` are rows of 4-byte texels, B,G,R,X in memory order when `bgra` (sent as they are
// when the rows are contiguous), else R,G,B,X (converted). False when the connection is gone.
bool X11PutImage(const SurfaceInfo& surface, const X11Geometry& window, const std::byte* pixels, uint32_t width,
                 uint32_t height, size_t rowPitch, bool bgra);

}  // namespace crashtest::wsi
