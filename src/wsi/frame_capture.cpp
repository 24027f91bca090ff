#include "wsi/frame_capture.h"

#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/log.h"

namespace crashtest::wsi {

CapturedFrame ToRgbFrame(uint64_t number, const std::byte* pixels, uint32_t width, uint32_t height, size_t rowPitch,
                         bool bgra) {
  CapturedFrame frame{number, width, height, {}};
  frame.rgb.resize(static_cast<size_t>(width) * height * 3);
  for (uint32_t y = 0; y < height; ++y) {
    const auto* src = reinterpret_cast<const uint8_t*>(pixels + y * rowPitch);
    uint8_t* dst = frame.rgb.data() + static_cast<size_t>(y) * width * 3;
    for (uint32_t x = 0; x < width; ++x) {
      dst[x * 3 + 0] = src[x * 4 + (bgra ? 2 : 0)];
      dst[x * 3 + 1] = src[x * 4 + 1];
      dst[x * 3 + 2] = src[x * 4 + (bgra ? 0 : 2)];
    }
  }
  return frame;
}

bool WritePng(const std::string& path, const CapturedFrame& frame) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = frame.width;
  image.height = frame.height;
  image.format = PNG_FORMAT_RGB;
  const std::string temporary = path + ".tmp";
  if (png_image_write_to_file(&image, temporary.c_str(), 0, frame.rgb.data(),
                              static_cast<png_int_32>(frame.width * 3), nullptr) == 0) {
    CT_ERROR("frame capture: cannot write %s: %s", temporary.c_str(), image.message);
    std::remove(temporary.c_str());
    return false;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    CT_ERROR("frame capture: cannot rename %s to %s", temporary.c_str(), path.c_str());
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

FrameCapture::FrameCapture(const PresentationOptions& options, uint64_t swapchainId)
    : directory_(options.captureDirectory),
      every_(options.captureEvery),
      last_(options.captureLast),
      swapchainId_(swapchainId) {
  if (const char* env = std::getenv(kCaptureDirEnvironmentVariable); env != nullptr && env[0] != '\0')
    directory_ = env;
  if (enabled()) {
    std::error_code error;
    std::filesystem::create_directories(directory_, error);
    if (error) CT_ERROR("frame capture: cannot create %s: %s", directory_.c_str(), error.message().c_str());
  }
}

bool FrameCapture::Wants(uint64_t number) const {
  if (!enabled()) return false;
  return last_ != 0 || (every_ != 0 && (number - 1) % every_ == 0);
}

std::string FrameCapture::PathOf(uint64_t number, const char* suffix) const {
  char name[128];
  std::snprintf(name, sizeof name, "crashtest-%ld-swapchain%llu-frame%06llu%s.png", static_cast<long>(getpid()),
                static_cast<unsigned long long>(swapchainId_), static_cast<unsigned long long>(number), suffix);
  return (std::filesystem::path(directory_) / name).string();
}

void FrameCapture::OnPresent(CapturedFrame&& frame) {
  if (every_ != 0 && (frame.number - 1) % every_ == 0) WritePng(PathOf(frame.number, ""), frame);
  if (last_ == 0) return;
  std::lock_guard lock(mutex_);
  if (flushed_) return;  // the device is lost: what it showed last is written already
  recent_.push_back(std::move(frame));
  while (recent_.size() > last_) recent_.pop_front();
}

std::vector<dump::CapturedFrame> FrameCapture::FlushOnLoss() {
  std::vector<dump::CapturedFrame> written;
  std::lock_guard lock(mutex_);
  if (flushed_) return written;
  flushed_ = true;
  for (const CapturedFrame& frame : recent_) {
    std::string path = PathOf(frame.number, "-before-loss");
    if (WritePng(path, frame)) written.push_back({swapchainId_, frame.number, std::move(path)});
  }
  if (!written.empty())
    CT_INFO("frame capture: the device was lost; the last %zu presented frame(s) are in %s", written.size(),
            directory_.c_str());
  recent_.clear();
  return written;
}

}  // namespace crashtest::wsi
