// Frame capture (docs/wsi.md): presented images written as PNG files for CI artefacts — every Nth present, and/or
// the last N presents kept in memory and written when the device is lost. CRASHTEST_CAPTURE_DIR overrides the
// configuration's options.captureDirectory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "fault/dump/dump_content.h"
#include "profile/presentation_options.h"

namespace crashtest::wsi {

inline constexpr const char* kCaptureDirEnvironmentVariable = "CRASHTEST_CAPTURE_DIR";

// One presented frame as 8-bit RGB rows.
struct CapturedFrame {
  uint64_t number = 0;  // the swapchain's present count, from 1
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgb;
};

// Converts rows of 4-byte texels (B,G,R,A when `bgra`, else R,G,B,A) to RGB; alpha is dropped: a swapchain with
// VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR shows none.
CapturedFrame ToRgbFrame(uint64_t number, const std::byte* pixels, uint32_t width, uint32_t height, size_t rowPitch,
                         bool bgra);

// Writes a PNG file atomically (a temporary file renamed into place). False, logged, on failure.
bool WritePng(const std::string& path, const CapturedFrame& frame);

class FrameCapture {
 public:
  // `swapchainId` names the files: <dir>/crashtest-<pid>-swapchain<id>-frame<number>.png.
  FrameCapture(const PresentationOptions& options, uint64_t swapchainId);

  bool enabled() const { return !directory_.empty() && (every_ != 0 || last_ != 0); }
  // Whether frames are kept for a loss (options.captureLast), so the device's LossCaptures must know this one.
  bool keepsForLoss() const { return !directory_.empty() && last_ != 0; }
  // Whether present number `number` (from 1) must be read back at all.
  bool Wants(uint64_t number) const;
  void OnPresent(CapturedFrame&& frame);
  // Writes the frames kept for a loss (once: later calls write nothing); returns the files written. Called by the
  // thread that describes the loss (LossCaptures) while the application may be presenting, hence the lock.
  std::vector<dump::CapturedFrame> FlushOnLoss();
  const std::string& directory() const { return directory_; }

 private:
  std::string PathOf(uint64_t number, const char* suffix) const;

  std::string directory_;
  uint32_t every_;
  uint32_t last_;
  uint64_t swapchainId_;
  std::mutex mutex_;  // guards recent_ and flushed_
  std::deque<CapturedFrame> recent_;
  bool flushed_ = false;
};

}  // namespace crashtest::wsi
