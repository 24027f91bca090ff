// Faults from real bugs in a draw, through the loader: a vertex fetch past the end of a vertex buffer and a
// fragment shader writing past the end of a storage buffer each lose the device (robustness off) with a report
// naming what faulted and where, as a GPU's page fault would; the same draws within bounds render.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "vk_render.h"

namespace crashtest::test {
namespace {

std::vector<uint32_t> Spirv(const std::string& name) { return RasterShader(name); }

class DrawFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    ASSERT_EQ(vkCreateInstance(&info, nullptr, &instance_), VK_SUCCESS);
    std::string error;
    device_ = RenderDevice::Open(instance_, "", /*crashtest=*/1, &error, /*faults=*/true);
    ASSERT_NE(device_, nullptr) << error;
    ASSERT_TRUE(device_->features().fragmentStoresAndAtomics) << "fragment shaders may not store";
  }
  void TearDown() override {
    device_.reset();
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
  }

  // A 16x16 target covered by two triangles (a quad over the whole viewport): positions and colours in one
  // stream of `vertices` vertices (six make the quad), drawn with `count` vertices.
  static RenderJob Quad(uint32_t vertices, uint32_t count) {
    RenderJob job;
    job.vertexSpirv = Spirv("color.vert");
    job.fragmentSpirv = Spirv("color.frag");
    job.width = job.height = 16;
    const float corners[6][2] = {{-1, -1}, {1, -1}, {-1, 1}, {-1, 1}, {1, -1}, {1, 1}};
    VertexStream stream;
    stream.stride = 32;
    for (uint32_t v = 0; v < vertices; ++v)
      stream.data.insert(stream.data.end(), {corners[v % 6][0], corners[v % 6][1], 0.5f, 1.0f, 0, 1, 0, 1});
    job.streams.push_back(stream);
    job.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
    DrawCommand draw;
    draw.count = count;
    draw.pushConstants = {0, 0, 0, 0};
    job.draws.push_back(draw);
    return job;
  }

  static bool HasAddress(const RenderResult& r, VkDeviceFaultAddressTypeEXT type) {
    for (const VkDeviceFaultAddressInfoEXT& info : r.faultAddresses)
      if (info.addressType == type) return true;
    return false;
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  std::unique_ptr<RenderDevice> device_;
};

TEST_F(DrawFaults, QuadWithinItsVertexBufferRenders) {
  const RenderResult r = device_->Render(Quad(6, 6));
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.color.size(), 16u * 16u * 4u);
  for (size_t p = 0; p < 16 * 16; ++p) ASSERT_EQ(r.color[p * 4 + 1], 255) << "pixel " << p << " is not green";
}

TEST_F(DrawFaults, VertexFetchPastTheEndOfTheBufferLosesTheDevice) {
  // Six vertices drawn from a buffer that holds three: the fourth fetch reads past the end.
  const RenderResult r = device_->Render(Quad(3, 6));
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  EXPECT_NE(r.faultDescription.find("vertex"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("fetch"), std::string::npos) << r.faultDescription;
  EXPECT_TRUE(HasAddress(r, VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT)) << r.faultDescription;
}

TEST_F(DrawFaults, FragmentStoreWithinItsBufferRecordsCoverage) {
  RenderJob job = Quad(6, 6);
  job.fragmentSpirv = Spirv("oob_store.frag");
  job.storage.assign(16 * 16, 0);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  ASSERT_EQ(r.storage.size(), 16u * 16u);
  for (size_t p = 0; p < r.storage.size(); ++p) ASSERT_EQ(r.storage[p], 1u) << "pixel " << p;
}

// Helper invocations (the uncovered pixels of a quad along the triangle's diagonal) run the shader for derivatives
// but their stores have no effect: exactly the covered pixels record coverage.
TEST_F(DrawFaults, HelperInvocationsDoNotStore) {
  RenderJob job = Quad(3, 3);  // the lower-left half of the target
  job.fragmentSpirv = Spirv("oob_store.frag");
  job.storage.assign(16 * 16, 0);
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_SUCCESS) << r.error;
  uint32_t covered = 0;
  for (size_t p = 0; p < 16 * 16; ++p) {
    const bool green = r.color[p * 4 + 1] == 255;
    covered += green ? 1 : 0;
    ASSERT_EQ(r.storage[p], green ? 1u : 0u) << "pixel " << p % 16 << "," << p / 16;
  }
  EXPECT_GT(covered, 100u);
  EXPECT_LT(covered, 156u);
}

TEST_F(DrawFaults, FragmentStorePastTheEndOfAStorageBufferLosesTheDevice) {
  RenderJob job = Quad(6, 6);
  job.fragmentSpirv = Spirv("oob_store.frag");
  job.storage.assign(16 * 15, 0);  // one row short
  const RenderResult r = device_->Render(job);
  ASSERT_EQ(r.result, VK_ERROR_DEVICE_LOST) << r.error;
  EXPECT_NE(r.faultDescription.find("out-of-bounds write"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("fragment"), std::string::npos) << r.faultDescription;
  EXPECT_NE(r.faultDescription.find("oob_store.frag"), std::string::npos) << r.faultDescription;
  EXPECT_TRUE(HasAddress(r, VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT)) << r.faultDescription;
  EXPECT_TRUE(HasAddress(r, VK_DEVICE_FAULT_ADDRESS_TYPE_INSTRUCTION_POINTER_FAULT_EXT)) << r.faultDescription;
}

}  // namespace
}  // namespace crashtest::test
