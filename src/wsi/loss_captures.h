// The frame captures of a device that keep frames for a loss (options.captureLast, docs/wsi.md). When the device
// is lost, the crash dump is described (queue/loss_description.cpp) on whichever thread lost it: Describe writes
// every kept frame there, at once, and names the files in the dump, so the files the dump names exist even if the
// application never calls into the swapchain again.
//
// Threads: swapchains register and unregister on the application's threads, the loss is described on another.
#pragma once

#include <mutex>
#include <vector>

#include "fault/dump/dump_content.h"

namespace crashtest::wsi {

class FrameCapture;

class LossCaptures {
 public:
  void Add(FrameCapture* capture);
  void Remove(FrameCapture* capture);
  // Writes the frames every registered capture keeps and appends their files to `out`, oldest first per swapchain.
  void Describe(std::vector<dump::CapturedFrame>& out);

 private:
  std::mutex mutex_;
  std::vector<FrameCapture*> captures_;
};

}  // namespace crashtest::wsi
