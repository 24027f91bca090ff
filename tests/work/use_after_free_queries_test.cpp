// Destinations of breadcrumbs and query results, and query pools, destroyed while work that writes them is pending
// (issue 18), through the real loader. vkCmdWriteBufferMarkerAMD writes its marker, vkCmdCopyQueryPoolResults its
// results, when the queue reaches them, and the query commands write their pool then: a destination buffer
// destroyed or whose memory was freed (VUID-vkDestroyBuffer-buffer-00922, VUID-vkFreeMemory-memory-00677), or a
// query pool destroyed (VUID-vkDestroyQueryPool-queryPool-00793), raises a use-after-free device fault instead.
// Before, each wrote through the freed object (ASan: heap-use-after-free; plain builds: a silently successful
// submission, or a crash).
#include <cstdlib>
#include <fstream>
#include <string>

#include "use_after_free_fixture.h"

namespace crashtest::test {
namespace {

class UseAfterFreeQueriesTest : public UseAfterFreeResourcesTest {
 protected:
  void TearDown() override {
    if (device_ != VK_NULL_HANDLE && pool_ != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(device_);
      vkDestroyQueryPool(device_, pool_, nullptr);
    }
    UseAfterFreeResourcesTest::TearDown();
  }
  VkQueryPool CreateTimestampPool() {
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 4;
    EXPECT_EQ(vkCreateQueryPool(device_, &info, nullptr, &pool_), VK_SUCCESS);
    return pool_;
  }
  VkQueryPool pool_ = VK_NULL_HANDLE;
};

// On a device with VK_AMD_buffer_marker (tests/fault/data/breadcrumbs-gpu.json: the default device has none).
class UseAfterFreeMarkerTest : public UseAfterFreeQueriesTest {
 protected:
  void SetUp() override {
    const std::string profile = std::string(CRASHTEST_TEST_DATA_DIR) + "/../../fault/data/breadcrumbs-gpu.json";
    config_path_ = ::testing::TempDir() + "crashtest-marker-config.json";
    std::ofstream(config_path_) << R"({"devices": [")" << profile << R"("]})";
    setenv("CRASHTEST_CONFIG", config_path_.c_str(), 1);  // config_ unsets it again when the test ends
    UseAfterFreeQueriesTest::SetUp();
  }
  std::string config_path_;
};

TEST_F(UseAfterFreeMarkerTest, DestroyingThePendingDestinationOfABufferMarkerRaisesAWriteFault) {
  auto marker = reinterpret_cast<PFN_vkCmdWriteBufferMarkerAMD>(DeviceCommand("vkCmdWriteBufferMarkerAMD"));
  if (marker == nullptr) GTEST_SKIP() << "VK_AMD_buffer_marker not enabled";
  HostBuffer* breadcrumbs = CreateHostBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) { marker(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, breadcrumbs->buffer, 0, 7); },
      [&] { DestroyBuffer(breadcrumbs, true); },
      {"use after free: write of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdWriteBufferMarkerAMD)"});
}

TEST_F(UseAfterFreeQueriesTest, DestroyingThePendingDestinationOfQueryResultsRaisesAWriteFault) {
  VkQueryPool pool = CreateTimestampPool();
  HostBuffer* results = CreateHostBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        vkCmdResetQueryPool(cb, pool, 0, 4);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
        vkCmdCopyQueryPoolResults(cb, pool, 0, 1, results->buffer, 0, 8, VK_QUERY_RESULT_64_BIT);
      },
      [&] { DestroyBuffer(results, true); },
      {"use after free: write of buffer", "VUID-vkDestroyBuffer-buffer-00922", "(vkCmdCopyQueryPoolResults)"});
}

TEST_F(UseAfterFreeQueriesTest, DestroyingAPendingQueryPoolRaisesAFault) {
  VkQueryPool pool = CreateTimestampPool();
  ExpectFaultWhenDestroyedWhilePending(
      [&](VkCommandBuffer cb) {
        vkCmdResetQueryPool(cb, pool, 0, 4);
        vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
      },
      [&] {
        vkDestroyQueryPool(device_, pool, nullptr);
        pool_ = VK_NULL_HANDLE;
      },
      {"use after free: write of query pool", "VUID-vkDestroyQueryPool-queryPool-00793", "(vkCmdResetQueryPool)"});
}

// A second vkDestroyQueryPool of the same handle is logged and ignored (a double free before).
TEST_F(UseAfterFreeQueriesTest, DestroyingAQueryPoolTwiceIsLoggedAndIgnored) {
  VkQueryPool pool = CreateTimestampPool();
  ::testing::internal::CaptureStderr();
  vkDestroyQueryPool(device_, pool, nullptr);
  vkDestroyQueryPool(device_, pool, nullptr);
  pool_ = VK_NULL_HANDLE;
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("VUID-vkDestroyQueryPool-queryPool-parameter"), std::string::npos) << log;
}

}  // namespace
}  // namespace crashtest::test
