#include "render_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace crashtest::test {

std::vector<uint32_t> ReadSpirvFile(const std::string& name) {
  const std::string path = std::string(CRASHTEST_RASTER_SHADER_DIR) + "/" + name + ".spv";
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::vector<uint32_t> words;
  uint32_t w;
  while (std::fread(&w, 4, 1, f) == 1) words.push_back(w);
  std::fclose(f);
  return words;
}

VkInstance CreateInstance() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "crashtest-raster-tests";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  return vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS ? instance : VK_NULL_HANDLE;
}

Comparison Compare(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& oracle, uint32_t width,
                   uint32_t height, int tolerance, int edgeJump) {
  Comparison c;
  auto at = [&](const std::vector<uint8_t>& img, int x, int y, int ch) { return int(img[(size_t(y) * width + x) * 4 + ch]); };
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      int diff = 0;
      for (int ch = 0; ch < 4; ++ch) diff = std::max(diff, std::abs(at(ours, x, y, ch) - at(oracle, x, y, ch)));
      c.maxDifference = std::max(c.maxDifference, diff);
      if (diff <= tolerance) continue;
      ++c.mismatches;
      // An edge pixel: in the oracle's image some neighbour jumps by more than `edgeJump` in a channel.
      bool edge = false;
      for (int dy = -1; dy <= 1 && !edge; ++dy)
        for (int dx = -1; dx <= 1 && !edge; ++dx) {
          const int nx = int(x) + dx, ny = int(y) + dy;
          if (nx < 0 || ny < 0 || nx >= int(width) || ny >= int(height)) continue;
          for (int ch = 0; ch < 4; ++ch)
            if (std::abs(at(oracle, nx, ny, ch) - at(oracle, x, y, ch)) > edgeJump) edge = true;
        }
      if (!edge) {
        if (c.interiorMismatches++ == 0) {
          char text[160];
          std::snprintf(text, sizeof text, "(%u,%u): ours %d,%d,%d,%d lavapipe %d,%d,%d,%d", x, y, at(ours, x, y, 0),
                        at(ours, x, y, 1), at(ours, x, y, 2), at(ours, x, y, 3), at(oracle, x, y, 0),
                        at(oracle, x, y, 1), at(oracle, x, y, 2), at(oracle, x, y, 3));
          c.firstMismatch = text;
        }
      }
    }
  return c;
}

VkInstance RenderDifferential::instance_ = VK_NULL_HANDLE;

void RenderDifferential::Expect(const RenderJob& job, int tolerance, uint32_t edgeBudget, int edgeJump) {
    ASSERT_FALSE(job.vertexSpirv.empty() || job.fragmentSpirv.empty()) << "shader missing";
    const RenderResult a = ours_->Render(job);
    ASSERT_EQ(a.result, VK_SUCCESS) << "crashtest: " << a.error;
    const RenderResult b = oracle_->Render(job);
    ASSERT_EQ(b.result, VK_SUCCESS) << "lavapipe: " << b.error;
    ASSERT_EQ(a.color.size(), b.color.size());
    // A blank image would match a blank image: the scene must draw something.
    bool drawn = false;
    for (size_t i = 0; i < b.color.size() && !drawn; ++i) drawn = b.color[i] != b.color[i % 4];
    EXPECT_TRUE(drawn) << "the scene draws nothing on lavapipe";
    // With multiview the layers come one after the other: compared as one image of all their rows.
    const uint32_t layers = job.viewMask == 0 ? 1 : 32 - static_cast<uint32_t>(__builtin_clz(job.viewMask));
    const Comparison c = Compare(a.color, b.color, job.width, job.height * layers, tolerance, edgeJump);
    if (std::getenv("RASTER_DEBUG") != nullptr) {
      for (uint32_t y = 0; y < job.height; y += 1) {
        for (uint32_t x = 0; x < std::min(job.width, 24u); ++x) {
          const size_t i = (size_t(y) * job.width + x) * 4;
          std::printf("%3d/%3d ", a.color[i], b.color[i]);
        }
        std::printf("\n");
      }
      if (!a.depth.empty())
        for (uint32_t y = 0; y < job.height; y += 4) {
          for (uint32_t x = 0; x < job.width; x += 8) {
            float da, db;
            std::memcpy(&da, &a.depth[(size_t(y) * job.width + x) * 4], 4);
            std::memcpy(&db, &b.depth[(size_t(y) * job.width + x) * 4], 4);
            std::printf("%.4f/%.4f ", da, db);
          }
          std::printf("\n");
        }
    }
    RecordProperty("max_difference", c.maxDifference);
    RecordProperty("mismatches", static_cast<int>(c.mismatches));
    std::printf("  %s: largest difference %d, %u pixels beyond %d (%u interior)\n",
                ::testing::UnitTest::GetInstance()->current_test_info()->name(), c.maxDifference, c.mismatches,
                tolerance, c.interiorMismatches);
    EXPECT_EQ(c.interiorMismatches, 0u) << "first interior mismatch " << c.firstMismatch;
    EXPECT_LE(c.mismatches, edgeBudget);
    if (job.secondColorFormat != VK_FORMAT_UNDEFINED) {
      // The second colour attachment: four-byte texels compared like the first.
      ASSERT_EQ(a.secondColor.size(), b.secondColor.size());
      ASSERT_EQ(FormatBytes(job.secondColorFormat), 4u);
      const Comparison c2 = Compare(a.secondColor, b.secondColor, job.width, job.height * layers, tolerance, edgeJump);
      std::printf("  %s (second attachment): largest difference %d, %u pixels beyond %d (%u interior)\n",
                  ::testing::UnitTest::GetInstance()->current_test_info()->name(), c2.maxDifference, c2.mismatches,
                  tolerance, c2.interiorMismatches);
      EXPECT_EQ(c2.interiorMismatches, 0u) << "second attachment: first interior mismatch " << c2.firstMismatch;
      EXPECT_LE(c2.mismatches, edgeBudget) << "second attachment";
    }
    if (job.occlusionQuery) {
      EXPECT_GT(b.samplesPassed, 0u);
      EXPECT_NEAR(static_cast<double>(a.samplesPassed), static_cast<double>(b.samplesPassed), edgeBudget)
          << "occlusion query";
    }
    if (job.depthFormat == VK_FORMAT_D32_SFLOAT) {
      ASSERT_EQ(a.depth.size(), b.depth.size());
      uint32_t depthMismatches = 0;
      const size_t texels = a.depth.size() / 4;
      for (size_t i = 0; i < texels; ++i) {
        float da, db;
        std::memcpy(&da, &a.depth[i * 4], 4);
        std::memcpy(&db, &b.depth[i * 4], 4);
        if (std::fabs(da - db) > 1e-4f) {
          if (depthMismatches == 0) std::printf("  first depth difference at texel %zu: %.9g vs %.9g\n", i, da, db);
          ++depthMismatches;
        }
      }
      EXPECT_LE(depthMismatches, edgeBudget) << "depth texels that differ";
    }
}

}  // namespace crashtest::test
