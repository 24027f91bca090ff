#include "wsi/loss_captures.h"

#include <algorithm>

#include "wsi/frame_capture.h"

namespace crashtest::wsi {

void LossCaptures::Add(FrameCapture* capture) {
  std::lock_guard lock(mutex_);
  captures_.push_back(capture);
}

void LossCaptures::Remove(FrameCapture* capture) {
  std::lock_guard lock(mutex_);
  captures_.erase(std::remove(captures_.begin(), captures_.end(), capture), captures_.end());
}

void LossCaptures::Describe(std::vector<dump::CapturedFrame>& out) {
  std::lock_guard lock(mutex_);
  for (FrameCapture* capture : captures_) {
    std::vector<dump::CapturedFrame> written = capture->FlushOnLoss();
    out.insert(out.end(), std::make_move_iterator(written.begin()), std::make_move_iterator(written.end()));
  }
}

}  // namespace crashtest::wsi
