#include "wsi/x11_shm.h"

#include <cstdlib>
#include <cstring>

#ifdef CRASHTEST_HAVE_XCB_SHM
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <cerrno>
#include <utility>
#endif

#include "common/log.h"

namespace crashtest::wsi {

#ifdef CRASHTEST_HAVE_XCB_SHM

std::unique_ptr<X11ShmPresenter> X11ShmPresenter::Create(const SurfaceInfo& surface,
                                                         std::span<const Storage> storages, std::string* why) {
  if (const char* setting = std::getenv(kX11ShmEnvironmentVariable);
      setting != nullptr && std::strcmp(setting, "0") == 0) {
    *why = "CRASHTEST_X11_SHM is 0";
    return nullptr;
  }
  xcb_connection_t* c = X11ConnectionOf(surface);
  if (c == nullptr || xcb_connection_has_error(c)) {
    *why = "the X connection is broken";
    return nullptr;
  }
  // One QueryExtension round trip per connection (XCB caches the answer).
  const xcb_query_extension_reply_t* extension = xcb_get_extension_data(c, &xcb_shm_id);
  if (extension == nullptr || !extension->present) {
    *why = "the X server has no MIT-SHM extension";
    return nullptr;
  }
  std::unique_ptr<X11ShmPresenter> presenter(new X11ShmPresenter(surface, c));

  // The segments, in place of the storages. A failure part way leaves the storages already remapped as private
  // segments (marked for removal below): still the same memory to crashtest.
  std::vector<int> ids;
  auto removeAll = [&ids] {
    for (int id : ids) shmctl(id, IPC_RMID, nullptr);
  };
  for (const Storage& storage : storages) {
    // 0600: only this user's clients can attach it, so a server on another machine (which would look the id up
    // in its own segments) refuses it — the fallback for remote displays.
    const int id = shmget(IPC_PRIVATE, storage.size, IPC_CREAT | 0600);
    if (id < 0) {
      *why = std::string("shmget failed: ") + std::strerror(errno);
      removeAll();
      return nullptr;
    }
    if (shmat(id, storage.data, SHM_REMAP) == reinterpret_cast<void*>(-1)) {
      *why = std::string("shmat failed: ") + std::strerror(errno);
      shmctl(id, IPC_RMID, nullptr);
      removeAll();
      return nullptr;
    }
    ids.push_back(id);
  }

  // Attach them all read-only (the server only reads frames), then one round trip: the geometry reply comes after
  // every attach has been handled, so checking them costs nothing more.
  std::vector<std::pair<uint32_t, xcb_void_cookie_t>> attaches;
  for (int id : ids) {
    const xcb_shm_seg_t segment = xcb_generate_id(c);
    attaches.emplace_back(segment, xcb_shm_attach_checked(c, segment, static_cast<uint32_t>(id), 1));
  }
  presenter->gc_ = xcb_generate_id(c);
  const uint32_t noExposures = 0;
  xcb_create_gc(c, presenter->gc_, surface.window, XCB_GC_GRAPHICS_EXPOSURES, &noExposures);
  const std::optional<X11Geometry> window = X11WindowGeometry(surface);
  bool attached = true;
  for (const auto& [segment, cookie] : attaches) {
    if (xcb_generic_error_t* error = xcb_request_check(c, cookie)) {
      if (attached) *why = "the X server refused a segment (error " + std::to_string(error->error_code) + ")";
      attached = false;
      std::free(error);
    } else {
      presenter->segments_.push_back(segment);
    }
  }
  // Attached or not, the ids are no longer needed: each segment now lives as long as its attachments.
  removeAll();
  if (!attached) return nullptr;
  if (!window) {
    *why = "the window is gone";
    return nullptr;
  }
  if (window->depth != 24 && window->depth != 32) {
    *why = "the window's depth is " + std::to_string(window->depth);
    return nullptr;
  }
  presenter->depth_ = window->depth;
  return presenter;
}

X11ShmPresenter::~X11ShmPresenter() {
  if (xcb_connection_has_error(connection_)) return;
  for (uint32_t segment : segments_) xcb_shm_detach(connection_, segment);
  if (gc_ != 0) xcb_free_gc(connection_, gc_);
  xcb_flush(connection_);
}

X11ShmPresenter::Outcome X11ShmPresenter::Present(uint32_t index, size_t offset, size_t rowPitch, uint32_t width,
                                                  uint32_t height) {
  Outcome outcome;
  if (xcb_connection_has_error(connection_)) return outcome;
  // Rows `rowPitch` apart are an image rowPitch / 4 texels wide, of which the first `width` are shown. Checked:
  // its error comes back with the round trip below rather than among the application's events.
  const xcb_void_cookie_t put = xcb_shm_put_image_checked(
      connection_, surface_.window, gc_, static_cast<uint16_t>(rowPitch / 4), static_cast<uint16_t>(height), 0, 0,
      static_cast<uint16_t>(width), static_cast<uint16_t>(height), 0, 0, depth_, XCB_IMAGE_FORMAT_Z_PIXMAP, 0,
      segments_[index], static_cast<uint32_t>(offset));
  outcome.window = X11WindowGeometry(surface_);
  if (xcb_generic_error_t* error = xcb_request_check(connection_, put)) {
    // A window that is gone refuses the put too; that is the geometry's answer already.
    outcome.putFailed = outcome.window.has_value();
    if (outcome.putFailed)
      CT_WARN("X11 window 0x%x: the server refused an MIT-SHM put (error %u)", surface_.window,
              static_cast<unsigned>(error->error_code));
    std::free(error);
  }
  return outcome;
}

#else

std::unique_ptr<X11ShmPresenter> X11ShmPresenter::Create(const SurfaceInfo&, std::span<const Storage>,
                                                         std::string* why) {
  *why = "built without libxcb-shm";
  return nullptr;
}

X11ShmPresenter::~X11ShmPresenter() = default;

X11ShmPresenter::Outcome X11ShmPresenter::Present(uint32_t, size_t, size_t, uint32_t, uint32_t) { return {}; }

#endif

}  // namespace crashtest::wsi
