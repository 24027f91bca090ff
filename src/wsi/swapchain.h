// VkSwapchainKHR: images in crashtest's own memory (Image + DeviceMemory, as the application's would be), handed
// out by vkAcquireNextImageKHR on the present timeline (present_timeline.h) and taken back by vkQueuePresentKHR,
// which shows them on an X11 window or nowhere (headless) and captures them (frame_capture.h).
//
// Threads: "Host access to swapchain must be externally synchronized" for vkAcquireNextImageKHR and the swapchains
// of vkQueuePresentKHR, so the object needs no lock.
#pragma once

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/handle.h"
#include "common/object.h"
#include "wsi/frame_capture.h"
#include "wsi/present_timeline.h"
#include "wsi/surface.h"
#include "wsi/x11_shm.h"
#include "wsi/x11_window.h"

namespace crashtest {

class Device;
class DeviceMemory;
class Image;
class Semaphore;
class Fence;
CT_DEFINE_HANDLE(Swapchain, VkSwapchainKHR, VK_OBJECT_TYPE_SWAPCHAIN_KHR);

class Swapchain : public Object {
 public:
  // vkCreateSwapchainKHR: validates the create info against the surface's capabilities (VUIDs logged), creates
  // the images and their memory, and retires `oldSwapchain`.
  static VkResult Create(Device& device, const VkSwapchainCreateInfoKHR& info, const VkAllocationCallbacks* allocator,
                         VkSwapchainKHR* out);
  static void Destroy(Device& device, Swapchain* swapchain, const VkAllocationCallbacks* allocator);

  Swapchain(Device& device, const VkSwapchainCreateInfoKHR& info, const wsi::SurfaceInfo& surface);
  ~Swapchain();
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  VkResult GetImages(uint32_t* pCount, VkImage* pImages) const;
  // vkAcquireNextImageKHR: waits up to `timeoutNs` for a free image (VK_NOT_READY for 0, VK_TIMEOUT after), then
  // signals `semaphore` and `fence` (either may be null) — at once, since the image is free when returned.
  VkResult Acquire(uint64_t timeoutNs, Semaphore* semaphore, Fence* fence, uint32_t* pIndex);
  // One swapchain's part of vkQueuePresentKHR, once the wait semaphores have been waited on through the queue.
  VkResult Present(uint32_t index);
  // VkBindImageMemorySwapchainInfoKHR: binds `image` to the memory of swapchain image `index`.
  VkResult BindToImage(Image& image, uint32_t index) const;
  // The device was lost: writes the frames kept for a loss (options.captureLast) unless the crash dump did already
  // (wsi/loss_captures.h; a fault without a binary describes no dump).
  void OnDeviceLost();

  Device& device() const { return device_; }
  VkExtent2D extent() const { return extent_; }
  VkFormat format() const { return format_; }
  VkPresentModeKHR presentMode() const { return presentMode_; }
  const wsi::SurfaceInfo& surface() const { return surface_; }
  uint64_t presentCount() const { return presentCount_; }
  uint64_t acquireCount() const { return acquireCount_; }
  // "oldSwapchain is retired — even if creation of the new swapchain fails": no more acquires.
  void Retire() { retired_ = true; }

 private:
  VkResult CreateImages(const VkSwapchainCreateInfoKHR& info, const VkAllocationCallbacks* allocator);
  void DestroyImages(const VkAllocationCallbacks* allocator);
  // X11 surfaces: chooses how frames reach the window — MIT-SHM from the images' own memory when the server takes
  // it, else xcb_put_image (wsi/x11_shm.h) — and logs the choice.
  void ChoosePresentPath();
  // Whether the surface still matches the swapchain: an X11 window of another size makes it out of date. Keeps
  // the window's geometry for the put-image that follows (one round trip per present).
  VkResult CheckSurface(const char* command);
  // CheckSurface's verdict on the window's geometry as just queried (nullopt: the window is gone).
  VkResult NoteWindow(const char* command, const std::optional<wsi::X11Geometry>& geometry);
  // Draws image `index` on the X11 window and checks the window (one round trip).
  VkResult PresentToX11(uint32_t index, const std::byte* pixels, const VkSubresourceLayout& layout);
  // The result of a planned present/acquire fault (FaultEngine::OnSwapchain), made lasting.
  VkResult OnPlannedFault(VkResult result);

  Device& device_;
  wsi::SurfaceInfo surface_;
  VkFormat format_;
  VkExtent2D extent_;
  VkPresentModeKHR presentMode_;
  uint32_t imageCount_;
  std::vector<Image*> images_;
  std::vector<DeviceMemory*> memories_;
  std::unique_ptr<wsi::PresentTimeline> timeline_;
  std::unique_ptr<wsi::FrameCapture> capture_;
  std::unique_ptr<wsi::X11ShmPresenter> shm_;  // the MIT-SHM path; null: xcb_put_image (or not X11)
  uint64_t presentCount_ = 0;
  uint64_t acquireCount_ = 0;
  bool retired_ = false;
  bool outOfDate_ = false;
  bool surfaceLost_ = false;
  wsi::X11Geometry window_{};  // as CheckSurface last saw it (X11 surfaces)
};

}  // namespace crashtest
