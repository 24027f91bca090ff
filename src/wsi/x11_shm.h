// The MIT-SHM present path (X11 MIT-SHM extension, xcb_shm_put_image): the X server reads a frame straight from the
// swapchain image's memory, with no copy in crashtest and none through the socket. X11PutImage (x11_window.h) stays
// the path when the build lacks libxcb-shm, the server lacks the extension or refuses the segments (a remote
// display), CRASHTEST_X11_SHM is "0", or the format needs converting (R8G8B8A8).
//
// How the image's memory becomes a segment: a DeviceMemory's storage is a page-aligned anonymous mapping, unmapped
// when the memory is destroyed (memory/device_memory.h). Each swapchain image's storage is replaced in place by a
// fresh SysV segment (shmat with SHM_REMAP over the same addresses; the memory is new, so nothing is lost), so
// data() and address() stay what they were. The segment is marked for removal (IPC_RMID) as soon as the server has
// attached it: it disappears when both sides have detached — the server at ~X11ShmPresenter (or when the
// connection closes), crashtest when the memory's storage is unmapped — and a crash leaks nothing.
//
// Synchronisation: "the client should not modify the shared memory until the server is done with it" (MIT-SHM).
// Present sends the ShmPutImage and then asks for the window's geometry; the server handles a client's requests in
// order, so the reply means the image has been read, and the swapchain hands the image back only after that.
// Completion events (send_event) would arrive on the application's connection, among its own events: not used.
//
// Threads: as the swapchain (externally synchronised); XCB serialises the connection itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wsi/surface.h"
#include "wsi/x11_window.h"

namespace crashtest::wsi {

// Set to "0", the environment variable turns the MIT-SHM path off (every frame through xcb_put_image).
inline constexpr const char* kX11ShmEnvironmentVariable = "CRASHTEST_X11_SHM";

class X11ShmPresenter {
 public:
  // One swapchain image's memory: DeviceMemory storage (page-aligned, `size` bytes rounded up to whole pages).
  struct Storage {
    std::byte* data;
    size_t size;
  };

  // Turns each storage into a segment and attaches them all to the X server of `surface` (one round trip).
  // nullptr when MIT-SHM cannot be used, with the reason in *why; the storages then still work as memory.
  static std::unique_ptr<X11ShmPresenter> Create(const SurfaceInfo& surface, std::span<const Storage> storages,
                                                 std::string* why);
  ~X11ShmPresenter();  // detaches the segments from the server and frees the GC
  X11ShmPresenter(const X11ShmPresenter&) = delete;
  X11ShmPresenter& operator=(const X11ShmPresenter&) = delete;

  struct Outcome {
    std::optional<X11Geometry> window;  // the window after the put; nullopt: it or the connection is gone
    bool putFailed = false;             // the server refused the put (window still there): present another way
  };
  // Draws image `index` (rows of B,G,R,X texels at `offset` in its storage, `rowPitch` bytes apart) at the
  // window's (0, 0); the server clips it to the window. Returns once the server has read it (above).
  Outcome Present(uint32_t index, size_t offset, size_t rowPitch, uint32_t width, uint32_t height);

 private:
  X11ShmPresenter(const SurfaceInfo& surface, xcb_connection_t* connection)
      : surface_(surface), connection_(connection) {}

  SurfaceInfo surface_;
  xcb_connection_t* connection_;
  uint32_t gc_ = 0;
  uint8_t depth_ = 0;  // the window's (a window's depth never changes)
  std::vector<uint32_t> segments_;  // xcb_shm_seg_t per image, attached to the server
};

}  // namespace crashtest::wsi
