#include "wsi/swapchain.h"

#include <unistd.h>

#include <algorithm>
#include <string>
#include <thread>

#include "common/allocation.h"
#include "common/count_array.h"
#include "common/log.h"
#include "common/result.h"
#include "device/device.h"
#include "device/instance.h"
#include "device/physical_device.h"
#include "device/resources.h"
#include "fault/fault_engine.h"
#include "memory/device_memory.h"
#include "queue/fence.h"
#include "queue/semaphore.h"
#include "wsi/loss_captures.h"
#include "wsi/swapchain_validation.h"
#include "wsi/x11_window.h"

namespace crashtest {
namespace {

using Clock = wsi::PresentTimeline::Clock;

std::chrono::nanoseconds RefreshPeriod(const Device& device) {
  const uint32_t rate = device.physicalDevice().instance().presentationOptions().refreshRate;
  return rate == 0 ? std::chrono::nanoseconds(0) : std::chrono::nanoseconds(1000000000ull / rate);
}

bool IsBgra(VkFormat format) { return format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB; }

bool IsX11(const wsi::SurfaceInfo& surface) {
  return surface.kind == wsi::SurfaceKind::Xcb || surface.kind == wsi::SurfaceKind::Xlib;
}

// A memory type for the images: device-local first, as a real driver places swapchain images.
uint32_t ImageMemoryType(const Device& device, uint32_t allowed) {
  const VkPhysicalDeviceMemoryProperties& memory = device.physicalDevice().description().memory;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      return i;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if (allowed & (1u << i)) return i;
  return 0;
}

}  // namespace

VkResult Swapchain::Create(Device& device, const VkSwapchainCreateInfoKHR& info,
                           const VkAllocationCallbacks* allocator, VkSwapchainKHR* out) {
  // "Upon calling vkCreateSwapchainKHR with an oldSwapchain that is not VK_NULL_HANDLE, oldSwapchain is retired —
  // even if creation of the new swapchain fails."
  if (info.oldSwapchain != VK_NULL_HANDLE) FromHandle(info.oldSwapchain)->Retire();
  if (device.faults().lost()) return VK_ERROR_DEVICE_LOST;
  if (VkResult result = wsi::ValidateSwapchainCreateInfo(device.physicalDevice(), info); result != VK_SUCCESS)
    return result;
  const VkAllocationCallbacks* callbacks = ChooseAllocator(allocator, device.allocator());
  auto* swapchain = NewObject<Swapchain>(callbacks, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, device, info,
                                         wsi::ReadSurface(info.surface));
  if (swapchain == nullptr)
    return ReportError(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateSwapchainKHR: out of host memory");
  if (VkResult result = swapchain->CreateImages(info, allocator); result != VK_SUCCESS) {
    Destroy(device, swapchain, allocator);
    return result;
  }
  if (IsX11(swapchain->surface_)) swapchain->ChoosePresentPath();
  CT_DEBUG("vkCreateSwapchainKHR: swapchain %llu, %u images of %ux%u on a %s surface",
           static_cast<unsigned long long>(swapchain->header.id), swapchain->imageCount_, info.imageExtent.width,
           info.imageExtent.height, wsi::SurfaceKindName(swapchain->surface_.kind));
  *out = ToHandle(swapchain);
  return VK_SUCCESS;
}

void Swapchain::Destroy(Device& device, Swapchain* swapchain, const VkAllocationCallbacks* allocator) {
  if (swapchain == nullptr) return;
  if (device.faults().lost()) swapchain->OnDeviceLost();
  swapchain->DestroyImages(allocator);
  DeleteObject(ChooseAllocator(allocator, device.allocator()), swapchain);
}

Swapchain::Swapchain(Device& device, const VkSwapchainCreateInfoKHR& info, const wsi::SurfaceInfo& surface)
    : Object(VK_OBJECT_TYPE_SWAPCHAIN_KHR),
      device_(device),
      surface_(surface),
      format_(info.imageFormat),
      extent_(info.imageExtent),
      presentMode_(info.presentMode),
      imageCount_(info.minImageCount),
      timeline_(std::make_unique<wsi::PresentTimeline>(info.presentMode, info.minImageCount, RefreshPeriod(device),
                                                       Clock::now())),
      capture_(std::make_unique<wsi::FrameCapture>(device.physicalDevice().instance().presentationOptions(),
                                                   header.id)) {
  if (capture_->keepsForLoss()) device_.lossCaptures().Add(capture_.get());
}

Swapchain::~Swapchain() {
  if (capture_->keepsForLoss()) device_.lossCaptures().Remove(capture_.get());
}

VkResult Swapchain::CreateImages(const VkSwapchainCreateInfoKHR& info, const VkAllocationCallbacks* allocator) {
  // The images a swapchain owns are created "as if" by vkCreateImage with these parameters
  // (VkSwapchainCreateInfoKHR: "the image ... created with ... VK_IMAGE_TILING_OPTIMAL ... mipLevels 1").
  VkImageCreateInfo imageInfo{};
  imageInfo.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  imageInfo.imageType = VK_IMAGE_TYPE_2D;
  imageInfo.format = info.imageFormat;
  imageInfo.extent = {info.imageExtent.width, info.imageExtent.height, 1};
  imageInfo.mipLevels = 1;
  imageInfo.arrayLayers = info.imageArrayLayers;
  imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
  imageInfo.tiling = VK_IMAGE_TILING_OPTIMAL;
  imageInfo.usage = info.imageUsage;
  imageInfo.sharingMode = info.imageSharingMode;
  imageInfo.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  images_.reserve(imageCount_);
  memories_.reserve(imageCount_);
  for (uint32_t i = 0; i < imageCount_; ++i) {
    VkImage image = VK_NULL_HANDLE;
    if (VkResult result = Image::Create(device_, imageInfo, allocator, &image); result != VK_SUCCESS) return result;
    images_.push_back(FromHandle(image));
    const VkMemoryRequirements requirements = images_.back()->MemoryRequirements();
    VkMemoryAllocateInfo allocateInfo{};
    allocateInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocateInfo.allocationSize = requirements.size;
    allocateInfo.memoryTypeIndex = ImageMemoryType(device_, requirements.memoryTypeBits);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (VkResult result = DeviceMemory::Allocate(device_, allocateInfo, allocator, &memory); result != VK_SUCCESS)
      return result;
    memories_.push_back(FromHandle(memory));
    if (VkResult result = images_.back()->Bind("vkCreateSwapchainKHR", memories_.back(), 0); result != VK_SUCCESS)
      return result;
  }
  return VK_SUCCESS;
}

void Swapchain::ChoosePresentPath() {
  std::string why;
  if (!IsBgra(format_)) {
    why = "its R8G8B8A8 images are converted to the window's B,G,R order";
  } else {
    // DeviceMemory storage is whole pages (memory/device_memory.h), all of which become the segment.
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<wsi::X11ShmPresenter::Storage> storages;
    for (const DeviceMemory* memory : memories_)
      storages.push_back({memory->data(), (static_cast<size_t>(memory->size()) + page - 1) / page * page});
    shm_ = wsi::X11ShmPresenter::Create(surface_, storages, &why);
  }
  if (shm_)
    CT_DEBUG("vkCreateSwapchainKHR: swapchain %llu presents to X11 window 0x%x with MIT-SHM (xcb_shm_put_image from "
             "the images' own memory)",
             static_cast<unsigned long long>(header.id), surface_.window);
  else
    CT_DEBUG("vkCreateSwapchainKHR: swapchain %llu presents to X11 window 0x%x with xcb_put_image (no MIT-SHM: %s)",
             static_cast<unsigned long long>(header.id), surface_.window, why.c_str());
}

void Swapchain::DestroyImages(const VkAllocationCallbacks* allocator) {
  for (Image* image : images_) Image::Destroy(device_, image, allocator);
  for (DeviceMemory* memory : memories_) DeviceMemory::Free(memory, allocator);
  images_.clear();
  memories_.clear();
}

VkResult Swapchain::GetImages(uint32_t* pCount, VkImage* pImages) const {
  return FillCountArray(pCount, pImages, static_cast<uint32_t>(images_.size()),
                        [&](uint32_t i, VkImage* out) { *out = ToHandle(images_[i]); });
}

VkResult Swapchain::BindToImage(Image& image, uint32_t index) const {
  if (index >= memories_.size())
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkBindImageMemory2: imageIndex %u is not an image of swapchain %llu (%zu images; "
                       "VUID-VkBindImageMemorySwapchainInfoKHR-imageIndex-01644)",
                       index, static_cast<unsigned long long>(header.id), memories_.size());
  return image.Bind("vkBindImageMemory2", memories_[index], 0);
}

VkResult Swapchain::CheckSurface(const char* command) {
  if (surfaceLost_) return VK_ERROR_SURFACE_LOST_KHR;
  if (!IsX11(surface_)) return VK_SUCCESS;
  return NoteWindow(command, wsi::X11WindowGeometry(surface_));
}

VkResult Swapchain::NoteWindow(const char* command, const std::optional<wsi::X11Geometry>& geometry) {
  if (!geometry) {
    surfaceLost_ = true;
    return ReportError(VK_ERROR_SURFACE_LOST_KHR, "%s: X11 window 0x%x of swapchain %llu is gone", command,
                       surface_.window, static_cast<unsigned long long>(header.id));
  }
  window_ = *geometry;
  const VkExtent2D* extent = &geometry->extent;
  if (extent->width != extent_.width || extent->height != extent_.height) {
    if (!outOfDate_)
      CT_INFO("%s: X11 window 0x%x is now %ux%u, swapchain %llu has %ux%u images: out of date", command,
              surface_.window, extent->width, extent->height, static_cast<unsigned long long>(header.id),
              extent_.width, extent_.height);
    outOfDate_ = true;
  }
  return VK_SUCCESS;
}

VkResult Swapchain::Acquire(uint64_t timeoutNs, Semaphore* semaphore, Fence* fence, uint32_t* pIndex) {
  if (device_.faults().lost()) {
    OnDeviceLost();
    return VK_ERROR_DEVICE_LOST;
  }
  // "If the swapchain is retired ... vkAcquireNextImageKHR ... returns VK_ERROR_OUT_OF_DATE_KHR".
  if (retired_) return VK_ERROR_OUT_OF_DATE_KHR;
  if (device_.faults().WatchesSwapchains()) [[unlikely]] {
    if (VkResult result = OnPlannedFault(device_.faults().OnSwapchain(FaultTriggerKind::Acquire));
        result != VK_SUCCESS)
      return result;
  }
  // The window is asked for its size at present only (a round trip to the X server per frame, not two): a resize
  // makes that present VK_SUBOPTIMAL_KHR, and the acquires after it out of date.
  if (surfaceLost_) return VK_ERROR_SURFACE_LOST_KHR;
  if (outOfDate_) return VK_ERROR_OUT_OF_DATE_KHR;
  const auto start = Clock::now();
  // Deadlines past a century are "forever" (steady_clock arithmetic would overflow).
  constexpr uint64_t kForever = 100ull * 365 * 24 * 3600 * 1000000000ull;
  const bool forever = timeoutNs >= kForever;
  const auto deadline = start + std::chrono::nanoseconds(std::min(timeoutNs, kForever));
  for (;;) {
    const auto candidate = timeline_->NextAvailable();
    const auto now = Clock::now();
    if (candidate && candidate->availableAt <= now) {
      timeline_->Acquire(candidate->index);
      *pIndex = candidate->index;
      break;
    }
    if (timeoutNs == 0) return VK_NOT_READY;
    if (!candidate) {
      // Every image is acquired or on screen: only a present frees one, which this thread cannot make. "If the
      // number of currently acquired images is greater than the difference between the number of images in
      // swapchain and the value of VkSurfaceCapabilitiesKHR::minImageCount ... timeout must not be UINT64_MAX"
      // (VUID-vkAcquireNextImageKHR-surface-07783).
      if (forever)
        return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                           "vkAcquireNextImageKHR: all %u images of swapchain %llu are acquired or on screen and the "
                           "timeout is infinite (VUID-vkAcquireNextImageKHR-surface-07783)",
                           imageCount_, static_cast<unsigned long long>(header.id));
      std::this_thread::sleep_until(deadline);
      return VK_TIMEOUT;
    }
    if (candidate->availableAt > deadline) {
      std::this_thread::sleep_until(deadline);
      return VK_TIMEOUT;
    }
    std::this_thread::sleep_until(candidate->availableAt);
  }
  ++acquireCount_;
  // The image is free now, so what the semaphore and fence stand for ("the presentation engine has finished
  // reading from the image") has happened: signal both at once.
  if (semaphore != nullptr) semaphore->Signal(0);
  if (fence != nullptr) fence->Signal();
  return VK_SUCCESS;
}

VkResult Swapchain::Present(uint32_t index) {
  if (index >= imageCount_ || !timeline_->acquired(index))
    return ReportError(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkQueuePresentKHR: image %u of swapchain %llu is not acquired "
                       "(VUID-VkPresentInfoKHR-pImageIndices-01430)",
                       index, static_cast<unsigned long long>(header.id));
  if (device_.faults().lost()) {
    OnDeviceLost();
    return VK_ERROR_DEVICE_LOST;
  }
  if (device_.faults().WatchesSwapchains()) [[unlikely]] {
    if (VkResult result = OnPlannedFault(device_.faults().OnSwapchain(FaultTriggerKind::Present));
        result != VK_SUCCESS) {
      // "the set of queue operations are still considered to be enqueued": the image goes back to the
      // presentation engine, unshown.
      timeline_->Present(index, Clock::now());
      return result;
    }
  }
  ++presentCount_;
  const Image& image = *images_[index];
  const VkSubresourceLayout layout = image.layout().Subresource(VK_IMAGE_ASPECT_COLOR_BIT, 0, 0);
  const std::byte* pixels = image.data() + layout.offset;
  if (capture_->Wants(presentCount_))
    capture_->OnPresent(
        wsi::ToRgbFrame(presentCount_, pixels, extent_.width, extent_.height, layout.rowPitch, IsBgra(format_)));
  const VkResult result = IsX11(surface_) ? PresentToX11(index, pixels, layout) : CheckSurface("vkQueuePresentKHR");
  // The image goes back to the presentation engine whatever the outcome ("the image is ... released" even when
  // an error is returned, as long as the queue operation happened).
  timeline_->Present(index, Clock::now());
  if (result != VK_SUCCESS) return result;
  // "VK_SUBOPTIMAL_KHR: A swapchain no longer matches the surface properties exactly, but can still be used to
  // present to the surface successfully": the frame was shown (cropped); the next acquire says OUT_OF_DATE.
  return outOfDate_ ? VK_SUBOPTIMAL_KHR : VK_SUCCESS;
}

VkResult Swapchain::PresentToX11(uint32_t index, const std::byte* pixels, const VkSubresourceLayout& layout) {
  if (surfaceLost_) return VK_ERROR_SURFACE_LOST_KHR;
  if (shm_) {
    // The put first, then the geometry: its reply says both that the server has read the image and whether the
    // window still has the swapchain's size (the server clipped the frame to the window in any case).
    const wsi::X11ShmPresenter::Outcome outcome =
        shm_->Present(index, static_cast<size_t>(layout.offset), static_cast<size_t>(layout.rowPitch),
                      extent_.width, extent_.height);
    if (!outcome.putFailed) return NoteWindow("vkQueuePresentKHR", outcome.window);
    CT_WARN("vkQueuePresentKHR: swapchain %llu presents with xcb_put_image from now on",
            static_cast<unsigned long long>(header.id));
    shm_.reset();
  }
  if (VkResult result = CheckSurface("vkQueuePresentKHR"); result != VK_SUCCESS) return result;
  if (!wsi::X11PutImage(surface_, window_, pixels, extent_.width, extent_.height, static_cast<size_t>(layout.rowPitch),
                        IsBgra(format_))) {
    surfaceLost_ = true;
    return ReportError(VK_ERROR_SURFACE_LOST_KHR, "vkQueuePresentKHR: X11 window 0x%x is gone", surface_.window);
  }
  return VK_SUCCESS;
}

void Swapchain::OnDeviceLost() { capture_->FlushOnLoss(); }

VkResult Swapchain::OnPlannedFault(VkResult result) {
  // What a planned fault did stays true: a lost surface stays lost, an out-of-date swapchain must be recreated.
  if (result == VK_ERROR_SURFACE_LOST_KHR) surfaceLost_ = true;
  if (result == VK_ERROR_OUT_OF_DATE_KHR) outOfDate_ = true;
  if (result == VK_ERROR_DEVICE_LOST) OnDeviceLost();
  return result;
}

}  // namespace crashtest
