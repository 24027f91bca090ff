// When each swapchain image is shown on the virtual display and when the presentation engine gives it back,
// for the four present modes, against a virtual vertical blank every `period` (0: no pacing). Pure logic on
// explicit times, so it is tested without sleeping; Swapchain sleeps on what it answers.
//
// The model (VkPresentModeKHR):
// - IMMEDIATE: shown at once; the image it replaces is free at once.
// - MAILBOX: shown at the next blank; a newer present before that blank replaces it, and the replaced image is
//   free at once ("the single entry is replaced ... and the image is released").
// - FIFO: one image per blank, in present order ("the queue ... is processed during vertical blanking").
// - FIFO_RELAXED: as FIFO, but an image presented after the blank it was due at is shown at once.
// An image stays on screen, and so unavailable, until the next image is shown.
#pragma once

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace crashtest::wsi {

class PresentTimeline {
 public:
  using Clock = std::chrono::steady_clock;
  using Time = Clock::time_point;

  PresentTimeline(VkPresentModeKHR mode, uint32_t imageCount, std::chrono::nanoseconds period, Time epoch);

  struct Candidate {
    uint32_t index;
    Time availableAt;  // the image may be acquired from this time on
  };
  // The free image available soonest; nullopt when every image is acquired or on screen (only the application can
  // change that, by presenting).
  std::optional<Candidate> NextAvailable() const;
  void Acquire(uint32_t index) { slots_[index].acquired = true; }
  bool acquired(uint32_t index) const { return slots_[index].acquired; }
  uint32_t acquiredCount() const;
  // Presents an acquired image at `now`; returns when it is shown.
  Time Present(uint32_t index, Time now);

 private:
  struct Slot {
    bool acquired = false;
    bool held = false;  // the newest presented image: on screen (or about to be) until another is shown
    Time availableAt{};
  };
  Time NextBlank(Time t) const;

  VkPresentModeKHR mode_;
  std::chrono::nanoseconds period_;
  Time epoch_;
  std::vector<Slot> slots_;
  int latest_ = -1;        // the newest presented image
  Time latestShown_{};     // when it is (or was) shown
  int beforeLatest_ = -1;  // the image it replaces on screen
};

}  // namespace crashtest::wsi
