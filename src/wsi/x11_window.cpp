#include "wsi/x11_window.h"

#ifdef CRASHTEST_HAVE_X11
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>
#endif

namespace crashtest::wsi {

#ifdef CRASHTEST_HAVE_X11
namespace {

std::optional<X11Geometry> QueryGeometry(xcb_connection_t* c, xcb_window_t window) {
  if (c == nullptr || xcb_connection_has_error(c)) return std::nullopt;
  xcb_generic_error_t* error = nullptr;
  xcb_get_geometry_reply_t* reply = xcb_get_geometry_reply(c, xcb_get_geometry(c, window), &error);
  std::free(error);
  if (reply == nullptr) return std::nullopt;
  X11Geometry g{{reply->width, reply->height}, reply->depth};
  std::free(reply);
  return g;
}

}  // namespace

bool X11Supported() { return true; }

xcb_connection_t* XcbConnectionOf(Display* display) {
  return display != nullptr ? XGetXCBConnection(display) : nullptr;
}

xcb_connection_t* X11ConnectionOf(const SurfaceInfo& surface) {
  if (surface.kind == SurfaceKind::Xcb) return surface.connection;
  if (surface.kind == SurfaceKind::Xlib && surface.display != nullptr) return XGetXCBConnection(surface.display);
  return nullptr;
}

std::optional<X11Geometry> X11WindowGeometry(const SurfaceInfo& surface) {
  return QueryGeometry(X11ConnectionOf(surface), surface.window);
}

bool X11VisualSupported(xcb_connection_t* connection, xcb_visualid_t visual) {
  if (connection == nullptr || xcb_connection_has_error(connection)) return false;
  for (auto screen = xcb_setup_roots_iterator(xcb_get_setup(connection)); screen.rem; xcb_screen_next(&screen)) {
    for (auto depth = xcb_screen_allowed_depths_iterator(screen.data); depth.rem; xcb_depth_next(&depth)) {
      for (auto v = xcb_depth_visuals_iterator(depth.data); v.rem; xcb_visualtype_next(&v)) {
        if (v.data->visual_id != visual) continue;
        return (depth.data->depth == 24 || depth.data->depth == 32) && v.data->bits_per_rgb_value == 8 &&
               v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR;
      }
    }
  }
  return true;
}

bool X11PutImage(const SurfaceInfo& surface, const X11Geometry& window, const std::byte* pixels, uint32_t width,
                 uint32_t height, size_t rowPitch, bool bgra) {
  xcb_connection_t* c = X11ConnectionOf(surface);
  if (c == nullptr || xcb_connection_has_error(c)) return false;
  // Only what fits in the window is drawn; a window of another depth cannot take a ZPixmap of 32-bit texels.
  const uint32_t w = std::min<uint32_t>(width, window.extent.width);
  const uint32_t h = std::min<uint32_t>(height, window.extent.height);
  if (w == 0 || h == 0 || (window.depth != 24 && window.depth != 32)) return true;
  // B,G,R,X rows that follow each other are the ZPixmap already: send them from the image itself (no copy).
  const bool direct = bgra && rowPitch == static_cast<size_t>(w) * 4;
  const xcb_gcontext_t gc = xcb_generate_id(c);
  xcb_create_gc(c, gc, surface.window, 0, nullptr);
  // A PutImage request holds at most the maximum request length (4-byte units) less its 24-byte header: send
  // bands of rows that fit.
  const size_t maxBytes = static_cast<size_t>(xcb_get_maximum_request_length(c)) * 4 - 64;
  const size_t bandRows = std::max<size_t>(1, maxBytes / (static_cast<size_t>(w) * 4));
  std::vector<uint8_t> band;
  for (uint32_t y = 0; y < h; y += static_cast<uint32_t>(bandRows)) {
    const uint32_t rows = static_cast<uint32_t>(std::min<size_t>(bandRows, h - y));
    const size_t bytes = static_cast<size_t>(w) * 4 * rows;
    if (direct) {
      xcb_put_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, surface.window, gc, static_cast<uint16_t>(w),
                    static_cast<uint16_t>(rows), 0, static_cast<int16_t>(y), 0, window.depth,
                    static_cast<uint32_t>(bytes), reinterpret_cast<const uint8_t*>(pixels + y * rowPitch));
      continue;
    }
    band.resize(bytes);
    for (uint32_t r = 0; r < rows; ++r) {
      const auto* src = reinterpret_cast<const uint8_t*>(pixels + (y + r) * rowPitch);
      uint8_t* dst = band.data() + static_cast<size_t>(r) * w * 4;
      if (bgra) {
        std::memcpy(dst, src, static_cast<size_t>(w) * 4);
      } else {
        for (uint32_t x = 0; x < w; ++x) {
          dst[x * 4 + 0] = src[x * 4 + 2];
          dst[x * 4 + 1] = src[x * 4 + 1];
          dst[x * 4 + 2] = src[x * 4 + 0];
          dst[x * 4 + 3] = src[x * 4 + 3];
        }
      }
    }
    xcb_put_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, surface.window, gc, static_cast<uint16_t>(w),
                  static_cast<uint16_t>(rows), 0, static_cast<int16_t>(y), 0, window.depth,
                  static_cast<uint32_t>(band.size()), band.data());
  }
  xcb_free_gc(c, gc);
  xcb_flush(c);
  return !xcb_connection_has_error(c);
}

#else

bool X11Supported() { return false; }
xcb_connection_t* XcbConnectionOf(Display*) { return nullptr; }
xcb_connection_t* X11ConnectionOf(const SurfaceInfo&) { return nullptr; }
std::optional<X11Geometry> X11WindowGeometry(const SurfaceInfo&) { return std::nullopt; }
bool X11VisualSupported(xcb_connection_t*, xcb_visualid_t) { return false; }
bool X11PutImage(const SurfaceInfo&, const X11Geometry&, const std::byte*, uint32_t, uint32_t, size_t, bool) {
  return false;
}

#endif

}  // namespace crashtest::wsi
