// VkSurfaceKHR as crashtest receives it. crashtest exports no vkCreate*SurfaceKHR, so with loader interface
// version >= 3 the loader creates every surface itself and hands the driver a pointer to its VkIcdSurface*
// struct ("the loader ... creates the VkIcdSurfaceXXX structure ... and the ICD receives it as the VkSurfaceKHR",
// Loader-Driver interface, "Handling KHR Surface Objects in WSI Extensions"). This file reads those structs.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include "wsi/x11_types.h"

namespace crashtest::wsi {

enum class SurfaceKind : uint8_t { Headless, Xcb, Xlib, Unsupported };

struct SurfaceInfo {
  SurfaceKind kind = SurfaceKind::Unsupported;
  VkIcdWsiPlatform platform = VK_ICD_WSI_PLATFORM_HEADLESS;
  xcb_connection_t* connection = nullptr;  // Xcb
  Display* display = nullptr;              // Xlib
  uint32_t window = 0;                     // Xcb and Xlib (an X11 window id)
};

// The loader's struct behind `surface`; Unsupported for platforms crashtest does not implement (and null).
SurfaceInfo ReadSurface(VkSurfaceKHR surface);

const char* SurfaceKindName(SurfaceKind kind);

}  // namespace crashtest::wsi
