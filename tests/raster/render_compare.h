// The comparison the differential draw tests share (render_differential_test.cpp, render_state_test.cpp): a job
// rendered on crashtest and on Mesa's lavapipe (the oracle), compared pixel by pixel: interiors exactly (or within
// one unit where interpolated colours round), edges within a small budget of pixels.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vk_render.h"

namespace crashtest::test {

// The SPIR-V words of shader `name` compiled by the build (tests/raster/shaders); empty when missing.
std::vector<uint32_t> ReadSpirvFile(const std::string& name);

VkInstance CreateInstance();

// How two RGBA8 images differ: the largest channel difference inside (pixels whose 3x3 neighbourhood is the
// same primitive's in lavapipe's image, judged by colour continuity) and the number of pixels beyond tolerance.
struct Comparison {
  int maxDifference = 0;
  uint32_t mismatches = 0;        // pixels differing by more than the tolerance
  uint32_t interiorMismatches = 0;
  std::string firstMismatch;
};

Comparison Compare(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& oracle, uint32_t width,
                   uint32_t height, int tolerance, int edgeJump);

class RenderDifferential : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { instance_ = CreateInstance(); }
  static void TearDownTestSuite() {
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }
  void SetUp() override {
    ASSERT_NE(instance_, VK_NULL_HANDLE) << "vkCreateInstance failed";
    std::string error;
    ours_ = RenderDevice::Open(instance_, "", 1, &error);
    ASSERT_NE(ours_, nullptr) << error;
    oracle_ = RenderDevice::Open(instance_, "llvmpipe", 0, &error);
    ASSERT_NE(oracle_, nullptr) << error;
  }

  // Renders `job` on both and compares the colour (the second one too, when set) and depth attachments.
  void Expect(const RenderJob& job, int tolerance, uint32_t edgeBudget, int edgeJump = 24);

  static VkInstance instance_;
  std::unique_ptr<RenderDevice> ours_, oracle_;
};

}  // namespace crashtest::test
