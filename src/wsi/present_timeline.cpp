#include "wsi/present_timeline.h"

namespace crashtest::wsi {

PresentTimeline::PresentTimeline(VkPresentModeKHR mode, uint32_t imageCount, std::chrono::nanoseconds period,
                                 Time epoch)
    : mode_(mode), period_(period), epoch_(epoch), slots_(imageCount) {}

std::optional<PresentTimeline::Candidate> PresentTimeline::NextAvailable() const {
  std::optional<Candidate> best;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (s.acquired || s.held) continue;
    if (!best || s.availableAt < best->availableAt) best = Candidate{i, s.availableAt};
  }
  return best;
}

uint32_t PresentTimeline::acquiredCount() const {
  uint32_t n = 0;
  for (const Slot& s : slots_) n += s.acquired ? 1 : 0;
  return n;
}

PresentTimeline::Time PresentTimeline::NextBlank(Time t) const {
  if (period_.count() <= 0 || t <= epoch_) return t;
  const auto since = std::chrono::duration_cast<std::chrono::nanoseconds>(t - epoch_);
  const auto blanks = (since.count() + period_.count() - 1) / period_.count();
  return epoch_ + period_ * blanks;
}

PresentTimeline::Time PresentTimeline::Present(uint32_t index, Time now) {
  Time shown = now;
  const bool hasLatest = latest_ >= 0;
  switch (mode_) {
    case VK_PRESENT_MODE_IMMEDIATE_KHR:
      break;
    case VK_PRESENT_MODE_MAILBOX_KHR:
      shown = NextBlank(now);
      break;
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR:
      // "if the vertical blanking period has already passed since the last update of the current image then the
      // presentation engine does not wait for another vertical blanking period"
      if (hasLatest && latestShown_ + period_ <= now) break;
      [[fallthrough]];
    default:  // FIFO
      shown = NextBlank(now);
      if (hasLatest && latestShown_ + period_ > shown) shown = latestShown_ + period_;
      break;
  }
  if (mode_ == VK_PRESENT_MODE_MAILBOX_KHR && hasLatest && latestShown_ > now) {
    // The pending image is replaced before it was shown: free now; what is on screen stays until the new one.
    slots_[latest_].held = false;
    slots_[latest_].availableAt = now;
    if (beforeLatest_ >= 0) slots_[beforeLatest_].availableAt = shown;
  } else {
    if (hasLatest) {
      slots_[latest_].held = false;
      slots_[latest_].availableAt = shown;
    }
    beforeLatest_ = latest_;
  }
  Slot& slot = slots_[index];
  slot.acquired = false;
  slot.held = true;
  latest_ = static_cast<int>(index);
  latestShown_ = shown;
  return shown;
}

}  // namespace crashtest::wsi
