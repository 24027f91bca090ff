// The configuration's "options" that govern presentation (docs/wsi.md, docs/configuration.md): the virtual
// display's refresh rate and frame capture.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "profile/read_context.h"

namespace crashtest {

inline constexpr uint32_t kDefaultPresentRefreshRate = 1000;  // Hz: FIFO paces, yet 100 frames take 0.1 s
inline constexpr uint32_t kMaxPresentRefreshRate = 100000;

struct PresentationOptions {
  // The virtual display's vertical blanks per second; FIFO shows one image per blank. 0: no pacing at all.
  uint32_t refreshRate = kDefaultPresentRefreshRate;
  // Where presented images are written as PNG files ("": nowhere unless CRASHTEST_CAPTURE_DIR is set, which
  // overrides it). A relative path is resolved against the configuration file's folder.
  std::string captureDirectory;
  // Capture every Nth present of a swapchain (1: every frame; 0: none, only captureLast).
  uint32_t captureEvery = 1;
  // Keep the last N presented frames in memory and write them when the device is lost (0: none).
  uint32_t captureLast = 0;
};

// Reads the presentation members of "options"; other members are left to their readers. False on an error.
bool ReadPresentationOptions(const ReadContext& ctx, const nlohmann::json& options, const std::string& baseDirectory,
                             PresentationOptions& out);

}  // namespace crashtest
