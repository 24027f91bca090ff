// Faults at present time (docs/faults.md, docs/wsi.md): "present" and "acquire" triggers with the device-lost,
// surface-lost and out-of-date effects, and the frames kept for a loss (options.captureLast).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fault/dump/dump_reader.h"
#include "fault/dump/dump_report.h"
#include "wsi_env.h"

namespace crashtest::test {
namespace {

class PresentFault : public WsiTest {
 protected:
  uint32_t Acquire(VkSwapchainKHR swapchain, VkResult expected = VK_SUCCESS) {
    uint32_t index = UINT32_MAX;
    EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, UINT64_MAX, VK_NULL_HANDLE, VK_NULL_HANDLE, &index),
              expected);
    return index;
  }
};

class LostAtThirdPresent : public PresentFault {
 protected:
  const char* ConfigFile() const override { return "present_device_lost.json"; }
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("crashtest-loss-capture-" + std::to_string(getpid()));
    std::filesystem::remove_all(directory_);
    env_ = std::make_unique<ScopedEnv>("CRASHTEST_CAPTURE_DIR", (directory_ / "frames").string());
    dumpEnv_ = std::make_unique<ScopedEnv>("CRASHTEST_DUMP_DIR", (directory_ / "dumps").string());
    PresentFault::SetUp();
  }
  void TearDown() override {
    PresentFault::TearDown();
    std::filesystem::remove_all(directory_);
  }
  // The files in `folder`, sorted by name.
  static std::vector<std::string> Files(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    if (!std::filesystem::exists(folder)) return names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::filesystem::path directory_;
  std::unique_ptr<ScopedEnv> env_;
  std::unique_ptr<ScopedEnv> dumpEnv_;
};

TEST_F(LostAtThirdPresent, TheDeviceIsLostAndTheLastFramesAreWritten) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_IMMEDIATE_KHR, 2, {8, 4});
  ASSERT_EQ(Present(swapchain, Acquire(swapchain)), VK_SUCCESS);
  ASSERT_EQ(Present(swapchain, Acquire(swapchain)), VK_SUCCESS);
  // Only the last N before a loss are kept (captureEvery 0): nothing written yet.
  EXPECT_TRUE(Files(directory_ / "frames").empty());
  EXPECT_EQ(Present(swapchain, Acquire(swapchain)), VK_ERROR_DEVICE_LOST);
  // Written with the crash dump, at the loss: the application need not touch the swapchain again.
  const std::vector<std::string> frames = Files(directory_ / "frames");
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_NE(frames[0].find("frame000001-before-loss.png"), std::string::npos) << frames[0];
  EXPECT_NE(frames[1].find("frame000002-before-loss.png"), std::string::npos) << frames[1];
  PngPixels png;
  ASSERT_TRUE(ReadPng(frames[1], png));
  EXPECT_EQ(png.width, 8u);
  EXPECT_EQ(png.height, 4u);
  Acquire(swapchain, VK_ERROR_DEVICE_LOST);
  VkFence fence = VK_NULL_HANDLE;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  ASSERT_EQ(vkCreateFence(device_, &fenceInfo, nullptr, &fence), VK_SUCCESS);
  EXPECT_EQ(vkQueueSubmit(queue_, 0, nullptr, fence), VK_ERROR_DEVICE_LOST);
  vkDestroyFence(device_, fence, nullptr);
  EXPECT_EQ(Files(directory_ / "frames"), frames) << "written once";

  // The crash dump names them (section 8, docs/faults.md).
  const std::vector<std::string> dumps = Files(directory_ / "dumps");
  ASSERT_EQ(dumps.size(), 1u);
  std::ifstream file(dumps[0], std::ios::binary);
  const std::vector<char> chars{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<std::byte> bytes(chars.size());
  std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return static_cast<std::byte>(c); });
  dump::Decoded decoded;
  std::string error;
  ASSERT_TRUE(dump::DecodeVendorBinary(bytes, &decoded, &error)) << error;
  const auto& captured = decoded.content.capturedFrames;
  ASSERT_EQ(captured.size(), 2u);
  EXPECT_EQ(captured[0].frame, 1u);
  EXPECT_EQ(captured[1].frame, 2u);
  EXPECT_EQ(captured[0].swapchain, captured[1].swapchain);
  EXPECT_EQ(captured[0].path, frames[0]);
  EXPECT_EQ(captured[1].path, frames[1]);
  const std::string text = dump::DumpText(decoded);
  EXPECT_NE(text.find("frames presented before the loss (PNG):"), std::string::npos) << text;
  EXPECT_NE(text.find(frames[1]), std::string::npos) << text;
}

class OutOfDateAtSecondAcquire : public PresentFault {
 protected:
  const char* ConfigFile() const override { return "acquire_out_of_date.json"; }
};

TEST_F(OutOfDateAtSecondAcquire, TheSwapchainMustBeRecreated) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 3);
  ASSERT_EQ(Present(swapchain, Acquire(swapchain)), VK_SUCCESS);
  Acquire(swapchain, VK_ERROR_OUT_OF_DATE_KHR);
  Acquire(swapchain, VK_ERROR_OUT_OF_DATE_KHR);  // stays out of date until recreated
  VkSwapchainCreateInfoKHR info = SwapchainInfo(VK_PRESENT_MODE_FIFO_KHR, 3);
  info.oldSwapchain = swapchain;
  VkSwapchainKHR fresh = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSwapchainKHR(device_, &info, nullptr, &fresh), VK_SUCCESS);
  swapchains_.push_back(fresh);
  EXPECT_EQ(Present(fresh, Acquire(fresh)), VK_SUCCESS);
}

class SurfaceLostAtFirstPresent : public PresentFault {
 protected:
  const char* ConfigFile() const override { return "present_surface_lost.json"; }
};

TEST_F(SurfaceLostAtFirstPresent, PresentAndLaterAcquiresSayTheSurfaceIsLost) {
  VkSwapchainKHR swapchain = CreateSwapchain(VK_PRESENT_MODE_FIFO_KHR, 2);
  EXPECT_EQ(Present(swapchain, Acquire(swapchain)), VK_ERROR_SURFACE_LOST_KHR);
  Acquire(swapchain, VK_ERROR_SURFACE_LOST_KHR);
}

TEST(PresentFaultPlan, ASwapchainEffectNeedsAPresentOrAcquireTrigger) {
  ScopedConfig config("bad_surface_effect.json");
  VkResult result = VK_SUCCESS;
  EXPECT_EQ(CreateInstance(VK_API_VERSION_1_3, {}, nullptr, &result), VK_NULL_HANDLE);
  // The driver fails with VK_ERROR_INITIALIZATION_FAILED; the loader, left without a driver, may say
  // VK_ERROR_INCOMPATIBLE_DRIVER instead.
  EXPECT_TRUE(result == VK_ERROR_INITIALIZATION_FAILED || result == VK_ERROR_INCOMPATIBLE_DRIVER) << result;
}

}  // namespace
}  // namespace crashtest::test
