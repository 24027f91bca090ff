// The X11 and XCB types the platform headers (vulkan_xcb.h, vulkan_xlib.h) and the loader's VkIcdSurfaceXcb /
// VkIcdSurfaceXlib name, declared exactly as xcb.h, xproto.h, X.h and Xlib.h declare them (a repeated typedef of
// the same type is allowed), so the entry-point table and the surface code need no X11 headers: the build works
// without libxcb / libX11, and Xlib's macros (None, Bool, Status, ...) stay out of crashtest's sources.
#pragma once

#include <cstdint>

typedef struct xcb_connection_t xcb_connection_t;
typedef uint32_t xcb_window_t;
typedef uint32_t xcb_visualid_t;
typedef struct _XDisplay Display;
typedef unsigned long VisualID;
typedef unsigned long Window;
